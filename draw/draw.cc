// The memory map of a layout, like the document's Figures 1 and 2
// (draw/draw.h): as text, or as an SVG figure.
#include "draw/draw.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::draw {
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

// The 2-D slice of the logical array both views draw: rows are the second
// most minor dim, columns the most minor one, leading dims at index 0.
struct GridSlice {
  int64_t rank, rows, cols;
  std::vector<int64_t> element(int64_t row, int64_t col) const {
    std::vector<int64_t> e(rank, 0);
    if (rank >= 2) e[rank - 2] = row;
    if (rank >= 1) e[rank - 1] = col;
    return e;
  }
  // "rows: dim 1, columns: dim 2; dims 0..0 at index 0"
  std::string axes() const {
    if (rank == 0) return "a scalar";
    if (rank == 1) return "columns: dim 0";
    std::string text = "rows: dim " + std::to_string(rank - 2) + ", columns: dim " +
                       std::to_string(rank - 1);
    if (rank > 2) text += "; dims 0.." + std::to_string(rank - 3) + " at index 0";
    return text;
  }
};

GridSlice grid_slice(const ShapeWithLayout& shape) {
  const int64_t rank = shape.rank();
  GridSlice slice{rank, rank >= 2 ? shape.dims[rank - 2] : 1, rank >= 1 ? shape.dims[rank - 1] : 1};
  // A leading dim of 0 has no index 0: the slice holds no element.
  for (int64_t d = 0; d + 2 < rank; ++d) {
    if (shape.dims[d] == 0) slice.rows = 0;
  }
  return slice;
}

// How the memory view labels the element at a position: "2,3", "()" for the
// scalar, "" for padding.
std::string element_label(const std::optional<std::vector<int64_t>>& element) {
  return !element ? "" : element->empty() ? "()" : join(*element);
}

void print_cells(std::ostream& out, const std::string& label, size_t label_width,
                 const std::vector<std::string>& cells, size_t cell_width) {
  out << std::right << std::setw(label_width) << label << ":";
  for (const std::string& c : cells) out << " " << std::setw(cell_width) << c;
  out << "\n";
}

void draw_index_grid(std::ostream& out, const ShapeWithLayout& shape, int64_t max_rows,
                     std::string_view max_rows_name) {
  const GridSlice slice = grid_slice(shape);
  out << "linear index of each element (" << slice.axes() << "):\n";
  if (slice.rows == 0 || slice.cols == 0) {
    out << "  (no elements)\n";
    return;
  }
  const int64_t shown_rows = std::min(slice.rows, max_rows),
                shown_cols = std::min(slice.cols, max_rows);
  std::vector<std::vector<std::string>> grid;
  size_t width = std::to_string(shown_cols - 1).size();
  for (int64_t r = 0; r < shown_rows; ++r) {
    grid.emplace_back();
    for (int64_t c = 0; c < shown_cols; ++c) {
      grid.back().push_back(std::to_string(spec::linear_index(shape, slice.element(r, c))));
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
    print_cells(out, shape.rank() >= 2 ? std::to_string(r) : "", label_width, grid[r], width);
  }
  if (shown_rows < slice.rows || shown_cols < slice.cols) {
    out << "  (showing " << shown_rows << " of " << slice.rows << " rows, " << shown_cols
        << " of " << slice.cols << " columns; raise " << max_rows_name << " to see more)\n";
  }
}

void draw_memory(std::ostream& out, const ShapeWithLayout& shape, int64_t max_rows,
                 std::string_view max_rows_name) {
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
    std::string label = element_label(spec::delinearize(shape, p));
    cells.push_back(label.empty() ? std::string(".") : std::move(label));
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
        << "; raise " << max_rows_name << " to see more)\n";
  }
}

// ---------------------------------------------------------------------------
// SVG

// What the SVG needs to know about one position of the physical buffer.
struct PositionInfo {
  std::optional<std::vector<int64_t>> element;  // nullopt: padding
  // The tile of the first and the second level holding the position: its
  // index after that level without the within-tile part. Empty when the
  // layout has no such level or the position is in the L(n) tail.
  std::vector<int64_t> first_tile, second_tile;
};

