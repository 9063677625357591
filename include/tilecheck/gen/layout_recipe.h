// The layout recipe: one description of "an interesting shape with layout",
// driven by whatever supplies the choices.
//
// Every generator here is a template over a source of choices `C`:
//
//   int64_t c.in_range(int64_t lo, int64_t hi)   a value in [lo, hi]
//   size_t  c.pick(std::span<const int> weights)  an index i with probability
//                                                 weights[i] / sum(weights)
//   bool    c.flip()                              a coin
//
// so the same code serves RapidCheck (properties/rc_layout_gen.h: every
// choice is a shrinkable `*gen`), libFuzzer (tilecheck/gen/fuzzed_choices.h:
// choices read from a FuzzedDataProvider) and any runner that replays choices.
//
// Shrinking contract: the SMALLEST choice means the SIMPLEST layout. A source
// that shrinks towards (or, out of data, returns) lo / index 0 / false gets
// rank 0, dims of 1, f32, the default minor_to_major, no tiles, no L/E/S. So
// every weighted table below lists its simplest option first, and optional
// features are switched on by a `true`.
//
// Validity contract: make_layout always returns a layout spec::validate
// accepts, with at most `limits.max_elements` elements and at most
// `limits.max_padded_elements` padded positions, so that exhaustive properties
// stay fast. The bounds are met by repair (halve the largest dim; first drop
// trailing tiles that alone exceed the budget), never by rejection, so every
// choice sequence yields a case.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tilecheck/gen/reach.h>
#include <tilecheck/spec/model.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::gen {

template <class C>
concept LayoutChoices = requires(C& c, int64_t lo, int64_t hi, std::span<const int> weights) {
  { c.in_range(lo, hi) } -> std::convertible_to<int64_t>;
  { c.pick(weights) } -> std::convertible_to<size_t>;
  { c.flip() } -> std::convertible_to<bool>;
};

struct RecipeLimits {
  int64_t max_elements = int64_t{1} << 12;         // logical element count
  int64_t max_padded_elements = int64_t{1} << 14;  // D5 padded count
};

