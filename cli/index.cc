// tilecheck index LAYOUT E: the linear index of element E (spec::linear_index),
// and for sub-byte widths the byte and bits it occupies.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::cli {

void add_index_command(CLI::App& app) {
  struct Args {
    LayoutArgument layout;
    std::string element;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand("index", "the linear index of an element");
  add_layout_argument(command, args->layout);
  add_element_argument(command, args->element);
  add_json_flag(command, args->json);
  command->callback([args] {
    const ShapeWithLayout shape = parse_layout_argument(args->layout);
    const std::vector<int64_t> element = parse_coordinates(args->element);
    if (args->json) {
      const int64_t index = spec::linear_index(shape, element);
      const BufferPlace place = buffer_place(shape, index);
      print_json({{"index", index}, {"byte", place.byte}, {"bit", place.bit}});
    } else {
      std::cout << answers::index_text(shape, element);
    }
  });
}

}  // namespace tilecheck::cli
