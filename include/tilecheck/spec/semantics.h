// The reference semantics of tiled layouts, written to be read beside the
// tiled-layout document and the decisions D1-D8 of docs/DESIGN.md.
//
// Untiled, an element e = (e_n, ..., e_1) of bounds d = (d_n, ..., d_1), d_1
// most minor, sits at
//
//   linear_index(e, d) = e_n*d_{n-1}*...*d_1 + e_{n-1}*d_{n-2}*...*d_1 + ... + e_1
//
// With one tile t = (t_n, ..., t_1) (arithmetic elementwise, (a,b) concatenation):
//
//   linear_index_with_tile(e, d, t) = linear_index((floor(e/t), e mod t), (ceil(d/t), t))
//
// Worked example, Figure 1: f32[3,5]{1,0:T(2,2)}, element (2,3):
//   tile index (1,1), within-tile index (0,1), combined vector (1,1,0,1),
//   bounds (2,3,2,2): linear_index((1,1,0,1), (2,3,2,2)) = (1*3+1)*2*2 + (0*2+1) = 17.
//
// How the pieces of a layout combine (the decisions of DESIGN.md):
//   D1 minor_to_major lists logical dims from most minor to most major; the
//      shape and element are first permuted into physical order (major to minor).
//   D2 each tile applies to the shape produced by the previous tile: the new
//      shape is (prefix, ceil(d/t)..., t...) on the tile's suffix of dims.
//   D3 a tile longer than the shape first extends it with leading dims of
//      size 1 (index 0).
//   D4 a '*' at tile position i merges that dim into the next more minor
//      one of the suffix: bound d_i*d_{i+1}, index e_i*d_{i+1} + e_{i+1}; a '*'
//      produces no outer and no inner dim.
//   D5 the linear index is row-major over the final shape; the padded element
//      count is the product of the final shape, rounded up to a multiple of
//      L(n) if given.
//
// The templates below are generic over an integer domain (tilecheck/spec/arith.h): the
// oracle runs them on checked int64, the proofs on Z3 terms. The functions
// after them are the int64 oracle.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <tilecheck/spec/arith.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::spec {

// ---------------------------------------------------------------------------
// D1: physical order.
// physical[j] = logical[minor_to_major[rank-1-j]]: the most major physical dim
// is the last one minor_to_major lists.
template <class T>
std::vector<T> to_physical_order(const std::vector<T>& logical,
                                 const std::vector<int64_t>& minor_to_major) {
  const size_t rank = minor_to_major.size();
  std::vector<T> physical;
  physical.reserve(rank);
  for (size_t j = 0; j < rank; ++j) physical.push_back(logical[minor_to_major[rank - 1 - j]]);
  return physical;
}

template <class T>
std::vector<T> to_logical_order(const std::vector<T>& physical,
                                const std::vector<int64_t>& minor_to_major) {
  const size_t rank = minor_to_major.size();
  std::vector<T> logical(physical);
  for (size_t j = 0; j < rank; ++j) logical[minor_to_major[rank - 1 - j]] = physical[j];
  return logical;
}

// ---------------------------------------------------------------------------
// linear_index(e, d) = sum_i e_i * d_{i+1} * ... * d_last   (row-major, D5)
template <class A>
typename A::Value linear_index(A& a, const std::vector<typename A::Value>& e,
                               const std::vector<typename A::Value>& d) {
  typename A::Value sum = a.constant(0);
  for (size_t i = 0; i < e.size(); ++i) {
    typename A::Value stride = a.constant(1);
    for (size_t j = i + 1; j < d.size(); ++j) stride = a.mul(stride, d[j]);
    sum = a.add(sum, a.mul(e[i], stride));
  }
  return sum;
}

// The inverse of linear_index on [0, product(d)): peel the most minor
// coordinate off with each division. Precondition: 0 <= position < product(d),
// so every bound is >= 1.
template <class A>
std::vector<typename A::Value> row_major_coordinates(A& a, typename A::Value position,
                                                     const std::vector<typename A::Value>& d) {
  std::vector<typename A::Value> e(d.size(), a.constant(0));
  if (d.empty()) return e;
  for (size_t i = d.size() - 1; i > 0; --i) {
    DivMod<typename A::Value> qr = a.div_mod(position, d[i]);
    e[i] = qr.remainder;
    position = qr.quotient;
  }
  e[0] = position;
  return e;
}

