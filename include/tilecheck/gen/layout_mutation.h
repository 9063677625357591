// Structure-aware mutation for the fuzzers: one change to a decoded layout
// (mutate_layout), and the fuzz input format re-encoded around it
// (mutate_input), so that a fuzzer walks from layout to neighbouring layout
// instead of flipping bytes of XLA text or of recipe choices, most of which
// land nowhere new. docs/FUZZING.md, "The structure-aware mutator", says
// when it is used and what it gains.
//
// The changes, one per call, each a step a layout bug hides behind:
//   - a dim to a size past a threshold: 0, 1, a tile size there and one
//     either side, twice it plus one, a power of two and one either side,
//     2^16, 2^31, 2^32, 2^62 (each with its neighbours), or doubled / halved;
//   - a tile dim to 1, a small power of two, 128, one either side of it, or
//     '*' (combined);
//   - a tile level added (a TPU-style minor tile (2,1), (4,1), (8,1), (32,1),
//     a major (8,128), (1,128), or a level of one dim) or dropped;
//   - the dim order: two entries of minor_to_major swapped, or reversed;
//   - the element type, or E(n) set, changed or cleared;
//   - a dim added (most major) or dropped;
//   - L(n) set or cleared.
// The result may be a layout the spec rejects: a target that checks the
// impl's rejections wants those too; one that needs a valid layout skips it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <tilecheck/gen/fuzzed_choices.h>
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/spec/syntax.h>

// libFuzzer's own byte-level mutation. Weak, so that a build without
// libFuzzer (the replay driver, another engine) links; null there.
extern "C" __attribute__((weak)) size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace tilecheck::gen {

// LLVMFuzzerMutate where libFuzzer provides it, else the input unchanged.
inline size_t libfuzzer_mutate(uint8_t* data, size_t size, size_t max_size) {
  return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
}

// False when the environment sets TILECHECK_FUZZ_MUTATOR=off: every
// mutation is then libFuzzer's own, so that a campaign can be timed with
// and without the structure-aware one on the same build.
inline bool structure_mutation_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("TILECHECK_FUZZ_MUTATOR");
    return v == nullptr || std::string(v) != "off";
  }();
  return on;
}

// Which parts of a layout a mutation may change. A family harness allows
// only the dims (its layouts differ in nothing else).
struct MutationScope {
  bool layout = true;  // tiles, order, type, E(n), L(n), rank
};

// x + delta, kept within [0, INT64_MAX] (a parsed text may hold any size).
inline int64_t nudge(int64_t x, int64_t delta) {
  if (delta > 0 && x > INT64_MAX - delta) return INT64_MAX;
  return std::max<int64_t>(0, x + delta);
}

// A size near a threshold that layout code gets wrong, for a dim of `shape`
// currently `d`: see the list above.
template <LayoutChoices C>
int64_t threshold_size(C& c, const ShapeWithLayout& shape, size_t dim, int64_t d) {
  std::vector<int64_t> tile_sizes;
  for (const Tile& tile : shape.layout.tiles) {
    // A tile covers the most minor dims of the (physical) shape; tile dim j
    // from the end meets the dim minor_to_major[j from the start].
    const size_t n = tile.dims.size();
    for (size_t j = 0; j < n && j < shape.layout.minor_to_major.size(); ++j) {
      if (shape.layout.minor_to_major[j] == static_cast<int64_t>(dim) && tile.dims[n - 1 - j] > 0)
        tile_sizes.push_back(tile.dims[n - 1 - j]);
    }
  }
  const int64_t near = c.in_range(-1, 1);
  switch (pick(c, {2, 2, 3, 2, 2, 1})) {
    case 0: return c.in_range(0, 1);
    case 1: return nudge(d, near);
    case 2: {
      if (tile_sizes.empty()) return nudge(nudge(d, d), 1);
      const int64_t t = tile_sizes[static_cast<size_t>(c.in_range(0, static_cast<int64_t>(tile_sizes.size()) - 1))];
      return c.flip() ? nudge(t, near) : nudge(nudge(t, t), 1);
    }
    case 3: return nudge(int64_t{1} << c.in_range(1, 20), near);
    case 4: return one_of(c, {int64_t{1} << 16, int64_t{1} << 31, int64_t{1} << 32, int64_t{1} << 62}) + near;
    default: return c.flip() ? d / 2 : nudge(d, d);
  }
}

