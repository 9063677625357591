// tilecheck vectors LAYOUT... | --catalog [--list]: golden vectors from the
// spec (vectors/generate.h), so that an implementation in any language can
// test itself against a file. docs/VECTORS.md is the format's contract.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "vectors/generate.h"

namespace tilecheck::cli {

void add_vectors_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> layouts;
    bool catalog = false;
    bool list = false;
    vectors::Options options;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "vectors",
      "golden vectors from the spec, as one JSON document: sizes, indices of chosen elements, "
      "packed buffers, and (--catalog) texts a parser must accept or reject "
      "(format: docs/VECTORS.md)");
  CLI::Option* layouts = command->add_option("LAYOUT", args->layouts,
                                             "shapes with layouts, e.g. 'f32[3,5]{1,0:T(2,2)}'");
  command->add_flag("--catalog", args->catalog,
                    "every layout of the built-in catalogue and the parse tests")
      ->excludes(layouts);
  command->add_flag("--list", args->list,
                    "list the tests instead (one line each: id, result, flags, tab-separated)");
  command->add_option("--count", args->options.count, "index tests per layout (all elements if fewer)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, vectors::kMaxCount));
  command->add_option("--seed", args->options.seed, "seed of the element choice and the buffer values")
      ->capture_default_str();
  command->callback([args] {
    vectors::Json doc;
    if (args->catalog) {
      doc = vectors::catalog_document(args->options);
    } else {
      if (args->layouts.empty()) throw Error("give one or more LAYOUTs, or --catalog");
      std::vector<ShapeWithLayout> shapes;  // nothing is printed unless every layout is valid
      for (const std::string& text : args->layouts) shapes.push_back(parse_layout_argument(text));
      doc = vectors::layouts_document(shapes, args->options);
    }
    std::cout << (args->list ? vectors::list(doc) : vectors::render(doc));
  });
}

}  // namespace tilecheck::cli
