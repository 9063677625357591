// Text syntax of shapes with layouts, as XLA writes them:
//
//   TYPE[d0,...,dn-1]{m2m:T(t..)(t..)L(n)E(n)S(n)}
//
//   f32[3,5]{1,0:T(2,2)}                         the document's Figure 1
//   bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}     '*' combines dims (D4)
//   s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}        4-bit elements (D6, D7)
//   f32[]{:T(128)}                               a scalar, padded to a tile (D3)
//   f32[3,5]                                     no braces: the default layout {1,0}
//   f32[?,128]{1,0:T(8,128)}                     '?' is a symbolic dim (proofs only)
//
// Type names are case-insensitive; properties must come in the order T, L, E,
// S, each at most once; repeated tiling is one T followed by its tiles,
// T(8,128)(2,1), as XLA prints it. Spaces between tokens are allowed.
// Printing is canonical (lowercase, no spaces, properties in order, braces
// omitted only for a scalar with an empty layout) and parse(print(x)) == x.
#pragma once

#include <string>
#include <string_view>

#include <tilecheck/spec/model.h>

namespace tilecheck {

// Parses and validates the structure (validate_structure). Throws Error with
// the 1-based column of the problem.
ShapeWithLayout parse_shape(std::string_view text);

std::string print_shape(const ShapeWithLayout& shape);
// One tile as XLA writes it after the T: "(8,128)", "(2,*,128)".
std::string print_tile(const Tile& tile);

}  // namespace tilecheck
