// tilecheck size LAYOUT: element count, padded count, bytes and tiled shape.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::cli {

void add_size_command(CLI::App& app) {
  struct Args {
    std::string layout;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "size", "element count, padded element count, byte size and the final tiled shape");
  add_layout_argument(command, args->layout);
  add_json_flag(command, args->json);
  command->callback([args] {
    const ShapeWithLayout shape = parse_layout_argument(args->layout);
    const int64_t elements = spec::element_count(shape);
    const int64_t padded = spec::padded_element_count(shape);
    const int64_t bytes = spec::byte_size(shape);
    const std::vector<int64_t> tiled = spec::tiled_shape(shape);
    if (args->json) {
      print_json({{"elements", elements},
                  {"padded_elements", padded},
                  {"bytes", bytes},
                  {"element_bits", shape.element_bits()},
                  {"tiled_shape", tiled}});
    } else {
      std::cout << "elements         " << elements << "\n"
                << "padded elements  " << padded << " (" << padded - elements << " padding)\n"
                << "bytes            " << bytes << " (" << shape.element_bits()
                << " bits per element)\n"
                << "tiled shape      " << tuple(tiled) << "\n";
    }
  });
}

}  // namespace tilecheck::cli
