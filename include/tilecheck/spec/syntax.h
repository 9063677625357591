// Text syntax of shapes with layouts, exactly as XLA prints them:
//
//   TYPE[d0,...,dn-1]{m2m:T(t..)(t..)L(n)#(t)*(t)E(n)S(n)SC(d:i,..)P(shape)M(n)}
//
//   f32[3,5]{1,0:T(2,2)}                         the document's Figure 1
//   bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}     '*' combines dims (D4)
//   s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}        4-bit elements (D6, D7)
//   f32[]{:T(128)}                               a scalar, padded to a tile (D3)
//   f32[3,5]                                     no braces: the default layout {1,0}
//   s32[<=4,8]{1,0}                              a bounded dynamic dim, sized at 4
//   f32[?,128]{1,0:T(8,128)}                     '?' is a symbolic dim (proofs only)
//   f32[123,456]{1,0:T(2,128)S(3)SC(1:200)}      memory space 3, split at 200
//   (f32[2]{0}, (s32[], token[]))                a tuple (D10)
//   b(s32[3,4]{1,0})                             a buffer holding one array
//
// Type names are case-insensitive; properties come in XLA's order, each at
// most once; repeated tiling is one T followed by its tiles, T(8,128)(2,1).
// D(..), XLA's dim level types, is read and dropped when every entry is
// dense (D), as XLA does, and rejected otherwise ("sparse layouts are not
// supported"). Spaces and /*comments*/ between tokens are allowed.
// Printing is XLA's: lowercase, no spaces inside an array shape, ", "
// between tuple elements with /*index=N*/ before every fifth, properties in
// order, XLA's defaults (L(1), S(0), M(0)) not printed, braces omitted only
// for a scalar with an empty layout. print(parse(s)) == s for every text XLA
// prints, and parse(print(x)) == x.
#pragma once

#include <string>
#include <string_view>

#include <tilecheck/spec/model.h>

namespace tilecheck {

// How deep shapes may nest in text: an array alone is 1 deep, an array in a
// tuple 2; each enclosing tuple, b(..) and P(..) adds one. Deeper text is
// an Error naming this limit, never a deep recursion (docs/LIMITS.md).
// XLA's own dumps nest a few levels.
inline constexpr int kMaxShapeNesting = 64;
// How many tile entries one layout's text may list, over all its tiles
// (T(8,128)(2,1) lists 4). The spec's index walks every tile for every dim
// of the tiled shape, so its cost grows with the square of this count; XLA's
// layouts list a handful (docs/LIMITS.md).
inline constexpr int kMaxTileEntries = 256;

// A whole shape: an array, a tuple (nested), token[] or opaque[]. Validates
// the structure of every array (validate_structure). Throws Error with the
// 1-based column of the problem.
Shape parse_any_shape(std::string_view text);
// One array shape; a tuple, token or opaque value is an Error.
ShapeWithLayout parse_shape(std::string_view text);
// The shape at the start of `text` (leading spaces skipped), which may go on
// with anything; `end` is set to the offset just past the shape. For
// readers of larger texts, such as HLO modules.
Shape parse_shape_prefix(std::string_view text, size_t& end);

// `text` as an error message quotes it: bytes outside printable ASCII (a
// NUL, a control, invalid UTF-8) as \xNN, and past `max_chars` characters
// cut, with its length in bytes, so a message stays short and printable
// whatever the input.
std::string shown_text(std::string_view text, size_t max_chars = 120);

std::string print_any_shape(const Shape& shape);
std::string print_shape(const ShapeWithLayout& shape);
// One tile as XLA writes it after the T: "(8,128)", "(2,*,128)".
std::string print_tile(const Tile& tile);
// What follows the ':' of a layout ("T(8,128)(2,1)S(1)"); empty when the
// layout has no property to print.
std::string print_properties(const Layout& layout);

}  // namespace tilecheck