// `shape` with one change (the list at the top), drawn from `c`.
template <LayoutChoices C>
ShapeWithLayout mutate_layout(ShapeWithLayout shape, C& c, MutationScope scope = {}) {
  Layout& l = shape.layout;
  const int64_t rank = shape.rank();
  const bool whole = scope.layout;
  // Weights: dims, tile dim, add tile, drop tile, order, type, E(n), rank, L(n).
  const size_t kind = pick(c, {6, whole ? 3 : 0, whole ? 2 : 0, whole ? 2 : 0, whole ? 2 : 0, whole ? 1 : 0,
                               whole ? 1 : 0, whole ? 1 : 0, whole ? 1 : 0});
  switch (kind) {
    case 0:
      if (rank > 0) {
        const size_t dim = static_cast<size_t>(c.in_range(0, rank - 1));
        if (shape.dims[dim] >= 0) shape.dims[dim] = threshold_size(c, shape, dim, shape.dims[dim]);
      }
      break;
    case 1:
      if (!l.tiles.empty()) {
        Tile& tile = l.tiles[static_cast<size_t>(c.in_range(0, static_cast<int64_t>(l.tiles.size()) - 1))];
        int64_t& t = tile.dims[static_cast<size_t>(c.in_range(0, static_cast<int64_t>(tile.dims.size()) - 1))];
        switch (pick(c, {2, 3, 3, 1})) {
          case 0: t = 1; break;
          case 1: t = int64_t{1} << c.in_range(1, 8); break;
          case 2: t = t > 0 ? std::max<int64_t>(1, nudge(t, c.flip() ? 1 : -1)) : 3; break;
          default: t = kCombineDim;
        }
      }
      break;
    case 2: {
      static const std::vector<std::vector<int64_t>> kTiles = {{2, 1}, {4, 1}, {8, 1}, {32, 1}, {8, 128},
                                                               {1, 128}, {128}, {2}, {8, 8}};
      std::vector<int64_t> dims = kTiles[static_cast<size_t>(c.in_range(0, static_cast<int64_t>(kTiles.size()) - 1))];
      if (static_cast<int64_t>(dims.size()) > std::max<int64_t>(rank, 1)) dims = {dims.back()};
      const size_t at = static_cast<size_t>(c.in_range(0, static_cast<int64_t>(l.tiles.size())));
      l.tiles.insert(l.tiles.begin() + static_cast<std::ptrdiff_t>(at), Tile{dims});
      break;
    }
    case 3:
      if (!l.tiles.empty())
        l.tiles.erase(l.tiles.begin() + c.in_range(0, static_cast<int64_t>(l.tiles.size()) - 1));
      break;
    case 4:
      if (l.minor_to_major.size() >= 2) {
        if (c.flip()) {
          std::reverse(l.minor_to_major.begin(), l.minor_to_major.end());
        } else {
          const int64_t n = static_cast<int64_t>(l.minor_to_major.size());
          std::swap(l.minor_to_major[static_cast<size_t>(c.in_range(0, n - 1))],
                    l.minor_to_major[static_cast<size_t>(c.in_range(0, n - 1))]);
        }
      }
      break;
    case 5: {
      const std::vector<ElementType>& all = all_element_types();
      shape.type = all[static_cast<size_t>(c.in_range(0, static_cast<int64_t>(all.size()) - 1))];
      break;
    }
    case 6:
      if (c.flip() && l.element_size_bits) {
        l.element_size_bits.reset();
      } else {
        l.element_size_bits = one_of(c, {int64_t{1}, int64_t{2}, int64_t{4}, int64_t{8}, int64_t{16}});
      }
      break;
    case 7:
      if (c.flip() && rank > 0 && l.minor_to_major.size() == shape.dims.size()) {
        // Drop dim 0 (the most major by number); renumber the order.
        shape.dims.erase(shape.dims.begin());
        std::vector<int64_t> order;
        for (const int64_t d : l.minor_to_major)
          if (d != 0) order.push_back(d - 1);
        l.minor_to_major = order;
        shape.dynamic_dims.clear();
      } else if (rank < 6 && l.minor_to_major.size() == shape.dims.size()) {
        // A new dim 0, most major.
        shape.dims.insert(shape.dims.begin(), c.in_range(0, 3));
        for (int64_t& d : l.minor_to_major) ++d;
        l.minor_to_major.push_back(0);
        shape.dynamic_dims.clear();
      }
      break;
    default:
      if (l.tail_padding_alignment && c.flip()) {
        l.tail_padding_alignment.reset();
      } else {
        l.tail_padding_alignment = one_of(c, {int64_t{2}, int64_t{3}, int64_t{64}, int64_t{128}, int64_t{1024}});
      }
  }
  return shape;
}