// ---------------------------------------------------------------------------
// One tiling level, D2-D4.
//
// The structure of a level depends only on the tile and the rank it meets,
// not on any size: which leading dims D3 adds, where the tiled suffix starts,
// and which dims each non-'*' tile entry merges (D4).
struct TileGroup {
  size_t first;     // first (most major) dim of the group, in the extended shape
  size_t last;      // last (most minor) dim; the tile entry at `last` is not '*'
  size_t tile_pos;  // position of that tile entry within the tile
};

struct LevelStructure {
  size_t extension = 0;  // leading size-1 dims added (D3)
  size_t prefix = 0;     // dims the tile does not reach
  std::vector<TileGroup> groups;
};

// For a tile of k entries, `is_combine(i)` saying whether entry i is '*'.
template <class IsCombine>
LevelStructure level_structure(size_t k, size_t rank, IsCombine is_combine) {
  LevelStructure s;
  s.extension = k > rank ? k - rank : 0;
  s.prefix = rank + s.extension - k;
  size_t group_start = s.prefix;
  s.groups.reserve(k);
  for (size_t i = 0; i < k; ++i) {
    if (is_combine(i)) continue;  // merged into the next more minor entry
    s.groups.push_back({group_start, s.prefix + i, i});
    group_start = s.prefix + i + 1;
  }
  return s;
}

// `combine[i]` says whether tile entry i is '*'.
LevelStructure level_structure(const std::vector<bool>& combine, size_t rank);

// Tile sizes in a domain: nullopt for '*'.
template <class A>
using TileSizes = std::vector<std::optional<typename A::Value>>;

template <class A>
TileSizes<A> tile_sizes(A& a, const Tile& tile) {
  TileSizes<A> sizes;
  sizes.reserve(tile.dims.size());
  for (int64_t entry : tile.dims) {
    if (entry == kCombineDim) {
      sizes.push_back(std::nullopt);
    } else {
      sizes.push_back(a.constant(entry));
    }
  }
  return sizes;
}

template <class A>
LevelStructure level_structure(const TileSizes<A>& tile, size_t rank) {
  return level_structure(tile.size(), rank, [&](size_t i) { return !tile[i].has_value(); });
}

// D3: leading dims of size 1 (bounds) or 0 (indices).
template <class A>
std::vector<typename A::Value> extend(A& a, const std::vector<typename A::Value>& v,
                                      size_t extension, int64_t fill) {
  std::vector<typename A::Value> out(extension + v.size(), a.constant(fill));
  std::copy(v.begin(), v.end(), out.begin() + extension);
  return out;
}

// D4: the bound of a merged group, d_first * ... * d_last.
template <class A>
typename A::Value group_bound(A& a, const std::vector<typename A::Value>& bounds,
                              const TileGroup& g) {
  typename A::Value b = bounds[g.first];
  for (size_t j = g.first + 1; j <= g.last; ++j) b = a.mul(b, bounds[j]);
  return b;
}

// D4: the index within a merged group, by Horner's rule:
// (...(e_first*d_{first+1} + e_{first+1})*d_{first+2} + ...) + e_last.
template <class A>
typename A::Value group_index(A& a, const std::vector<typename A::Value>& bounds,
                              const std::vector<typename A::Value>& index, const TileGroup& g) {
  typename A::Value e = index[g.first];
  for (size_t j = g.first + 1; j <= g.last; ++j) e = a.add(a.mul(e, bounds[j]), index[j]);
  return e;
}

// D2: the shape after one level, (prefix, ceil(d/t)..., t...).
template <class A>
std::vector<typename A::Value> tile_bounds(A& a, const TileSizes<A>& tile,
                                           const std::vector<typename A::Value>& bounds) {
  const LevelStructure s = level_structure<A>(tile, bounds.size());
  const std::vector<typename A::Value> d = extend(a, bounds, s.extension, 1);
  const size_t n = s.groups.size();
  std::vector<typename A::Value> out(s.prefix + 2 * n, a.constant(0));
  std::copy(d.begin(), d.begin() + s.prefix, out.begin());
  for (size_t k = 0; k < n; ++k) {
    const TileGroup& g = s.groups[k];
    out[s.prefix + k] = a.ceil_div(group_bound(a, d, g), *tile[g.tile_pos]);
    out[s.prefix + n + k] = *tile[g.tile_pos];
  }
  return out;
}

