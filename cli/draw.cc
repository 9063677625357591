// tilecheck draw LAYOUT [--svg FILE]: the memory map, like the document's
// Figures 1 and 2 (draw/draw.h): each element's linear index, and the memory
// in order. As text, large layouts are cut at --max-rows; --svg writes both
// views side by side as an SVG figure, for layouts that fit a page.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "draw/draw.h"

namespace tilecheck::cli {

void add_draw_command(CLI::App& app) {
  struct Args {
    LayoutArgument layout;
    std::string svg;
    int64_t max_rows = 32;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "draw", "the memory map as text (or SVG): each element's linear index, and memory in order");
  add_layout_argument(command, args->layout);
  command->add_option("--max-rows", args->max_rows,
                      "cut the grid at this many rows and columns, memory at this many lines")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{100000}));
  command->add_option("--svg", args->svg,
                      "write the memory map as an SVG figure to this file instead (layouts up to a " +
                          std::to_string(draw::kMaxSvgGridSide) + "x" +
                          std::to_string(draw::kMaxSvgGridSide) + " logical view and " +
                          std::to_string(draw::kMaxSvgPositions) + " positions)");
  command->callback([args] {
    const ShapeWithLayout shape = parse_layout_argument(args->layout);
    if (args->svg.empty()) {
      std::cout << draw::text(shape, args->max_rows, "--max-rows");
      return;
    }
    const std::string svg = draw::svg(shape);
    std::ofstream file(args->svg, std::ios::binary);
    file << svg;
    file.close();
    if (!file) throw Error("cannot write the SVG to '" + args->svg + "'");
  });
}

}  // namespace tilecheck::cli