// The first layout of an input in the fuzz targets' format (the last byte is
// the mode; TEXT: XLA text at the front, ended by a backslash and a byte;
// else the layout drawn from choices off the end), and where it lies: the
// bytes [front, back) are what the rest of the input's reading starts from.
struct DecodedLayout {
  ShapeWithLayout layout;
  size_t front = 0;  // bytes the layout took off the front
  size_t back = 0;   // bytes the mode and the layout took off the end
  uint8_t mode = 0;
};

// Decodes the input's first layout: TEXT mode (low bit 1) parses the text
// (nullopt when it does not parse); otherwise `draw(choices)` makes it, as
// the reader of the input does (nullopt: `draw` declined, e.g. the target's
// KERNEL mode, which is left to byte-level mutation).
template <class Draw>
std::optional<DecodedLayout> decode_first_layout(const uint8_t* data, size_t size, Draw draw) {
  if (size == 0) return std::nullopt;
  FuzzedDataProvider input(data, size);
  FuzzedChoices<FuzzedDataProvider> choices(input);
  DecodedLayout d;
  d.mode = input.ConsumeIntegral<uint8_t>();
  std::optional<ShapeWithLayout> layout;
  if (d.mode & 1) {
    layout = consume_layout_text(input);
    if (!layout) return std::nullopt;
    d.back = 1;
    d.front = size - input.remaining_bytes() - 1;
  } else {
    layout = draw(d.mode, choices);
    if (!layout) return std::nullopt;
    d.back = size - input.remaining_bytes();
  }
  d.layout = *layout;
  return d;
}

// The input with its first layout replaced by `layout`, in TEXT mode: the
// text, a backslash and a newline, the bytes the rest of the reading used
// (unchanged), and the mode byte with its low bit set. Empty when it would
// exceed `max_size`.
inline std::vector<uint8_t> encode_first_layout(const uint8_t* data, const DecodedLayout& d,
                                                const ShapeWithLayout& layout, size_t size, size_t max_size) {
  const std::string text = print_shape(layout);
  const size_t middle = size - d.front - d.back;
  std::vector<uint8_t> out;
  if (text.size() + 2 + middle + 1 > max_size) return out;
  out.reserve(text.size() + 3 + middle);
  out.insert(out.end(), text.begin(), text.end());
  out.push_back('\\');
  out.push_back('\n');
  out.insert(out.end(), data + d.front, data + d.front + middle);
  out.push_back(static_cast<uint8_t>(d.mode | 1));
  return out;
}

// One structure-aware mutation of the input in place (libFuzzer's
// LLVMFuzzerCustomMutator contract: returns the new size, at most
// max_size): its first layout decoded (`draw` as for decode_first_layout),
// changed by mutate_layout, `accept`ed (e.g. "a layout of the family") and
// re-encoded; when any step fails, or one time in `byte_share` (the rest of
// the input is data the layout does not describe), `bytes(data, size,
// max_size)` -- libFuzzer's LLVMFuzzerMutate -- does it instead.
template <class Draw, class Accept, class Bytes>
size_t mutate_input(uint8_t* data, size_t size, size_t max_size, unsigned seed, Draw draw, Accept accept,
                    Bytes bytes, MutationScope scope = {}, int byte_share = 2) {
  SeededChoices c(seed);
  if (structure_mutation_enabled() && size > 0 && c.in_range(0, byte_share - 1) != 0) {
    if (const std::optional<DecodedLayout> d = decode_first_layout(data, size, draw)) {
      for (int attempt = 0; attempt < 4; ++attempt) {
        const ShapeWithLayout mutated = mutate_layout(d->layout, c, scope);
        if (mutated == d->layout || !accept(mutated)) continue;
        const std::vector<uint8_t> out = encode_first_layout(data, *d, mutated, size, max_size);
        if (out.empty()) break;
        std::memcpy(data, out.data(), out.size());
        return out.size();
      }
    }
  }
  return bytes(data, size, max_size);
}

}  // namespace tilecheck::gen