// Walks from the final shape back through the levels with the spec's own
// untiling (spec::untile_index, which also runs through padding), noting the
// tile of level 0 and 1 on the way.
std::vector<PositionInfo> position_infos(const ShapeWithLayout& shape) {
  spec::Int64Domain a;
  const auto bounds = spec::level_bounds(a, shape.dims, shape.layout);
  const int64_t tiled_count = spec::product(a, bounds.back());
  std::vector<PositionInfo> infos(spec::padded_element_count(shape));
  for (int64_t p = 0; p < static_cast<int64_t>(infos.size()); ++p) {
    infos[p].element = spec::delinearize(shape, p);
    if (p >= tiled_count) continue;  // the L(n) tail belongs to no tile
    std::vector<int64_t> index = spec::row_major_coordinates(a, p, bounds.back());
    for (size_t k = shape.layout.tiles.size(); k-- > 0;) {
      const auto sizes = spec::tile_sizes(a, shape.layout.tiles[k]);
      const size_t inner = spec::level_structure<spec::Int64Domain>(sizes, bounds[k].size())
                               .groups.size();
      const std::vector<int64_t> tile(index.begin(), index.end() - inner);
      if (k == 0) infos[p].first_tile = tile;
      if (k == 1) infos[p].second_tile = tile;
      index = spec::untile_index(a, sizes, bounds[k], index).index;
    }
  }
  return infos;
}

// ColorBrewer Set3 without its grey and its red (the second-level outlines
// are red), plus Set2's tan: light enough for black labels.
constexpr const char* kTileColours[] = {"#8dd3c7", "#ffffb3", "#bebada", "#80b1d3", "#fdb462",
                                        "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#e5c494"};
constexpr const char* kSecondLevelStroke = "#d62728";

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Geometry, in integer pixels so that the document size is exact.
constexpr int64_t kMargin = 16, kCellHeight = 28, kCharWidth = 8, kPanelGap = 48;
constexpr int64_t kTitleY = 24, kCaptionY = 52, kHeaderY = 72, kGridTop = 80;

int64_t cell_width_for(size_t label_chars) {
  return std::max<int64_t>(kCellHeight, kCharWidth * static_cast<int64_t>(label_chars) + 12);
}

// Width of a text in pixels: DejaVu Sans Mono advances 0.602 em per
// character; rounded up generously.
int64_t text_width(std::string_view text, int64_t size) {
  return (static_cast<int64_t>(text.size()) * size * 62 + 99) / 100;
}

// Writes SVG elements and keeps the bounding box of what it wrote, so the
// document is exactly as large as its content plus a margin.
class SvgWriter {
 public:
  void rect(int64_t x, int64_t y, int64_t w, int64_t h, std::string_view fill,
            std::string_view extra = "") {
    extend(x + w, y + h);
    out_ << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h
         << "\" fill=\"" << fill << "\" stroke=\"#555\" stroke-width=\"0.5\"" << extra << "/>\n";
  }
  void outline(int64_t x, int64_t y, int64_t w, int64_t h) {
    extend(x + w, y + h);
    out_ << "<rect class=\"second-level\" x=\"" << x << "\" y=\"" << y << "\" width=\"" << w
         << "\" height=\"" << h << "\" fill=\"none\" stroke=\"" << kSecondLevelStroke
         << "\" stroke-width=\"2.5\"/>\n";
  }
  void line(int64_t x1, int64_t y1, int64_t x2, int64_t y2) {
    out_ << "<line class=\"second-level\" x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2
         << "\" y2=\"" << y2 << "\" stroke=\"" << kSecondLevelStroke
         << "\" stroke-width=\"2.5\" stroke-linecap=\"square\"/>\n";
  }
  // Text centred on (x, y) unless `anchor` says otherwise; `attributes` lets
  // a reader (and the tests) tell what a label stands for.
  void text(int64_t x, int64_t y, std::string_view content, std::string_view attributes = "",
            std::string_view anchor = "middle", int64_t size = 12) {
    extend(x + (anchor == "start" ? 1 : 2) * text_width(content, size) / 2, y + size / 2);
    out_ << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size
         << "\" text-anchor=\"" << anchor << "\" dominant-baseline=\"central\"" << attributes
         << ">" << xml_escape(content) << "</text>\n";
  }
  // The whole document, `margin` pixels right of and below the content.
  std::string document(int64_t margin) const {
    const int64_t width = right_ + margin, height = bottom_ + margin;
    std::ostringstream doc;
    doc << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
        << height << "\" viewBox=\"0 0 " << width << " " << height
        << "\" font-family=\"DejaVu Sans Mono, monospace\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << out_.str() << "</svg>\n";
    return doc.str();
  }