// One level met by given bounds: the tile's sizes, the level's structure and
// the bounds extended (D3). Nothing here depends on an element, so a caller
// indexing many elements computes it once per level.
template <class A>
struct TileLevel {
  TileSizes<A> tile;
  LevelStructure structure;
  std::vector<typename A::Value> extended_bounds;
};

template <class A>
TileLevel<A> tile_level(A& a, const TileSizes<A>& tile,
                        const std::vector<typename A::Value>& bounds) {
  LevelStructure s = level_structure<A>(tile, bounds.size());
  std::vector<typename A::Value> d = extend(a, bounds, s.extension, 1);
  return {tile, std::move(s), std::move(d)};
}

// D2: the index after one level, (prefix, floor(e/t)..., e mod t...). `e`
// is the index before the level.
template <class A>
std::vector<typename A::Value> tile_index(A& a, const TileLevel<A>& level,
                                          std::vector<typename A::Value> e) {
  const LevelStructure& s = level.structure;
  const std::vector<typename A::Value>& d = level.extended_bounds;
  e.insert(e.begin(), s.extension, a.constant(0));  // D3
  const size_t n = s.groups.size();
  std::vector<typename A::Value> out(s.prefix + 2 * n, a.constant(0));
  std::copy(e.begin(), e.begin() + s.prefix, out.begin());
  for (size_t k = 0; k < n; ++k) {
    const TileGroup& g = s.groups[k];
    DivMod<typename A::Value> qr = a.div_mod(group_index(a, d, e, g), *level.tile[g.tile_pos]);
    out[s.prefix + k] = qr.quotient;
    out[s.prefix + n + k] = qr.remainder;
  }
  return out;
}

template <class A>
std::vector<typename A::Value> tile_index(A& a, const TileSizes<A>& tile,
                                          const std::vector<typename A::Value>& bounds,
                                          const std::vector<typename A::Value>& index) {
  return tile_index(a, tile_level(a, tile, bounds), index);
}

// The inverse of one level: from an index in the level's output box back to
// the index before the level, e = floor-part*t + mod-part per group, split
// back into the merged dims. `in_bounds` is false when the position is
// padding (some group's e is past its bound).
template <class A>
struct Untiled {
  std::vector<typename A::Value> index;
  typename A::Bool in_bounds;
};

template <class A>
Untiled<A> untile_index(A& a, const TileSizes<A>& tile,
                        const std::vector<typename A::Value>& bounds_before,
                        const std::vector<typename A::Value>& index_after) {
  const LevelStructure s = level_structure<A>(tile, bounds_before.size());
  const std::vector<typename A::Value> d = extend(a, bounds_before, s.extension, 1);
  std::vector<typename A::Value> e(d.size(), a.constant(0));
  typename A::Bool in_bounds = a.truth(true);
  for (size_t i = 0; i < s.prefix; ++i) e[i] = index_after[i];
  const size_t n = s.groups.size();
  for (size_t k = 0; k < n; ++k) {
    const TileGroup& g = s.groups[k];
    typename A::Value v =
        a.add(a.mul(index_after[s.prefix + k], *tile[g.tile_pos]), index_after[s.prefix + n + k]);
    in_bounds = a.both(in_bounds, a.less(v, group_bound(a, d, g)));
    for (size_t j = g.last; j > g.first; --j) {
      DivMod<typename A::Value> qr = a.div_mod(v, d[j]);
      e[j] = qr.remainder;
      v = qr.quotient;
    }
    e[g.first] = v;
  }
  e.erase(e.begin(), e.begin() + s.extension);
  return {e, in_bounds};
}

// ---------------------------------------------------------------------------
// Whole layouts. `dims` are logical, `element` logical.

