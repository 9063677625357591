// tilecheck draw LAYOUT: the memory map as text, like the document's
// Figures 1 and 2, in two views:
//   - the logical array with each element's linear index (rows: the second
//     most minor logical dim, columns: the most minor one; for rank > 2 the
//     leading dims are fixed at index 0, and the output says so);
//   - the memory in order: the element stored at each position, '.' for
//     padding (D8), one line per run of the tiled shape's minor dims (for
//     Figure 1, one row of 2x2 tiles per line).
// Large layouts are cut at --max-rows rows/columns/lines, and the output
// says what was cut.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "spec/semantics.h"
#include "spec/syntax.h"

namespace tilecheck::cli {
namespace {

// Positions per line of the memory view: the product of the tiled shape's
// most minor dims, as many as fit in 16 (at least the last dim, at most 16).
int64_t memory_line_width(const std::vector<int64_t>& tiled) {
  int64_t width = 1;
  for (size_t i = tiled.size(); i-- > 0;) {
    if (tiled[i] == 0) return 1;
    if (width * tiled[i] > 16) return width > 1 ? width : 16;
    width *= tiled[i];
  }
  return std::max<int64_t>(width, 1);
}

void print_cells(std::ostream& out, const std::string& label, size_t label_width,
                 const std::vector<std::string>& cells, size_t cell_width) {
  out << std::right << std::setw(label_width) << label << ":";
  for (const std::string& c : cells) out << " " << std::setw(cell_width) << c;
  out << "\n";
}

void draw_index_grid(std::ostream& out, const ShapeWithLayout& shape, int64_t max_rows) {
  const int64_t rank = shape.rank();
  const int64_t rows = rank >= 2 ? shape.dims[rank - 2] : 1;
  const int64_t cols = rank >= 1 ? shape.dims[rank - 1] : 1;
  out << "linear index of each element (";
  if (rank >= 2) {
    out << "rows: dim " << rank - 2 << ", columns: dim " << rank - 1;
    if (rank > 2) out << "; dims 0.." << rank - 3 << " at index 0";
  } else if (rank == 1) {
    out << "columns: dim 0";
  } else {
    out << "a scalar";
  }
  out << "):\n";
  if (rows == 0 || cols == 0) {
    out << "  (no elements)\n";
    return;
  }
  const int64_t shown_rows = std::min(rows, max_rows), shown_cols = std::min(cols, max_rows);
  std::vector<std::vector<std::string>> grid;
  size_t width = std::to_string(shown_cols - 1).size();
  std::vector<int64_t> e(rank, 0);
  for (int64_t r = 0; r < shown_rows; ++r) {
    grid.emplace_back();
    for (int64_t c = 0; c < shown_cols; ++c) {
      if (rank >= 2) e[rank - 2] = r;
      if (rank >= 1) e[rank - 1] = c;
      grid.back().push_back(std::to_string(spec::linear_index(shape, e)));
      width = std::max(width, grid.back().back().size());
    }
  }
  const size_t label_width = std::to_string(shown_rows - 1).size() + 2;
  std::vector<std::string> header;
  for (int64_t c = 0; c < shown_cols; ++c) header.push_back(std::to_string(c));
  out << std::string(label_width + 1, ' ');
  for (const std::string& h : header) out << " " << std::setw(width) << h;
  out << "\n";
  for (int64_t r = 0; r < shown_rows; ++r) {
    print_cells(out, rank >= 2 ? std::to_string(r) : "", label_width, grid[r], width);
  }
  if (shown_rows < rows || shown_cols < cols) {
    out << "  (showing " << shown_rows << " of " << rows << " rows, " << shown_cols << " of "
        << cols << " columns; raise --max-rows to see more)\n";
  }
}

void draw_memory(std::ostream& out, const ShapeWithLayout& shape, int64_t max_rows) {
  const int64_t padded = spec::padded_element_count(shape);
  const int64_t line = memory_line_width(spec::tiled_shape(shape));
  out << "memory order (the element stored at each position, '.' for padding):\n";
  if (padded == 0) {
    out << "  (no positions)\n";
    return;
  }
  const int64_t shown = std::min(padded, line * max_rows);
  std::vector<std::string> cells;
  size_t width = 1;
  for (int64_t p = 0; p < shown; ++p) {
    const auto e = spec::delinearize(shape, p);
    cells.push_back(!e ? "." : e->empty() ? "()" : join(*e));  // "()": the scalar
    width = std::max(width, cells.back().size());
  }
  const size_t label_width = std::to_string(shown - 1).size() + 2;
  for (int64_t start = 0; start < shown; start += line) {
    const int64_t end = std::min(shown, start + line);
    print_cells(out, std::to_string(start), label_width,
                std::vector<std::string>(cells.begin() + start, cells.begin() + end), width);
  }
  if (shown < padded) {
    out << "  (showing positions 0.." << shown - 1 << " of " << padded
        << "; raise --max-rows to see more)\n";
  }
}

}  // namespace

void add_draw_command(CLI::App& app) {
  struct Args {
    std::string layout;
    int64_t max_rows = 32;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "draw", "the memory map as text: each element's linear index, and memory in order");
  add_layout_argument(command, args->layout);
  command->add_option("--max-rows", args->max_rows,
                      "cut the grid at this many rows and columns, memory at this many lines")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{100000}));
  command->callback([args] {
    const ShapeWithLayout shape = parse_layout_argument(args->layout);
    const int64_t elements = spec::element_count(shape);
    const int64_t padded = spec::padded_element_count(shape);
    std::ostringstream out;
    out << print_shape(shape) << ": " << elements << " elements in " << padded
        << " positions (" << padded - elements << " padding), tiled shape "
        << tuple(spec::tiled_shape(shape)) << "\n\n";
    draw_index_grid(out, shape, args->max_rows);
    out << "\n";
    draw_memory(out, shape, args->max_rows);
    std::cout << out.str();
  });
}

}  // namespace tilecheck::cli
