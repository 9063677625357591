// tilecheck size LAYOUT: element count, padded count, exact bytes and tiled
// shape; with --model xla (and always in --json) XLA's ArraySize and
// ByteSizeOf beside them, and why they differ (tilecheck/spec/xla_model.h).
// A tuple gets one row per array and the totals.
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::cli {
namespace {

// Both models of one array; `exact_error` says why the exact one is missing
// (a construct tilecheck does not model), `xla_error` likewise.
struct ArraySizes {
  std::string shape;
  int64_t elements = 0;
  std::optional<int64_t> padded, bytes;
  std::vector<int64_t> tiled;
  int64_t element_bits = 0;
  std::string exact_error, xla_error;
  std::optional<int64_t> array_size, byte_size_of;
  bool meaningless = false;
  std::vector<std::string> reasons;
};

ArraySizes array_sizes_of(const ShapeWithLayout& shape) {
  ArraySizes s;
  s.shape = print_shape(shape);
  s.element_bits = shape.element_bits();
  try {
    spec::validate(shape);
    s.elements = spec::element_count(shape);
    s.padded = spec::padded_element_count(shape);
    s.bytes = spec::byte_size(shape);
    s.tiled = spec::tiled_shape(shape);
  } catch (const Error& e) {
    s.exact_error = e.what();
  }
  try {
    s.array_size = xla::array_size(shape);
    s.byte_size_of = xla::byte_size_of(shape);
    if (s.bytes) {
      const xla::SizeComparison c = xla::compare_sizes(shape);
      s.meaningless = c.meaningless;
      s.reasons = c.reasons;
    }
  } catch (const Error& e) {
    s.xla_error = e.what();
  }
  if (!s.bytes && !s.array_size) {
    throw Error("layout '" + s.shape + "': " + s.exact_error);
  }
  return s;
}

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

void print_array_sizes(const ArraySizes& s, bool xla_model, const std::string& indent) {
  if (s.bytes) {
    std::cout << indent << "elements         " << s.elements << "\n"
              << indent << "padded elements  " << *s.padded << " (" << *s.padded - s.elements
              << " padding)\n"
              << indent << "bytes            " << *s.bytes << " (" << s.element_bits
              << " bits per element)\n"
              << indent << "tiled shape      " << tuple(s.tiled) << "\n";
  } else {
    std::cout << indent << "bytes            " << s.exact_error << "\n";
  }
  if (!xla_model) return;
  if (!s.array_size) {
    std::cout << indent << "XLA ArraySize    " << s.xla_error << "\n";
    return;
  }
  std::cout << indent << "XLA ArraySize    " << *s.array_size
            << (s.meaningless ? " (meaningless: see below)" : "") << "\n"
            << indent << "XLA ByteSizeOf   " << *s.byte_size_of << " (elements only, no padding)\n";
  if (s.bytes && *s.bytes == *s.array_size && s.reasons.empty()) {
    std::cout << indent << "the exact size and XLA's ArraySize agree\n";
  }
  for (const std::string& reason : s.reasons) std::cout << indent << "why: " << reason << "\n";
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
    const bool xla_model = args->model == "xla";
    if (whole.is_array()) {
      const ArraySizes s = array_sizes_of(whole.array);
      if (args->json) {
        print_json(array_sizes_json(s));
      } else {
        print_array_sizes(s, xla_model, "");
      }
      return;
    }
    // A tuple: each array, then the totals of the sizes every array has.
    nlohmann::json leaves = nlohmann::json::array();
    int64_t total = 0, total_array_size = 0;
    bool total_known = true, xla_known = true;
    std::vector<std::pair<Leaf, ArraySizes>> rows;
    for (const Leaf& leaf : array_leaves(whole)) {
      ArraySizes s = array_sizes_of(*leaf.array);
      if (s.bytes) total += *s.bytes; else total_known = false;
      if (s.array_size) total_array_size += *s.array_size; else xla_known = false;
      rows.emplace_back(leaf, std::move(s));
    }
    const int64_t table = xla::byte_size_of(whole);
    if (args->json) {
      for (const auto& [leaf, s] : rows) {
        nlohmann::json j = array_sizes_json(s);
        j["path"] = leaf.path;
        j["shape"] = s.shape;
        leaves.push_back(j);
      }
      nlohmann::json out{{"leaves", leaves}, {"xla_byte_size_of", table}};
      out["bytes"] = total_known ? nlohmann::json(total) : nlohmann::json(nullptr);
      out["xla_array_size"] =
          xla_known ? nlohmann::json(total_array_size) : nlohmann::json(nullptr);
      print_json(out);
      return;
    }
    const bool buffer = whole.kind == Shape::Kind::kBuffer;
    if (buffer) {
      std::cout << "buffer of one array\n";
    } else {
      std::cout << "tuple of " << whole.elements.size() << " element"
                << (whole.elements.size() == 1 ? "" : "s") << ", " << rows.size() << " array"
                << (rows.size() == 1 ? "" : "s") << "\n";
    }
    for (const auto& [leaf, s] : rows) {
      std::cout << "array {" << join(leaf.path) << "} " << s.shape << "\n";
      print_array_sizes(s, xla_model, "  ");
    }
    std::cout << "total bytes      "
              << (total_known ? std::to_string(total) : "unknown (an array is not supported)")
              << "\n";
    if (xla_model) {
      std::cout << "total XLA ArraySize "
                << (xla_known ? std::to_string(total_array_size) : "unknown") << "\n";
      if (buffer) {
        std::cout << "XLA ByteSizeOf of the buffer " << table << " (its array's)\n";
      } else {
        std::cout << "XLA ByteSizeOf of the tuple " << table << " (its index table: "
                  << xla::kPointerSize << " bytes per element)\n";
      }
    }
  });
}

}  // namespace tilecheck::cli
