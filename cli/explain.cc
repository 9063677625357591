// tilecheck explain LAYOUT E: the derivation of E's linear index as the
// document shows it for Figure 1, level by level (spec::trace_linear_index):
//
//   linear_index_with_tile(e, d, t) = linear_index((floor(e/t), e mod t), (ceil(d/t), t))
//
// For each tiling level: the D3 extension, the untouched prefix dims, the D4
// merges of '*' dims, the tile index floor(e/t), the within-tile index
// e mod t, and the combined vector with its bounds. Then the final sum, split
// as the document splits it for the last level:
//   linear_index(outer, ceil(d/t)) * t_n*...*t_1 + linear_index(inner, t).
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {
namespace {

std::vector<int64_t> slice(const std::vector<int64_t>& v, size_t begin, size_t end) {
  return std::vector<int64_t>(v.begin() + begin, v.begin() + end);
}

// linear_index(e, d) by Horner's rule, as the document writes it: "(1*3 + 1)".
std::string horner(const std::vector<int64_t>& e, const std::vector<int64_t>& d) {
  if (e.empty()) return "0";
  std::string s = std::to_string(e[0]);
  for (size_t i = 1; i < e.size(); ++i) {
    s = (i > 1 ? "(" + s + ")" : s) + "*" + std::to_string(d[i]) + " + " + std::to_string(e[i]);
  }
  return s;
}

std::string parenthesized_if_sum(const std::string& s) {
  return s.find('+') == std::string::npos ? s : "(" + s + ")";
}

// The non-'*' entries of a tile, the sizes floor(e/t) and e mod t use.
std::vector<int64_t> tile_sizes(const spec::LevelTrace& level) {
  std::vector<int64_t> sizes;
  for (const spec::TileGroup& g : level.structure.groups) sizes.push_back(level.tile.dims[g.tile_pos]);
  return sizes;
}

void print_level(std::ostream& out, size_t number, const spec::LevelTrace& level) {
  const spec::LevelStructure& s = level.structure;
  const std::vector<int64_t> t = tile_sizes(level);
  out << "level " << number << ": tile " << print_tile(level.tile) << " on element "
      << tuple(level.index_before) << ", bounds " << tuple(level.bounds_before) << "\n";
  if (s.extension > 0) {
    out << "  extend (D3)        the tile has more dims than the shape: " << s.extension
        << " leading dim(s) of size 1, index 0\n";
  }
  // Indices and bounds after the D3 extension, which the groups refer to.
  std::vector<int64_t> e(s.extension, 0), d(s.extension, 1);
  e.insert(e.end(), level.index_before.begin(), level.index_before.end());
  d.insert(d.end(), level.bounds_before.begin(), level.bounds_before.end());
  if (s.prefix > 0) {
    out << "  untiled prefix     " << tuple(slice(e, 0, s.prefix)) << " of bounds "
        << tuple(slice(d, 0, s.prefix)) << " (dims the tile does not reach)\n";
  }
  for (size_t k = 0; k < s.groups.size(); ++k) {
    const spec::TileGroup& g = s.groups[k];
    if (g.first == g.last) continue;
    out << "  combine (D4, '*')  dims " << g.first << ".." << g.last << ": index "
        << horner(slice(e, g.first, g.last + 1), slice(d, g.first, g.last + 1)) << " = "
        << level.merged_index[k] << ", bound " << join(slice(d, g.first, g.last + 1), "*")
        << " = " << level.merged_bounds[k] << "\n";
  }
  out << "  tile index         floor(" << tuple(level.merged_index) << " / " << tuple(t)
      << ") = " << tuple(level.tile_index) << "\n";
  out << "  within-tile index  " << tuple(level.merged_index) << " mod " << tuple(t) << " = "
      << tuple(level.within_tile_index) << "\n";
  out << "  combined vector    " << tuple(level.index_after) << ", bounds ";
  std::string bounds_formula;
  if (s.prefix > 0) bounds_formula += join(slice(d, 0, s.prefix)) + ", ";
  bounds_formula += "ceil(" + tuple(level.merged_bounds) + " / " + tuple(t) + "), " + tuple(t);
  out << "(" << bounds_formula << ") = " << tuple(level.bounds_after) << "\n";
}

void print_sum(std::ostream& out, const spec::IndexTrace& trace) {
  const std::vector<int64_t>& e = trace.final_index;
  const std::vector<int64_t>& d = trace.final_bounds;
  out << "linear_index(" << tuple(e) << ", " << tuple(d) << ")\n";
  if (!trace.levels.empty()) {
    // The document's split of the last level: tile part times tile size plus
    // the within-tile part.
    const size_t inner = trace.levels.back().within_tile_index.size();
    const size_t outer = e.size() - inner;
    const std::vector<int64_t> outer_e = slice(e, 0, outer), outer_d = slice(d, 0, outer);
    const std::vector<int64_t> inner_e = slice(e, outer, e.size()), inner_d = slice(d, outer, d.size());
    out << "  = linear_index(" << tuple(outer_e) << ", " << tuple(outer_d) << ") * "
        << join(inner_d, "*") << " + linear_index(" << tuple(inner_e) << ", " << tuple(inner_d)
        << ")\n";
    out << "  = " << parenthesized_if_sum(horner(outer_e, outer_d)) << " * " << join(inner_d, "*")
        << " + " << parenthesized_if_sum(horner(inner_e, inner_d)) << "\n";
  } else if (e.size() > 1) {
    out << "  = " << horner(e, d) << "\n";
  }
  out << "  = " << trace.linear_index << "\n";
}

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
    const spec::IndexTrace trace = spec::trace_linear_index(shape, element);
    if (args->json) {
      nlohmann::json j = trace_json(trace);
      const BufferPlace place = buffer_place(shape, trace.linear_index);
      j["byte"] = place.byte;
      j["bit"] = place.bit;
      print_json(j);
      return;
    }
    std::ostringstream out;
    out << "element " << tuple(element) << " of " << print_shape(shape) << "\n";
    out << "physical order (minor_to_major " << join(shape.layout.minor_to_major)
        << "): element " << tuple(trace.physical_index) << ", bounds "
        << tuple(trace.physical_bounds) << "\n";
    for (size_t k = 0; k < trace.levels.size(); ++k) print_level(out, k + 1, trace.levels[k]);
    print_sum(out, trace);
    const BufferPlace place = buffer_place(shape, trace.linear_index);
    if (!place.text.empty()) out << "  in the buffer: " << place.text << "\n";
    std::cout << out.str();
  });
}

}  // namespace tilecheck::cli
