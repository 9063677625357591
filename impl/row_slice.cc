// Row slices (tilecheck/impl/plan.h RowSlice): which rows of the
// physical-major dimension form a contiguous part of the physical buffer.
//
// The physical position is row-major over the final shape (D5). Follow the
// physical-major dim m through the tile levels: at the first level it is
// either untouched or the leading member of a tiled group (its rows times
// B, the product of the members after it, divided into tiles of t), which
// makes the group's tile count the coordinate it becomes; every later level
// must leave that coordinate untouched (sub-tiles tile the tile, not the
// tile count). If every final coordinate before it has extent 1, rows
// [r0, r1) with r0*B a multiple of t hold exactly the tile counts
// [r0*B/t, ceil(r1*B/t)), that is the positions [r0*B/t * rest, ...) with
// rest the product of the final extents after it, none of which depends on
// dims[m]. The granularity is the smallest row count doing that and also
// starting on a whole byte.
#include <numeric>
#include <string>

#include "impl/compiled_layout.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::impl {

namespace {

using detail::CompiledLayout;

struct Slicing {
  int64_t dim = 0;
  int64_t members_below = 1;  // B
  int64_t tile = 1;           // t
  int64_t rest = 1;           // positions per unit of the major coordinate
  int64_t granularity = 1;
};

[[noreturn]] void cannot(const ShapeWithLayout& whole, const std::string& why) {
  throw Error("cannot slice " + print_shape(whole) + " by rows: " + why);
}

Slicing analyse(const ShapeWithLayout& whole) {
  const CompiledLayout c = detail::compile_layout(whole);
  if (c.rank == 0) cannot(whole, "a scalar has no rows");
  if (whole.layout.tail_padding_alignment.value_or(1) > 1) {
    cannot(whole, "its tail padding belongs to the whole buffer");
  }
  Slicing s;
  s.dim = c.logical_of_physical[0];
  std::vector<int64_t> bounds;
  for (int64_t j = 0; j < c.rank; ++j) bounds.push_back(whole.dims[c.logical_of_physical[j]]);
  int64_t pos = 0;  // the major coordinate's position in `bounds`
  for (size_t k = 0; k < c.levels.size(); ++k) {
    const detail::Level& level = c.levels[k];
    bounds.insert(bounds.begin(), level.extension, 1);
    pos += level.extension;
    std::vector<int64_t> out(bounds.begin(), bounds.begin() + level.prefix), inner;
    int64_t next_pos = pos;
    for (size_t gi = 0; gi < level.groups.size(); ++gi) {
      const detail::Group& g = level.groups[gi];
      const int64_t members = static_cast<int64_t>(g.member_bounds.size());
      if (pos >= g.first && pos < g.first + members) {
        if (k > 0) cannot(whole, "tile " + std::to_string(k + 1) + " splits the major tile count");
        for (int64_t i = g.first; i < pos; ++i) {
          if (bounds[i] != 1) cannot(whole, "its major dim is combined below another dim");
        }
        for (int64_t i = pos + 1; i < g.first + members; ++i) s.members_below *= bounds[i];
        s.tile = g.tile;
        next_pos = level.prefix + static_cast<int64_t>(gi);
      }
      out.push_back(g.bound / g.tile + (g.bound % g.tile != 0 ? 1 : 0));
      inner.push_back(g.tile);
    }
    out.insert(out.end(), inner.begin(), inner.end());
    bounds = std::move(out);
    pos = next_pos;
  }
  for (int64_t j = 0; j < pos; ++j) {
    if (bounds[j] != 1) cannot(whole, "a coordinate of extent " + std::to_string(bounds[j]) + " precedes its rows");
  }
  // Divides the final count, so fits int64 -- unless a dim is 0: then the
  // count is 0 and the other bounds (huge tiles) may multiply past int64.
  for (size_t j = pos + 1; j < bounds.size(); ++j) {
    if (__builtin_mul_overflow(s.rest, bounds[j], &s.rest)) cannot(whole, "a row holds more than int64 positions");
  }
  // Rows r with r*B a multiple of t, then with r*B/t*rest*bits a multiple of 8.
  // g0 rows hold g0*B/t = B/gcd(t, B) tile counts (g0*B itself may exceed int64).
  const int64_t common = std::gcd(s.tile, s.members_below);
  const int64_t g0 = s.tile / common;
  const int64_t units = s.members_below / common;  // tile counts per g0 rows
  const int64_t bits_mod = (((units % 8) * (s.rest % 8)) % 8 * (c.bits % 8)) % 8;
  if (__builtin_mul_overflow(g0, bits_mod == 0 ? 1 : 8 / std::gcd<int64_t>(8, bits_mod), &s.granularity)) {
    cannot(whole, "its row granularity exceeds int64");
  }
  return s;
}

// Bytes of the first `positions` positions (a whole number of bytes).
int64_t bytes_of(int64_t positions, int64_t bits) { return positions / 8 * bits + positions % 8 * bits / 8; }

}  // namespace

int64_t row_slice_granularity(const ShapeWithLayout& whole) { return analyse(whole).granularity; }

RowSlice row_slice(const ShapeWithLayout& whole, int64_t begin, int64_t end) {
  const Slicing s = analyse(whole);
  const int64_t rows = whole.dims[s.dim];
  if (!(0 <= begin && begin < end && end <= rows)) {
    throw Error("row slice [" + std::to_string(begin) + ", " + std::to_string(end) + ") of dim " +
                std::to_string(s.dim) + " outside its " + std::to_string(rows) + " rows");
  }
  if (begin % s.granularity != 0 || (end % s.granularity != 0 && end != rows)) {
    throw Error("row slice [" + std::to_string(begin) + ", " + std::to_string(end) + ") of " +
                print_shape(whole) + ": the bounds must be multiples of " + std::to_string(s.granularity) +
                " rows (or the end the last row)");
  }
  RowSlice r;
  r.dim = s.dim;
  r.shape = whole;
  r.shape.dims[s.dim] = end - begin;
  const CompiledLayout whole_c = detail::compile_layout(whole);
  // begin*B <= the group's bound, which fits; the positions before the
  // slice are at most final_count.
  r.physical_offset = bytes_of(begin * s.members_below / s.tile * s.rest, whole_c.bits);
  r.physical_bytes = detail::compile_layout(r.shape).byte_size;
  for (int64_t stride : whole_c.dense_strides) r.dense_byte_strides.push_back(stride * whole_c.dense_element_bytes);
  r.dense_offset = begin * r.dense_byte_strides[s.dim];
  return r;
}

}  // namespace tilecheck::impl
