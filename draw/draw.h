// The memory map of a layout, like the document's Figures 1 and 2, in two
// views:
//   - the logical array with each element's linear index (rows: the second
//     most minor logical dim, columns: the most minor one; for rank > 2 the
//     leading dims are fixed at index 0, and the drawing says so);
//   - the memory in order: the element stored at each position, padding (D8)
//     shown as '.' in text and white in the SVG.
// Used by `tilecheck draw` and by the Python package (Layout.draw(),
// Layout._repr_svg_ in a notebook).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <tilecheck/spec/model.h>

namespace tilecheck::draw {

// The largest layout svg() draws: its logical view at most this many rows
// and columns, its memory at most this many positions.
inline constexpr int64_t kMaxSvgGridSide = 64;
inline constexpr int64_t kMaxSvgPositions = 2048;

// Both views as text: a header line (elements, positions, padding, the tiled
// shape), then the grid, then the memory with one line per run of the tiled
// shape's minor dims (for Figure 1, one row of 2x2 tiles per line). Each view
// is cut at `max_rows` rows and columns, or lines, and says what it cut and
// that raising `max_rows_name` (the caller's name for the limit, as its user
// gives it) shows more. Throws Error when max_rows < 1.
std::string text(const ShapeWithLayout& shape, int64_t max_rows,
                 std::string_view max_rows_name = "max_rows");

// Whether svg() draws the layout: its logical view at most kMaxSvgGridSide
// rows and columns, its memory at most kMaxSvgPositions positions.
bool fits_svg(const ShapeWithLayout& shape);

// Both views side by side as an SVG document: one colour per first-level
// tile (in memory order, cycling through a palette), a red outline around
// every second-level tile, padding white. Throws Error, saying the sizes, for
// a layout that does not fit (fits_svg).
std::string svg(const ShapeWithLayout& shape);

}  // namespace tilecheck::draw
