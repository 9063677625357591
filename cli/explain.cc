// tilecheck explain LAYOUT E: the derivation of E's linear index as the
// document shows it for Figure 1, level by level (spec::trace_linear_index;
// the text is answers::explain_text's, the JSON this file's).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {
namespace {

nlohmann::json trace_json(const spec::IndexTrace& trace) {
  nlohmann::json levels = nlohmann::json::array();
  for (const spec::LevelTrace& level : trace.levels) {
    levels.push_back({{"tile", print_tile(level.tile)},
                      {"index_before", level.index_before},
                      {"bounds_before", level.bounds_before},
                      {"merged_index", level.merged_index},
                      {"merged_bounds", level.merged_bounds},
                      {"tile_index", level.tile_index},
                      {"within_tile_index", level.within_tile_index},
                      {"index_after", level.index_after},
                      {"bounds_after", level.bounds_after}});
  }
  return {{"physical_index", trace.physical_index},
          {"physical_bounds", trace.physical_bounds},
          {"levels", levels},
          {"final_index", trace.final_index},
          {"final_bounds", trace.final_bounds},
          {"index", trace.linear_index}};
}

}  // namespace

void add_explain_command(CLI::App& app) {
  struct Args {
    LayoutArgument layout;
    std::string element;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "explain", "the derivation of an element's linear index, level by level");
  add_layout_argument(command, args->layout);
  add_element_argument(command, args->element);
  add_json_flag(command, args->json);
  command->callback([args] {
    const ShapeWithLayout shape = parse_layout_argument(args->layout);
    const std::vector<int64_t> element = parse_coordinates(args->element);
    if (args->json) {
      const spec::IndexTrace trace = spec::trace_linear_index(shape, element);
      nlohmann::json j = trace_json(trace);
      const BufferPlace place = buffer_place(shape, trace.linear_index);
      j["byte"] = place.byte;
      j["bit"] = place.bit;
      print_json(j);
      return;
    }
    std::cout << answers::explain_text(shape, element);
  });
}

}  // namespace tilecheck::cli