// pick() and flip() derived from in_range(), for sources that supply only
// in_range (both adapters do): index 0 and false are the low ends.
template <class Derived>
struct PicksFromRange {
  size_t pick(std::span<const int> weights) {
    int64_t total = 0;
    for (int w : weights) total += w;
    int64_t r = self().in_range(0, total - 1);
    for (size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return weights.size() - 1;  // unreachable for a positive total
  }
  bool flip() { return self().in_range(0, 1) == 1; }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

// ---------------------------------------------------------------------------
// Small helpers over choices.

template <LayoutChoices C>
size_t pick(C& c, std::initializer_list<int> weights) {
  return static_cast<size_t>(c.pick(std::span<const int>(weights.begin(), weights.size())));
}

// A uniform choice among `values`; shrinks towards the first.
template <class T, LayoutChoices C>
T one_of(C& c, std::initializer_list<T> values) {
  return values.begin()[c.in_range(0, static_cast<int64_t>(values.size()) - 1)];
}

// A weighted switch: `true` with probability num/den; shrinks to false.
template <LayoutChoices C>
bool sometimes(C& c, int num, int den) {
  return pick(c, {den - num, num}) == 1;
}

// ---------------------------------------------------------------------------
// Element types: the common ones weighted up, every type reachable.

template <LayoutChoices C>
ElementType make_element_type(C& c) {
  static constexpr std::array<ElementType, 8> kCommon = {
      ElementType::kF32, ElementType::kBF16, ElementType::kS8,  ElementType::kPred,
      ElementType::kS4,  ElementType::kF16,  ElementType::kS32, ElementType::kU8};
  const size_t i = pick(c, {12, 6, 4, 3, 3, 3, 3, 2, 6});
  if (i < kCommon.size()) return kCommon[i];
  const std::vector<ElementType>& all = all_element_types();
  return all[c.in_range(0, static_cast<int64_t>(all.size()) - 1)];
}

// ---------------------------------------------------------------------------
// Dims: small (shrinks to 1), zero, primes, powers of two, ragged sizes.

template <LayoutChoices C>
int64_t make_dim(C& c) {
  switch (pick(c, {8, 1, 2, 2, 3})) {
    case 0: return c.in_range(1, 8);
    case 1: return 0;
    case 2: return one_of(c, {2, 3, 5, 7, 11, 13, 17, 31, 61, 127, 131});
    case 3: return int64_t{1} << c.in_range(0, 9);
    default:  // ragged around the TPU tile sizes
      return one_of(c, {9, 7, 15, 17, 33, 63, 65, 127, 129, 130, 255, 257, 300, 333});
  }
}

// The default minor_to_major (n-1, ..., 0) or a permutation of it. Each swap
// j = i - choice shrinks to "no swap", so permutations shrink to the default.
template <LayoutChoices C>
std::vector<int64_t> make_minor_to_major(C& c, int64_t rank) {
  std::vector<int64_t> m2m = default_layout(rank).minor_to_major;
  if (rank < 2 || !sometimes(c, 1, 3)) return m2m;
  for (int64_t i = rank - 1; i > 0; --i) std::swap(m2m[i], m2m[i - c.in_range(0, i)]);
  return m2m;
}

// ---------------------------------------------------------------------------
// Tiles.

// The shape after the tiles chosen so far (the spec's D2 bounds).
inline std::vector<int64_t> current_bounds(const ShapeWithLayout& shape) {
  return spec::tiled_shape(shape);
}

// The TPU format of DESIGN.md for the element width: (8,128) for 32 bits
// and wider, (8,128)(2,1) for 16, (8,128)(4,1) for 8, (8,128)(8,1)E(4) for
// 4, (8,128)(32/b,1) below, pred (32,128)(32,1)E(1).
inline void apply_natural_tpu_format(ShapeWithLayout& shape) {
  const int bits = natural_bit_width(shape.type);
  std::vector<Tile>& tiles = shape.layout.tiles;
  if (shape.type == ElementType::kPred) {
    tiles = {Tile{{32, 128}}, Tile{{32, 1}}};
    shape.layout.element_size_bits = 1;
  } else if (bits == 16) {
    tiles = {Tile{{8, 128}}, Tile{{2, 1}}};
  } else if (bits == 8) {
    tiles = {Tile{{8, 128}}, Tile{{4, 1}}};
  } else if (bits == 4) {
    tiles = {Tile{{8, 128}}, Tile{{8, 1}}};
    shape.layout.element_size_bits = 4;
  } else if (bits < 4) {
    tiles = {Tile{{8, 128}}, Tile{{32 / bits, 1}}};
  } else {
    tiles = {Tile{{8, 128}}};
  }
}

// The TPU formats of DESIGN.md for this type and physical shape, weighted
// towards the one XLA would choose. May set E(n) (4-bit and 1-bit forms).
template <LayoutChoices C>
void apply_tpu_format(C& c, ShapeWithLayout& shape) {
  const std::vector<int64_t> physical = current_bounds(shape);
  const int64_t second_minor = physical.size() >= 2 ? physical[physical.size() - 2] : 1;
  std::vector<Tile>& tiles = shape.layout.tiles;
  // Index 0: the plain (8,128), correct for 32-bit types and usable for all.
  switch (pick(c, {4, 6, 2})) {
    case 0:
      tiles = {Tile{{8, 128}}};
      return;
    case 1:  // the natural format for the element width
      apply_natural_tpu_format(shape);
      return;
    default:  // small second-minor dim: (2,128) for 1 or 2, (4,128) for 3 or 4
      tiles = {Tile{{second_minor <= 2 ? 2 : 4, 128}}};
      return;
  }
}

// One tile entry aimed at a dim of size `dim`: shorter, equal, longer, a
// power of two, or '*' when `may_combine`.
template <LayoutChoices C>
int64_t make_tile_entry(C& c, int64_t dim, bool may_combine) {
  switch (pick(c, {6, 3, 3, 1, 2, may_combine ? 2 : 0})) {
    case 0: return c.in_range(1, 4);
    case 1: return std::max<int64_t>(dim, 1);                      // equal to the shape
    case 2: return int64_t{1} << c.in_range(1, 7);                 // 2..128
    case 3: return one_of(c, {3, 5, 7});
    case 4: return std::max<int64_t>(dim, 1) + c.in_range(1, 8);   // longer than the shape
    default: return kCombineDim;
  }
}

// One tiling level on a shape whose current bounds are `bounds`, after a
// previous level of `previous_length` entries (0 for the first level).
template <LayoutChoices C>
Tile make_tile_level(C& c, const std::vector<int64_t>& bounds, size_t previous_length) {
  const int64_t rank = static_cast<int64_t>(bounds.size());
  // The dim a tile of length k puts entry i on (1 in the D3 extension).
  auto dim_under = [&](int64_t k, int64_t i) {
    const int64_t at = rank - k + i;
    return at >= 0 ? bounds[at] : int64_t{1};
  };
  const bool later = previous_length > 0;
  const int64_t inner = static_cast<int64_t>(previous_length);
  switch (pick(c, {6, later ? 3 : 0, later && rank > inner ? 2 : 0})) {
    case 1:  // inside the previous tile: (2,1), (4,1), ... on its inner dims
      return Tile{{one_of(c, {2, 4, 8, 3, 16, 32}), 1}};
    case 2: {  // reaching into the cross-tile (outer) dims: (2,1,1,1)
      const int64_t k = c.in_range(inner + 1, rank);
      Tile t;
      for (int64_t i = 0; i < k; ++i) t.dims.push_back(sometimes(c, 1, 3) ? c.in_range(2, 4) : 1);
      return t;
    }
    default: {  // general: any length up to one past the rank (D3)
      const int64_t k = c.in_range(1, std::max<int64_t>(rank, 1) + 1);
      Tile t;
      for (int64_t i = 0; i < k; ++i) t.dims.push_back(make_tile_entry(c, dim_under(k, i), i + 1 < k));
      return t;
    }
  }
}

// ---------------------------------------------------------------------------
// Budget repair (see the validity contract above).

inline std::optional<int64_t> padded_count_or_overflow(const ShapeWithLayout& shape) {
  try {
    return spec::padded_element_count(shape);
  } catch (const Error&) {
    return std::nullopt;  // int64 overflow: over any budget
  }
}

inline bool within(const ShapeWithLayout& shape, const RecipeLimits& limits) {
  const std::optional<int64_t> padded = padded_count_or_overflow(shape);
  return padded && *padded <= limits.max_padded_elements;
}

inline void fit_to_budget(ShapeWithLayout& shape, const RecipeLimits& limits) {
  auto halve_largest_dim = [&] {
    auto largest = std::max_element(shape.dims.begin(), shape.dims.end());
    *largest /= 2;  // only called when *largest > 1, so it stays >= 1
  };
  auto largest_dim = [&] {
    return shape.dims.empty() ? int64_t{0}
                              : *std::max_element(shape.dims.begin(), shape.dims.end());
  };
  // No dim longer than the whole element budget, first: a zero-element
  // array (u8[2147483647,0]) fits any count budget, yet code that walks its
  // rows would loop 2^31 times; and the products below cannot overflow.
  for (int64_t& d : shape.dims) {
    while (d > limits.max_elements) d /= 2;
  }
  // The element count, saturated just past the budget (any rank).
  const auto count = [&] {
    int64_t n = 1;
    for (int64_t d : shape.dims) {
      if (d == 0) return int64_t{0};
      n = std::min<int64_t>(n * d, limits.max_elements + 1);  // both <= budget + 1: no overflow
    }
    return n;
  };
  while (count() > limits.max_elements) halve_largest_dim();
  // An L(n) past the padded budget pads every shape past it: it goes (TEXT
  // layouts the fuzzers shrink may carry any n; the recipe's never do).
  if (shape.layout.tail_padding_alignment &&
      *shape.layout.tail_padding_alignment > limits.max_padded_elements) {
    shape.layout.tail_padding_alignment.reset();
  }
  // Tiles too large even for a shape of ones go (last level first).
  ShapeWithLayout ones = shape;
  for (int64_t& d : ones.dims) d = std::min<int64_t>(d, 1);
  while (!ones.layout.tiles.empty() && !within(ones, limits)) ones.layout.tiles.pop_back();
  shape.layout.tiles = ones.layout.tiles;
  // Padded count is monotone in the dims and fits at all-ones: halve.
  while (!within(shape, limits) && largest_dim() > 1) halve_largest_dim();
}

// ---------------------------------------------------------------------------
// Valid layouts.

template <LayoutChoices C>
ShapeWithLayout make_layout(C& c, const RecipeLimits& limits = {}) {
  ShapeWithLayout shape;
  shape.type = make_element_type(c);
  const int64_t rank = static_cast<int64_t>(pick(c, {1, 3, 6, 4, 2, 1, 1}));
  for (int64_t i = 0; i < rank; ++i) shape.dims.push_back(make_dim(c));
  shape.layout.minor_to_major = make_minor_to_major(c, rank);

  switch (pick(c, {3, 4, 5})) {
    case 0: break;  // untiled
    case 1: apply_tpu_format(c, shape); break;
    default: {
      const int64_t levels = c.in_range(1, 3);
      size_t previous_length = 0;
      for (int64_t level = 0; level < levels; ++level) {
        Tile t = make_tile_level(c, current_bounds(shape), previous_length);
        previous_length = t.dims.size();
        shape.layout.tiles.push_back(std::move(t));
      }
    }
  }
  // L(1) and S(0) are XLA's defaults, which a layout stores as absent.
  if (sometimes(c, 1, 6)) {
    const int64_t n = one_of<int64_t>(c, {2, 3, 4, 8, 16, 128, 1024, 1});
    if (n > 1) shape.layout.tail_padding_alignment = n;
  }
  if (sometimes(c, 1, 8)) {
    shape.layout.element_size_bits = one_of<int64_t>(c, {8, 1, 2, 4, 16, 32, 3, 5, 12, 24, 64, 128});
  }
  if (sometimes(c, 1, 10)) {
    const int64_t space = c.in_range(0, 3);
    if (space > 0) shape.layout.memory_space = space;
  }
  fit_to_budget(shape, limits);
  return shape;
}

// A layout of make_layout with the XLA properties that change no mapping of
// tilecheck's, or that no mapping models (D10), for the text round trip:
// bounded dynamic dims '<=N', index and pointer types, split configs in
// range, a physical shape, dynamic-shape metadata M(n).
template <LayoutChoices C>
ShapeWithLayout make_xla_array(C& c, const RecipeLimits& limits = {}) {
  ShapeWithLayout shape = make_layout(c, limits);
  const int64_t rank = shape.rank();
  for (int64_t d = 0; d < rank; ++d) {
    if (sometimes(c, 1, 4)) shape.dynamic_dims.push_back(d);
  }
  if (sometimes(c, 1, 8)) shape.layout.index_type = one_of(c, {ElementType::kU32, ElementType::kS64});
  if (sometimes(c, 1, 8)) shape.layout.pointer_type = one_of(c, {ElementType::kU16, ElementType::kU8});
  if (rank > 0 && sometimes(c, 1, 4)) {
    const int64_t configs = c.in_range(1, 2);
    for (int64_t i = 0; i < configs; ++i) {
      SplitConfig sc{c.in_range(0, rank - 1), {}};
      int64_t at = 0;
      const int64_t splits = c.in_range(0, 3);
      for (int64_t k = 0; k < splits; ++k) sc.split_indices.push_back(at += c.in_range(1, 50));
      shape.layout.split_configs.push_back(std::move(sc));
    }
  }
  if (sometimes(c, 1, 10)) {
    ShapeWithLayout physical = make_layout(c, limits);
    physical.dynamic_dims.clear();
    shape.layout.physical_shape = print_shape(physical);
  }
  if (sometimes(c, 1, 6)) shape.layout.metadata_prefix_bytes = c.in_range(1, 4096);
  return shape;
}

// A whole XLA shape for the text round trip: an array of make_xla_array,
// or a tuple (nested up to `depth` levels, possibly empty, long enough for
// XLA's /*index=N*/ annotations) of arrays, tokens, opaque values and
// buffers b(..).
template <LayoutChoices C>
Shape make_xla_shape(C& c, int depth = 2, const RecipeLimits& limits = {}) {
  Shape shape;
  switch (depth > 0 ? pick(c, {6, 3, 1, 1, 1}) : 0) {
    case 0: shape.array = make_xla_array(c, limits); break;
    case 1: {
      shape.kind = Shape::Kind::kTuple;
      const int64_t n = c.in_range(0, 12);
      for (int64_t i = 0; i < n; ++i) shape.elements.push_back(make_xla_shape(c, depth - 1, limits));
      break;
    }
    case 2: shape.kind = Shape::Kind::kToken; break;
    case 3: shape.kind = Shape::Kind::kOpaque; break;
    default:
      shape.kind = Shape::Kind::kBuffer;
      shape.elements.push_back(Shape{Shape::Kind::kArray, make_xla_array(c, limits), {}});
      break;
  }
  return shape;
}

// A second layout of the same dims and element width as `from` (a relayout
// partner): its own minor_to_major, tiles and L(n). The partner's budget is
// met by dropping its tiles and L(n), never by changing the shared dims
// (so a `from` past the budget gets a partner without either).
template <LayoutChoices C>
ShapeWithLayout make_partner_layout(C& c, const ShapeWithLayout& from, const RecipeLimits& limits = {}) {
  ShapeWithLayout to = make_layout(c, limits);
  to.type = from.type;
  to.dims = from.dims;
  to.layout.minor_to_major = make_minor_to_major(c, from.rank());
  to.layout.element_size_bits = from.layout.element_size_bits;
  // Tiles chosen for other dims are still valid here; only the size can fail.
  while (!within(to, limits) && (!to.layout.tiles.empty() || to.layout.tail_padding_alignment)) {
    if (!to.layout.tiles.empty()) {
      to.layout.tiles.pop_back();
    } else {
      to.layout.tail_padding_alignment.reset();
    }
  }
  return to;
}

// A valid layout with at least one element (zero dims raised to 1).
template <LayoutChoices C>
ShapeWithLayout make_nonempty_layout(C& c, const RecipeLimits& limits = {}) {
  ShapeWithLayout shape = make_layout(c, limits);
  for (int64_t& d : shape.dims) d = std::max<int64_t>(d, 1);
  fit_to_budget(shape, limits);
  return shape;
}

// The result of a candidate bitcast of `from`: the same element type and
// width, dims that a reshape of from's reaches (two adjacent dims merged, a
// dim split at a divisor, or the same dims), and a layout that is either
// from's own (its minor_to_major carried over when the rank is unchanged,
// else the default one, with from's tiles and L(n)) or a partner layout of
// its own. Both kinds of answer come up: a bitcast and not.
template <LayoutChoices C>
ShapeWithLayout make_bitcast_partner(C& c, const ShapeWithLayout& from, const RecipeLimits& limits = {}) {
  std::vector<int64_t> dims = from.dims;
  const int64_t rank = from.rank();
  switch (pick(c, {3, 3, 1})) {
    case 0:
      if (rank >= 2) {
        const int64_t i = c.in_range(0, rank - 2);
        dims[i] *= dims[i + 1];
        dims.erase(dims.begin() + i + 1);
      }
      break;
    case 1:
      if (rank >= 1) {
        const int64_t i = c.in_range(0, rank - 1);
        std::vector<int64_t> divisors;
        for (int64_t a = 1; a <= dims[i]; ++a) {
          if (dims[i] % a == 0) divisors.push_back(a);
        }
        if (!divisors.empty()) {
          const int64_t a = divisors[c.in_range(0, static_cast<int64_t>(divisors.size()) - 1)];
          dims[i] /= a;
          dims.insert(dims.begin() + i, a);
        }
      }
      break;
    default: break;
  }
  ShapeWithLayout to = from;
  to.dims = dims;
  to.dynamic_dims.clear();
  if (c.flip()) {
    to = make_partner_layout(c, to, limits);
    to.layout.element_size_bits = from.layout.element_size_bits;
  } else if (to.rank() != rank) {
    to.layout.minor_to_major = default_layout(to.rank()).minor_to_major;
  }
  while (!within(to, limits) && !to.layout.tiles.empty()) to.layout.tiles.pop_back();
  if (!within(to, limits)) to.layout.tail_padding_alignment.reset();
  return to;
}

// A layout of make_layout shaped for the impl's plan choices (the panel and
// the transposing leaf, impl/schedule.cc), whose conditions decide on
// layouts the general recipe draws rarely: half the time with 4-byte
// elements (the only ones with a transposing leaf), and half the time of
// rank 4 or more (dims of 2 to 5 added), untiled half of those, with its
// outer dims in a random physical order, so that the digits right above
// the minor dim are often not the next dense ones. Each shrinks back to
// make_layout's layout. One in 16 is instead an untiled transposed pair:
// half of them f32 with one dim around 1,024 (four of the transposing
// panel's blocks of 256) and one of 2 or 3, half bf16 or s8 with both dims
// around the interleaved 16x16 transposes' 16 columns and 64/elem_bytes
// rows (impl/transpose-inl.h).
template <LayoutChoices C>
ShapeWithLayout make_plan_layout(C& c, const RecipeLimits& limits = {}) {
  if (sometimes(c, 1, 16)) {
    ShapeWithLayout pair;
    pair.layout.minor_to_major = {0, 1};
    if (c.flip()) {
      pair.type = c.flip() ? ElementType::kBF16 : ElementType::kS8;
      const std::initializer_list<int64_t> dims = {16, 17, 33, 64, 65, 100};
      pair.dims = {one_of<int64_t>(c, dims), one_of<int64_t>(c, dims)};
    } else {
      pair.type = ElementType::kF32;
      const int64_t long_dim = one_of<int64_t>(c, {1023, 1024, 1025, 1031});
      const int64_t short_dim = c.in_range(2, 3);
      pair.dims = c.flip() ? std::vector<int64_t>{long_dim, short_dim} : std::vector<int64_t>{short_dim, long_dim};
    }
    fit_to_budget(pair, limits);
    return pair;
  }
  ShapeWithLayout shape = make_layout(c, limits);
  if (c.flip() && !shape.layout.element_size_bits) shape.type = ElementType::kF32;
  if (c.flip()) {
    while (shape.rank() < 4) shape.dims.push_back(c.in_range(2, 5));
    if (shape.rank() < 5 && c.flip()) shape.dims.push_back(c.in_range(2, 5));
    if (c.flip()) shape.layout.tiles.clear();
    shape.layout.minor_to_major = default_layout(shape.rank()).minor_to_major;
    auto& m2m = shape.layout.minor_to_major;
    // The outer dims shuffled, the dense-minor dim kept minor (a panel's
    // columns) unless a last swap moves it too.
    for (int64_t i = shape.rank() - 1; i > 1; --i) std::swap(m2m[i], m2m[i - c.in_range(0, i - 1)]);
    if (c.flip()) std::swap(m2m[0], m2m[c.in_range(0, shape.rank() - 1)]);
    // A minor dim of a cache line of 4-byte elements or more: below that
    // the plan visits the outer digits by dense stride, which restores the
    // order a panel needs.
    if (c.flip()) shape.dims[m2m[0]] = std::max(shape.dims[m2m[0]], one_of<int64_t>(c, {16, 17, 33}));
    fit_to_budget(shape, limits);
  }
  return shape;
}

// A layout for data movement at size, as the size set moves it
// (size_layouts, tilecheck/gen/reach.h): one width class's TPU format
// (kSizeFormats) over two dims of 257 to 269, so past 2^16 elements, or in
// one case of 4 of 1,025 to 1,037, past 2^20 -- where the dense buffer
// stays within `max_dense_bytes`, else past 2^16 -- in either dim order.
// Both dims drawn, so that the 2^16-element chunks, thread shares and
// tile rows fall at every offset inside a byte and a tile. Shrinks to
// u1[257,257]{1,0:T(32,128)(32,1)}.
template <LayoutChoices C>
ShapeWithLayout make_size_layout(C& c, int64_t max_dense_bytes) {
  constexpr int64_t kFormats = sizeof(kSizeFormats) / sizeof(kSizeFormats[0]);
  const SizeFormat& format = kSizeFormats[c.in_range(0, kFormats - 1)];
  const bool past_2_20 = sometimes(c, 1, 4);
  const bool default_order = !c.flip();
  const int64_t rows = c.in_range(0, 12), cols = c.in_range(0, 12);
  ShapeWithLayout shape = parse_shape(size_layout_text(format, 1025 + rows, 1025 + cols, default_order));
  if (!past_2_20 || spec::dense_byte_size(shape) > max_dense_bytes) {
    shape = parse_shape(size_layout_text(format, 257 + rows, 257 + cols, default_order));
  }
  return shape;
}

// A layout shaped for the impl's SIMD kernels, which make_layout's layouts
// of a small budget reach rarely: the sub-tile interleaves (bf16 (2,1),
// s8/u8 (4,1), s4 (8,1), pred (32,1)) and plain f32 rows, with row and
// column counts around the vector widths (16 to 64 bytes; tiles of 20
// columns leave a scalar tail on every target, tiles of 24 a part of 16),
// tiles wider than a panel chunk holds (the row kernels' vector loops), and
// column-major f32 tiles (the transposing panels); whole tiles in half the
// cases, since the transposing panels take only layouts without ragged
// tiles. A third of the row-major layouts get a
// middle dim that is physically most major ({2,0,1}): a tile's rows are
// then not adjacent in the dense array (the panels' row-stride cases). At
// most `max_elements` elements (at least 256, which a 16x16 transposing
// block needs).
template <LayoutChoices C>
ShapeWithLayout make_kernel_layout(C& c, int64_t max_elements) {
  struct Kind {
    ElementType type;
    int64_t group;  // rows of the (g,1) sub-tile; 1: none
    std::optional<int64_t> bits;  // E(n)
    bool column_major;
  };
  static constexpr std::array<Kind, 7> kKinds = {{{ElementType::kBF16, 2, std::nullopt, false},
                                                  {ElementType::kS8, 4, std::nullopt, false},
                                                  {ElementType::kU8, 4, std::nullopt, false},
                                                  {ElementType::kS4, 8, 4, false},
                                                  {ElementType::kPred, 32, 1, false},
                                                  {ElementType::kF32, 1, std::nullopt, true},
                                                  {ElementType::kF32, 1, std::nullopt, false}}};
  const Kind k = kKinds[static_cast<size_t>(c.in_range(0, kKinds.size() - 1))];
  const int64_t tile_rows = k.group == 1 ? 8 : k.group * c.in_range(1, 2);
  const int64_t tile_cols = one_of<int64_t>(c, {16, 20, 24, 64, 128, 1056});
  int64_t cols = c.in_range(1, std::min(2 * tile_cols, max_elements));
  int64_t rows = c.in_range(1, std::max<int64_t>(1, std::min(3 * tile_rows, max_elements / cols)));
  if (c.flip()) {  // whole tiles, as far as the budget allows
    const int64_t whole_cols = (cols + tile_cols - 1) / tile_cols * tile_cols;
    if (whole_cols * tile_rows <= max_elements) {
      cols = whole_cols;
      rows = (rows + tile_rows - 1) / tile_rows * tile_rows;
      while (rows > tile_rows && rows * cols > max_elements) rows -= tile_rows;
    }
  }
  ShapeWithLayout shape;
  shape.type = k.type;
  shape.layout.element_size_bits = k.bits;
  if (k.column_major) {
    // Column-major: dim 0 is the minor one, the tile's columns run along it.
    shape.dims = {cols, rows};
    shape.layout.minor_to_major = {0, 1};
    shape.layout.tiles = {Tile{{8, tile_cols}}};
    return shape;
  }
  shape.dims = {rows, cols};
  shape.layout.minor_to_major = {1, 0};
  shape.layout.tiles = {Tile{{tile_rows, tile_cols}}};
  if (k.group > 1) shape.layout.tiles.push_back(Tile{{k.group, 1}});
  const int64_t middle = sometimes(c, 1, 3) ? c.in_range(2, 3) : 1;
  if (middle > 1 && rows * cols * middle <= max_elements) {
    shape.dims = {rows, middle, cols};
    shape.layout.minor_to_major = {2, 0, 1};
  }
  return shape;
}

// ---------------------------------------------------------------------------
// Elements and dense data for a given valid layout.

// An in-bounds element; precondition: the shape has at least one element.
// Half the time a coordinate is the last one of its dim (the ragged tail).
template <LayoutChoices C>
std::vector<int64_t> make_element(C& c, const ShapeWithLayout& shape) {
  std::vector<int64_t> e;
  for (int64_t d : shape.dims) e.push_back(sometimes(c, 1, 3) ? d - 1 : c.in_range(0, d - 1));
  return e;
}

// splitmix64: a seeded stream for bulk data (one choice per array, not per byte).
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Dense data (spec::pack's dense contract): dense_byte_size bytes. Simplest
// first: element i holds i+1 (distinct, non-zero, readable in a
// counterexample); else seeded random bytes, optionally with garbage in the
// bits above the element width, which pack must ignore.
template <LayoutChoices C>
std::vector<uint8_t> make_dense_data(C& c, const ShapeWithLayout& shape) {
  const int64_t bytes_per_element = shape.dense_element_bytes();
  const int64_t count = spec::element_count(shape);
  std::vector<uint8_t> dense(static_cast<size_t>(count * bytes_per_element), 0);
  const bool random = c.flip();
  const bool keep_high_bits = random && c.flip();
  uint64_t state = random ? static_cast<uint64_t>(c.in_range(0, int64_t{1} << 40)) : 0;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t word = random ? splitmix64(state) : static_cast<uint64_t>(i + 1);
    for (int64_t b = 0; b < bytes_per_element; ++b) {
      if (b > 0 && b % 8 == 0) word = random ? splitmix64(state) : 0;
      dense[i * bytes_per_element + b] = static_cast<uint8_t>(word >> (8 * (b % 8)));
    }
  }
  return keep_high_bits ? dense : spec::canonical_dense(shape, dense);
}

// ---------------------------------------------------------------------------
// Invalid layouts: one generator per error class of D9.

enum class InvalidKind {
  kSyntax,                 // text only: the parser rejects it, with a column
  kTileEntryNotPositive,   // T(0,..) or a negative entry
  kCombineLast,            // '*' as the last entry of a tile
  kEmptyTile,              // T()
  kMinorToMajorNotPermutation,  // repeated, out of range, or wrong length
  kNegativeDim,
  kTailPaddingBelowOne,    // L(0)
  kElementBitsOutOfRange,  // E(0), E(129)
  kMemorySpaceNegative,    // S(-1)
  kSizeOverflow,           // a size past int64
  kSymbolicDim,            // '?' outside the proofs
};

inline std::string_view invalid_kind_name(InvalidKind kind) {
  switch (kind) {
    case InvalidKind::kSyntax: return "syntax";
    case InvalidKind::kTileEntryNotPositive: return "tile entry not positive";
    case InvalidKind::kCombineLast: return "'*' last in a tile";
    case InvalidKind::kEmptyTile: return "empty tile";
    case InvalidKind::kMinorToMajorNotPermutation: return "minor_to_major not a permutation";
    case InvalidKind::kNegativeDim: return "negative dim";
    case InvalidKind::kTailPaddingBelowOne: return "L(n) below 1";
    case InvalidKind::kElementBitsOutOfRange: return "E(n) outside 1..128";
    case InvalidKind::kMemorySpaceNegative: return "negative S(n)";
    case InvalidKind::kSizeOverflow: return "size overflows int64";
    case InvalidKind::kSymbolicDim: return "symbolic dim";
  }
  return "?";
}

struct InvalidLayout {
  InvalidKind kind;
  std::string text;                      // always set; parse + validate must throw
  std::optional<ShapeWithLayout> shape;  // the struct form, where one exists
};

// Text corruptions that no valid layout text contains.
template <LayoutChoices C>
std::string make_syntax_error(C& c, const std::string& valid) {
  const int64_t n = static_cast<int64_t>(valid.size());
  switch (pick(c, {3, 1, 1, 1, 1, 1, 1, 1})) {
    case 0: {  // a character that never appears in the syntax, anywhere ('-' can: -0 is 0)
      const int64_t at = c.in_range(0, n);
      return valid.substr(0, at) + one_of(c, {'#', '@', '!', '%'}) + valid.substr(at);
    }
    case 1: return "f31" + valid.substr(valid.find('['));         // unknown type
    case 2: return valid.substr(0, valid.find(']'));               // unclosed dims
    case 3: return valid + "}";                                    // trailing text
    case 4: return "f32[3,5]{1,0:L(2)T(2,2)}";                     // properties out of order
    case 5: return "f32[3,5]{1,0:E(4)E(4)}";                       // a property twice
    case 6: return "f32[99999999999999999999]";                    // a number past int64
    default: return "f32[3,5]{1,0:T(2,2}";                         // unclosed tile
  }
}

template <LayoutChoices C>
InvalidLayout make_invalid_layout(C& c, const RecipeLimits& limits = {}) {
  // Start from a valid layout of rank >= 1 and break one thing.
  ShapeWithLayout shape = make_layout(c, limits);
  if (shape.dims.empty()) {
    shape.dims = {3};
    shape.layout.minor_to_major = {0};
  }
  const int64_t rank = shape.rank();
  auto kind = static_cast<InvalidKind>(pick(c, {3, 2, 2, 1, 2, 1, 1, 1, 1, 2, 1}));
  auto some_tile = [&]() -> Tile& {
    if (shape.layout.tiles.empty()) shape.layout.tiles.push_back(Tile{{2}});
    return shape.layout.tiles[c.in_range(0, static_cast<int64_t>(shape.layout.tiles.size()) - 1)];
  };
  switch (kind) {
    case InvalidKind::kSyntax:
      return {kind, make_syntax_error(c, print_shape(shape)), std::nullopt};
    case InvalidKind::kTileEntryNotPositive: {
      Tile& t = some_tile();
      // 0, -3, -6, -9: never kCombineDim (INT64_MIN).
      t.dims[c.in_range(0, static_cast<int64_t>(t.dims.size()) - 1)] = -3 * c.in_range(0, 3);
      break;
    }
    case InvalidKind::kCombineLast:
      some_tile().dims.back() = kCombineDim;
      break;
    case InvalidKind::kEmptyTile:
      some_tile().dims.clear();
      break;
    case InvalidKind::kMinorToMajorNotPermutation:
      switch (pick(c, {1, 1, 1})) {
        case 0: shape.layout.minor_to_major.push_back(0); break;  // wrong length, repeats 0
        case 1: shape.layout.minor_to_major[c.in_range(0, rank - 1)] = rank + c.in_range(0, 2); break;
        default:
          if (rank >= 2) {
            shape.layout.minor_to_major[0] = shape.layout.minor_to_major[1];
          } else {
            shape.layout.minor_to_major.pop_back();
          }
      }
      break;
    case InvalidKind::kNegativeDim:
      shape.dims[c.in_range(0, rank - 1)] = -c.in_range(1, 5);
      break;
    case InvalidKind::kTailPaddingBelowOne:
      shape.layout.tail_padding_alignment = -c.in_range(0, 2);
      break;
    case InvalidKind::kElementBitsOutOfRange:
      shape.layout.element_size_bits = c.flip() ? 129 + c.in_range(0, 1000) : -c.in_range(0, 8);
      break;
    case InvalidKind::kMemorySpaceNegative:
      shape.layout.memory_space = -c.in_range(1, 3);
      break;
    case InvalidKind::kSizeOverflow:
      for (int64_t& d : shape.dims) d = std::max<int64_t>(d, 1);
      if (rank == 1 || c.flip()) {
        // A ragged dim just past 2^62 under a tile of 2^62: the padded count
        // is at least 2 * 2^62 = 2^63.
        shape.layout.tiles = {Tile{{int64_t{1} << 62}}};
        shape.dims[shape.layout.minor_to_major[0]] = (int64_t{1} << 62) + c.in_range(1, 1000);
      } else {
        // Two dims of at least 2^32: the element count reaches 2^64.
        shape.dims[0] = (int64_t{1} << 32) + c.in_range(0, 1000);
        shape.dims[1] = (int64_t{1} << 32) + c.in_range(0, 1000);
      }
      break;
    case InvalidKind::kSymbolicDim:
      shape.dims[c.in_range(0, rank - 1)] = kSymbolicDim;
      break;
  }
  // Negative dims and entries have no text form the parser reads as that
  // struct; their printed text is still invalid (a '-' where a number goes).
  return {kind, print_shape(shape), shape};
}

}  // namespace tilecheck::gen