// The bounds after every level: bounds[0] is the physical shape, bounds[k]
// the shape after tile k, bounds.back() the final tiled shape.
template <class A>
std::vector<std::vector<typename A::Value>> level_bounds(
    A& a, const std::vector<typename A::Value>& dims, const Layout& layout) {
  std::vector<std::vector<typename A::Value>> bounds;
  bounds.reserve(layout.tiles.size() + 1);
  bounds.push_back(to_physical_order(dims, layout.minor_to_major));
  for (const Tile& t : layout.tiles) bounds.push_back(tile_bounds(a, tile_sizes(a, t), bounds.back()));
  return bounds;
}

// What linear_index_with_tile needs of a layout on given dims, none of which
// depends on the element: every level as it meets the previous level's
// bounds, and the final shape. The reference pack computes it once and
// indexes every element with it (over ColumnDomain, a batch of elements at
// a time).
template <class A>
struct LayoutLevels {
  std::vector<int64_t> minor_to_major;
  std::vector<TileLevel<A>> levels;
  std::vector<typename A::Value> final_bounds;
};

template <class A>
LayoutLevels<A> layout_levels(A& a, const std::vector<typename A::Value>& dims,
                              const Layout& layout) {
  const auto bounds = level_bounds(a, dims, layout);
  LayoutLevels<A> out{layout.minor_to_major, {}, bounds.back()};
  out.levels.reserve(layout.tiles.size());
  for (size_t k = 0; k < layout.tiles.size(); ++k) {
    out.levels.push_back(tile_level(a, tile_sizes(a, layout.tiles[k]), bounds[k]));
  }
  return out;
}

// linear_index_with_tile, level by level (D1, D2, D5).
template <class A>
typename A::Value linear_index_with_tile(A& a, const LayoutLevels<A>& layout,
                                         const std::vector<typename A::Value>& element) {
  std::vector<typename A::Value> index = to_physical_order(element, layout.minor_to_major);
  for (const TileLevel<A>& level : layout.levels) {
    index = tile_index(a, level, std::move(index));
  }
  return linear_index(a, index, layout.final_bounds);
}

template <class A>
typename A::Value linear_index_with_tile(A& a, const std::vector<typename A::Value>& dims,
                                         const Layout& layout,
                                         const std::vector<typename A::Value>& element) {
  return linear_index_with_tile(a, layout_levels(a, dims, layout), element);
}

// The product of the final shape, before L(n) rounding.
template <class A>
typename A::Value product(A& a, const std::vector<typename A::Value>& d) {
  typename A::Value p = a.constant(1);
  for (const auto& x : d) p = a.mul(p, x);
  return p;
}

// D5: product of the final shape, rounded up to a multiple of L(n).
template <class A>
typename A::Value padded_element_count(A& a, const std::vector<typename A::Value>& dims,
                                       const Layout& layout) {
  typename A::Value count = product(a, level_bounds(a, dims, layout).back());
  if (!layout.tail_padding_alignment) return count;
  const typename A::Value align = a.constant(*layout.tail_padding_alignment);
  return a.mul(a.ceil_div(count, align), align);
}

// D6: ceil(count*bits/8) as (count div 8)*bits + ceil((count mod 8)*bits/8),
// without forming count*bits, which may overflow while the byte size does not.
template <class A>
typename A::Value byte_size_of_count(A& a, const typename A::Value& count, int64_t bits) {
  const DivMod<typename A::Value> qr = a.div_mod(count, a.constant(8));
  return a.add(a.mul(qr.quotient, a.constant(bits)),
               a.ceil_div(a.mul(qr.remainder, a.constant(bits)), a.constant(8)));
}

// Every size validation computes, in its order: the level bounds, the final
// product and the padded count, the byte size, the logical element count.
// On checked int64 this is validate()'s size check (it throws iff some step
// overflows); the overflow proof (P5) takes "no step leaves int64" as its
// hypothesis from this very function.
template <class A>
void compute_validated_sizes(A& a, const std::vector<typename A::Value>& dims,
                             const Layout& layout, int64_t bits) {
  byte_size_of_count(a, padded_element_count(a, dims, layout), bits);
  product(a, dims);
}

