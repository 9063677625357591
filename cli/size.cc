// tilecheck size LAYOUT: element count, padded count, exact bytes and tiled
// shape; with --model xla (and always in --json) XLA's ArraySize and
// ByteSizeOf beside them, and why they differ (tilecheck/spec/xla_model.h).
// A tuple gets one row per array and the totals. The text is
// answers::size_text's, the JSON this file's.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::cli {
namespace {

using answers::ArraySizes;

nlohmann::json array_sizes_json(const ArraySizes& s) {
  nlohmann::json j;
  j["elements"] = s.elements;
  j["element_bits"] = s.element_bits;
  if (s.bytes) {
    j["padded_elements"] = *s.padded;
    j["bytes"] = *s.bytes;
    j["tiled_shape"] = s.tiled;
  } else {
    j["bytes"] = nullptr;
    j["exact_error"] = s.exact_error;
  }
  if (s.array_size) {
    j["xla_array_size"] = *s.array_size;
    j["xla_byte_size_of"] = *s.byte_size_of;
    j["xla_array_size_meaningless"] = s.meaningless;
    j["xla_differs"] = !s.bytes || *s.bytes != *s.array_size;
    j["xla_reasons"] = s.reasons;
  } else {
    j["xla_array_size"] = nullptr;
    j["xla_error"] = s.xla_error;
  }
  return j;
}

}  // namespace

void add_size_command(CLI::App& app) {
  struct Args {
    std::string layout;
    std::string model = "exact";
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "size",
      "element count, padded element count, byte size and the final tiled shape; for a tuple, "
      "each array and the total");
  add_layout_argument(command, args->layout);
  command
      ->add_option("--model", args->model,
                   "exact: tilecheck's exact size; xla: also XLA's ArraySize and ByteSizeOf and "
                   "why they differ (--json always has both)")
      ->check(CLI::IsMember({"exact", "xla"}));
  add_json_flag(command, args->json);
  command->callback([args] {
    const Shape whole = parse_shape_argument(args->layout);
    if (!args->json) {
      std::cout << answers::size_text(whole, args->model == "xla");
      return;
    }
    if (whole.is_array()) {
      print_json(array_sizes_json(answers::array_sizes(whole.array)));
      return;
    }
    // A tuple: each array, then the totals of the sizes every array has.
    nlohmann::json leaves = nlohmann::json::array();
    int64_t total = 0, total_array_size = 0;
    bool total_known = true, xla_known = true;
    for (const Leaf& leaf : array_leaves(whole)) {
      const ArraySizes s = answers::array_sizes(*leaf.array);
      if (s.bytes) total += *s.bytes; else total_known = false;
      if (s.array_size) total_array_size += *s.array_size; else xla_known = false;
      nlohmann::json j = array_sizes_json(s);
      j["path"] = leaf.path;
      j["shape"] = s.shape;
      leaves.push_back(j);
    }
    nlohmann::json out{{"leaves", leaves}, {"xla_byte_size_of", xla::byte_size_of(whole)}};
    out["bytes"] = total_known ? nlohmann::json(total) : nlohmann::json(nullptr);
    out["xla_array_size"] = xla_known ? nlohmann::json(total_array_size) : nlohmann::json(nullptr);
    print_json(out);
  });
}

}  // namespace tilecheck::cli