 private:
  void extend(int64_t x, int64_t y) {
    right_ = std::max(right_, x);
    bottom_ = std::max(bottom_, y);
  }
  std::ostringstream out_;
  int64_t right_ = 0, bottom_ = 0;
};

}  // namespace

bool fits_svg(const ShapeWithLayout& shape) {
  const GridSlice slice = grid_slice(shape);
  return slice.rows <= kMaxSvgGridSide && slice.cols <= kMaxSvgGridSide &&
         spec::padded_element_count(shape) <= kMaxSvgPositions;
}

std::string svg(const ShapeWithLayout& shape) {
  const GridSlice slice = grid_slice(shape);
  const int64_t padded = spec::padded_element_count(shape);
  if (!fits_svg(shape)) {
    throw Error("'" + print_shape(shape) + "' is too large to draw as SVG: the logical view is " +
                std::to_string(slice.rows) + "x" + std::to_string(slice.cols) + " (at most " +
                std::to_string(kMaxSvgGridSide) + "x" + std::to_string(kMaxSvgGridSide) +
                ") and the memory has " + std::to_string(padded) + " positions (at most " +
                std::to_string(kMaxSvgPositions) + "); draw it as text, which cuts large layouts");
  }
  const std::vector<PositionInfo> infos = position_infos(shape);
  // One colour per first-level tile, numbered in memory order.
  std::map<std::vector<int64_t>, int64_t> tile_number;
  for (const PositionInfo& info : infos) {
    if (info.element) tile_number.emplace(info.first_tile, tile_number.size());
  }
  const auto colour = [&](const PositionInfo& info) -> std::string {
    if (!info.element) return "white";
    return kTileColours[tile_number.at(info.first_tile) % std::size(kTileColours)];
  };
  const bool two_levels = shape.layout.tiles.size() >= 2;
  SvgWriter figure;
  const int64_t elements = spec::element_count(shape);
  figure.text(kMargin, kTitleY,
           print_shape(shape) + ": " + std::to_string(elements) + " elements in " +
               std::to_string(padded) + " positions (" + std::to_string(padded - elements) +
               " padding)",
           "", "start", 14);

  // The logical view: each element's linear index, in its tile's colour.
  std::vector<std::vector<int64_t>> index(slice.rows, std::vector<int64_t>(slice.cols));
  size_t label_chars = std::to_string(std::max<int64_t>(slice.cols - 1, 0)).size();
  for (int64_t r = 0; r < slice.rows; ++r) {
    for (int64_t c = 0; c < slice.cols; ++c) {
      index[r][c] = spec::linear_index(shape, slice.element(r, c));
      label_chars = std::max(label_chars, std::to_string(index[r][c]).size());
    }
  }
  const int64_t grid_cell = cell_width_for(label_chars);
  const int64_t row_label_width =
      shape.rank() >= 2 ? cell_width_for(std::to_string(slice.rows - 1).size()) : 0;
  const int64_t grid_left = kMargin + row_label_width;
  // The axes are plain from the headers; only a slice needs saying.
  const std::string grid_caption =
      "linear index of each element" +
      (shape.rank() > 2 ? " (dims 0.." + std::to_string(shape.rank() - 3) + " at index 0)" : "");
  figure.text(kMargin, kCaptionY, grid_caption, "", "start");
  for (int64_t c = 0; c < slice.cols; ++c) {
    figure.text(grid_left + c * grid_cell + grid_cell / 2, kHeaderY, std::to_string(c),
             " fill=\"#777\"");
  }
  for (int64_t r = 0; r < slice.rows; ++r) {
    const int64_t y = kGridTop + r * kCellHeight;
    if (shape.rank() >= 2) {
      figure.text(grid_left - row_label_width / 2, y + kCellHeight / 2, std::to_string(r),
               " fill=\"#777\"");
    }
    for (int64_t c = 0; c < slice.cols; ++c) {
      const int64_t x = grid_left + c * grid_cell;
      const std::string element = " data-element=\"" + join(slice.element(r, c)) + "\"";
      figure.rect(x, y, grid_cell, kCellHeight, colour(infos[index[r][c]]), element);
      figure.text(x + grid_cell / 2, y + kCellHeight / 2, std::to_string(index[r][c]),
               " class=\"index\"" + element);
    }
  }
  // Second-level tiles: a red edge wherever neighbours lie in different ones.
  if (two_levels) {
    const auto second = [&](int64_t r, int64_t c) -> const std::vector<int64_t>* {
      if (r < 0 || c < 0 || r >= slice.rows || c >= slice.cols) return nullptr;
      return &infos[index[r][c]].second_tile;
    };
    const auto differ = [&](int64_t r1, int64_t c1, int64_t r2, int64_t c2) {
      const auto *a = second(r1, c1), *b = second(r2, c2);
      return !a || !b || *a != *b;
    };
    for (int64_t r = 0; r <= slice.rows; ++r) {
      for (int64_t c = 0; c <= slice.cols; ++c) {
        const int64_t x = grid_left + c * grid_cell, y = kGridTop + r * kCellHeight;
        if (c < slice.cols && (second(r, c) || second(r - 1, c)) && differ(r - 1, c, r, c)) {
          figure.line(x, y, x + grid_cell, y);
        }
        if (r < slice.rows && (second(r, c) || second(r, c - 1)) && differ(r, c - 1, r, c)) {
          figure.line(x, y, x, y + kCellHeight);
        }
      }
    }
  }
  const int64_t memory_panel_left =
      std::max(grid_left + slice.cols * grid_cell, kMargin + text_width(grid_caption, 12)) +
      kPanelGap;

  // The memory view: the element at each position, lines as in the text view.
  const int64_t line = memory_line_width(spec::tiled_shape(shape));
  size_t memory_chars = 1;
  for (const PositionInfo& info : infos) {
    memory_chars = std::max(memory_chars, element_label(info.element).size());
  }
  const int64_t memory_cell = cell_width_for(memory_chars);
  const int64_t position_label_width =
      cell_width_for(std::to_string(std::max<int64_t>(padded - 1, 0)).size());
  const int64_t memory_left = memory_panel_left + position_label_width;
  figure.text(memory_panel_left, kCaptionY,
           "memory: the element at each position (white: padding)", "", "start");
  for (int64_t c = 0; c < std::min(line, padded); ++c) {
    const std::string offset = std::string(1, '+').append(std::to_string(c));
    figure.text(memory_left + c * memory_cell + memory_cell / 2, kHeaderY, offset, " fill=\"#777\"");
  }
  for (int64_t start = 0; start < padded; start += line) {
    const int64_t y = kGridTop + start / line * kCellHeight;
    figure.text(memory_left - position_label_width / 2, y + kCellHeight / 2, std::to_string(start),
             " fill=\"#777\"");
    const int64_t end = std::min(padded, start + line);
    for (int64_t p = start; p < end; ++p) {
      const int64_t x = memory_left + (p - start) * memory_cell;
      figure.rect(x, y, memory_cell, kCellHeight, colour(infos[p]),
               " data-position=\"" + std::to_string(p) + "\"");
      if (infos[p].element) {
        figure.text(x + memory_cell / 2, y + kCellHeight / 2, element_label(infos[p].element),
                 " class=\"element\" data-position=\"" + std::to_string(p) + "\"");
      }
    }
    // Second-level tiles: one outline per run of positions in one tile.
    for (int64_t p = start; two_levels && p < end;) {
      int64_t q = p + 1;
      while (q < end && infos[q].second_tile == infos[p].second_tile) ++q;
      if (!infos[p].second_tile.empty()) {
        figure.outline(memory_left + (p - start) * memory_cell, y, (q - p) * memory_cell,
                    kCellHeight);
      }
      p = q;
    }
  }
  const int64_t memory_rows = (padded + line - 1) / line;
  const int64_t legend_y = kGridTop + std::max(slice.rows, memory_rows) * kCellHeight + 24;
  figure.text(kMargin, legend_y,
           std::string("colour: first-level tile") +
               (two_levels ? "; red outline: second-level tile" : "") + "; white: padding",
           " fill=\"#555\"", "start");
  return figure.document(kMargin);
}

std::string text(const ShapeWithLayout& shape, int64_t max_rows, std::string_view max_rows_name) {
  if (max_rows < 1) throw Error(std::string(max_rows_name) + " must be at least 1");
  const int64_t elements = spec::element_count(shape);
  const int64_t padded = spec::padded_element_count(shape);
  std::ostringstream out;
  out << print_shape(shape) << ": " << elements << " elements in " << padded << " positions ("
      << padded - elements << " padding), tiled shape " << tuple(spec::tiled_shape(shape)) << "\n\n";
  draw_index_grid(out, shape, max_rows, max_rows_name);
  out << "\n";
  draw_memory(out, shape, max_rows, max_rows_name);
  return out.str();
}

}  // namespace tilecheck::draw