// The element stored at `position`, or in_bounds == false for padding.
// Precondition: 0 <= position < product of the final shape (positions in the
// L(n) tail are padding by definition and never reach this).
template <class A>
Untiled<A> delinearize(A& a, const std::vector<typename A::Value>& dims, const Layout& layout,
                       typename A::Value position) {
  const auto bounds = level_bounds(a, dims, layout);
  Untiled<A> u{row_major_coordinates(a, position, bounds.back()), a.truth(true)};
  for (size_t k = layout.tiles.size(); k-- > 0;) {
    Untiled<A> prev = untile_index(a, tile_sizes(a, layout.tiles[k]), bounds[k], u.index);
    u = {prev.index, a.both(u.in_bounds, prev.in_bounds)};
  }
  u.index = to_logical_order(u.index, layout.minor_to_major);
  return u;
}

// ---------------------------------------------------------------------------
// The int64 oracle. Every function validates its input and throws Error (D9).

// Structure, no symbolic dims, and every size (final shape, padded count,
// byte size) computable in int64.
void validate(const ShapeWithLayout& shape);
// A layout as its text gives it, parsed (tilecheck/spec/syntax.h) and
// validated; the Error names the text: "layout 'TEXT': column N: ...". What
// the command line and the Python package say of a LAYOUT they are given.
ShapeWithLayout parse_layout(std::string_view text);

int64_t element_count(const ShapeWithLayout& shape);       // product of logical dims
std::vector<int64_t> tiled_shape(const ShapeWithLayout& shape);
int64_t padded_element_count(const ShapeWithLayout& shape);
int64_t byte_size(const ShapeWithLayout& shape);           // D6: ceil(count*bits/8)
int64_t dense_byte_size(const ShapeWithLayout& shape);     // element_count * ceil(bits/8)

// Throws Error unless `element` has the shape's rank and is in bounds.
void validate_element(const ShapeWithLayout& shape, const std::vector<int64_t>& element);
int64_t linear_index(const ShapeWithLayout& shape, const std::vector<int64_t>& element);
// nullopt for padding; throws Error unless 0 <= position < padded_element_count.
std::optional<std::vector<int64_t>> delinearize(const ShapeWithLayout& shape, int64_t position);

// Every step of linear_index_with_tile, for `tilecheck explain`.
struct LevelTrace {
  Tile tile;
  std::vector<int64_t> bounds_before, index_before;    // physical, before extension
  LevelStructure structure;
  std::vector<int64_t> merged_bounds, merged_index;    // one per non-'*' tile entry
  std::vector<int64_t> tile_index, within_tile_index;  // floor(e/t), e mod t
  std::vector<int64_t> bounds_after, index_after;
};
struct IndexTrace {
  std::vector<int64_t> physical_bounds, physical_index;
  std::vector<LevelTrace> levels;
  std::vector<int64_t> final_bounds, final_index;
  int64_t linear_index = 0;
};
IndexTrace trace_linear_index(const ShapeWithLayout& shape, const std::vector<int64_t>& element);

// Reference pack/unpack: every element moved to its linear index, one by one
// (the indices computed for a batch of elements at a time, ColumnDomain in
// arith.h: the same formulas as linear_index).
// Dense array: logical dims row-major (dim 0 most major), each element in
// ceil(bits/8) bytes, little-endian, value in the low `bits` bits; pack
// ignores the bits above them, unpack writes them as zero, or as copies of
// the value's top bit for a signed integer type (s4 -1 unpacks to 0xff):
// docs/PROTOCOL.md, "Dense buffers".
// Physical buffer: byte_size(shape) bytes. The element at linear position p
// occupies bits [p*bits, p*bits + bits) of the buffer, bit i of the buffer
// being bit (i mod 8) of byte (i div 8). For widths 1, 2 and 4 this is D7
// (lowest bits first, as XLA's PackIntN); for multiples of 8 it is the
// element's little-endian bytes at byte p*bits/8. Padding bits are zero (D8).
// Throws Error when a buffer has the wrong size.
std::vector<uint8_t> pack(const ShapeWithLayout& shape, std::span<const uint8_t> dense);
std::vector<uint8_t> unpack(const ShapeWithLayout& shape, std::span<const uint8_t> physical);
// The dense array in canonical form, as unpack(pack(dense)) returns it:
// each element's bits above the element width cleared, or set when the type
// is a signed integer and the value's top bit is set.
std::vector<uint8_t> canonical_dense(const ShapeWithLayout& shape, std::vector<uint8_t> dense);

}  // namespace tilecheck::spec
