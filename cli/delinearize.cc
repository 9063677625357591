// tilecheck delinearize LAYOUT P: the element stored at linear position P, or
// "padding" (spec::delinearize).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::cli {

void add_delinearize_command(CLI::App& app) {
  struct Args {
    LayoutArgument layout;
    std::string position;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "delinearize", "the element stored at a linear position, or 'padding'");
  add_layout_argument(command, args->layout);
  command->add_option("P", args->position, "the linear position, 0 <= P < padded count")
      ->required();
  add_json_flag(command, args->json);
  command->callback([args] {
    const ShapeWithLayout shape = parse_layout_argument(args->layout);
    const int64_t position = parse_int64(args->position, "position");
    if (args->json) {
      const auto element = spec::delinearize(shape, position);
      nlohmann::json out = {{"padding", !element.has_value()}};
      if (element) out["element"] = *element;
      print_json(out);
    } else {
      std::cout << answers::delinearize_text(shape, position);
    }
  });
}

}  // namespace tilecheck::cli
