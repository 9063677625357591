// Internal: a layout compiled once into the three forms the plans execute.
//
// 1. The level structure (for delinearize): for each tile, the leading dims
//    D3 adds, the untouched prefix, and the groups of coordinates that each
//    non-'*' tile entry covers (D4). Level k maps the coordinates c (bounds b)
//    of its input to (prefix, floor(g/t)..., g mod t...) where each group's
//    g = mixed-radix value of its members, bound B = product of their bounds.
//
// 2. The index program (tilecheck/impl/plan.h IndexProgram) for linear_index.
//
// 3. A loop nest for pack/unpack: every final coordinate f_j ("digit") moves
//    the dense offset by a constant src_stride and the physical position by
//    dst_stride (row-major over the final shape), and padding is exactly the
//    set of positions violating some linear constraint sum_j coeff_j*f_j <
//    bound. This exists when every split is linear backwards, i.e. when each
//    '*' combines coordinates whose dense strides nest (s_a = b_next * s_next)
//    and no ragged split sits above a combined dim. Otherwise `lowered` is
//    false and the plans fall back to one index computation per element.
//
// Derivation of (3): a coordinate c with dense stride s split by t gives
// outer (stride s*t) and inner (stride s) since c*s = floor(c/t)*(t*s) +
// (c mod t)*s; a group with nesting strides has g*s_last = sum of its
// members' c*s. A coordinate's value is linear in the digits below it
// (outer*t + inner); it needs a constraint exactly when that value can reach
// its bound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "impl/fast_div.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::impl::detail {

struct Group {
  int64_t first = 0;                  // position of the first member (after extension)
  std::vector<int64_t> member_bounds; // bounds of the members, major to minor
  std::vector<FastDiv> member_divs;   // FastDiv(member_bounds[i])
  int64_t bound = 1;                  // product of member_bounds
  int64_t tile = 1;
};

struct Level {
  int64_t extension = 0;  // leading size-1 dims added (D3)
  int64_t rank_in = 0;    // coordinates after the extension
  int64_t prefix = 0;     // untouched leading coordinates
  std::vector<Group> groups;
};

struct Digit {
  int64_t extent;
  int64_t src_stride;  // dense elements
  int64_t dst_stride;  // physical elements (positions)
};

struct Constraint {
  std::vector<int64_t> coeff;  // one per digit, >= 0
  int64_t bound;
};

struct LoopNest {
  bool lowered = false;
  std::string reason;  // why not, when !lowered
  std::vector<Digit> digits;
  std::vector<Constraint> constraints;
};

struct CompiledLayout {
  ShapeWithLayout shape;
  int64_t rank = 0;
  int64_t bits = 0;
  int64_t dense_element_bytes = 0;
  int64_t element_count = 0;
  int64_t final_count = 0;   // product of the final shape
  int64_t padded_count = 0;  // D5
  int64_t byte_size = 0;
  int64_t dense_byte_size = 0;
  std::vector<int64_t> final_shape;
  std::vector<FastDiv> final_divs;
  std::vector<int64_t> logical_of_physical;  // physical position -> logical dim (D1)
  std::vector<int64_t> dense_strides;        // per logical dim, in elements
  std::vector<Level> levels;
  IndexProgram program;
  LoopNest nest;
};

// Validates (throws Error as the spec does) and compiles.
CompiledLayout compile_layout(const ShapeWithLayout& shape);

// The loop nest of (3) for a dense array whose logical dims are
// `dense_strides` elements apart (c.dense_strides: row-major) instead: a
// strided view. Not lowered when a combined dim's strides do not nest.
LoopNest lower_loop_nest(const CompiledLayout& c, const std::vector<int64_t>& dense_strides);

// Overflow-checked arithmetic; throws Error naming `what`.
int64_t checked_mul(int64_t a, int64_t b, const char* what);
int64_t checked_add(int64_t a, int64_t b, const char* what);

// Buffer checks of the plans: throw Error naming the buffer and both sizes,
// or when the two spans share a byte.
void check_buffer_size(const char* what, size_t got, int64_t want);
void check_disjoint(std::span<const uint8_t> a, std::span<const uint8_t> b);

}  // namespace tilecheck::impl::detail
