// An implementation of XLA tiled layouts to be checked by tilecheck's gate:
// linear index, delinearize, byte size, pack, unpack and relayout. Two front
// ends serve it: a shared library with the C interface of
// tilecheck/conformance_plugin.h (layout_plugin.cc, `gate --impl`) and a
// program speaking the JSON Lines protocol of docs/PROTOCOL.md
// (layout_impl_cmd.cc, `gate --impl-cmd`).
//
// It reads the layout text with tilecheck's parser (the data model only) and
// computes everything itself, written apart from spec/ and impl/ so that the
// gate compares two independent readings of the document:
//
//   One tiling level with tile t = (t_1..t_k) over bounds d and index e (after
//   extending both with leading 1s / 0s to at least k dims, D3), walked from
//   the minor end: each entry t_j that is not '*' opens a group of dims
//   j-m..j whose entries j-m..j-1 are '*' (D4). The group's bound is the
//   product of its dims, its index the mixed-radix number of its coordinates;
//   it becomes an outer dim ceil(bound/t_j) with index floor(index/t_j) and an
//   inner dim t_j with index index mod t_j. The new shape is (untouched
//   prefix, outer dims, inner dims) (D2). The linear index is row-major in the
//   final shape (D5), after permuting into physical order (D1).
//
// `Bug` makes it wrong on purpose, to show what the gate catches.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck_example {

using tilecheck::ShapeWithLayout;

enum class Bug {
  kNone,
  kNibbleOrder,          // 4-bit values packed and unpacked high nibble first
  kFirstTileSize,        // byte size from the first tile only (XLA's ArraySize)
  kIgnoreMinorToMajor,   // every layout treated as row-major
  kNonzeroPadding,       // padding filled with 0xff instead of zeros
  kDelinearizeOffByOne,  // the last element of a ragged row taken for padding
  kAbortOnTwoLevels,     // linear_index aborts on two tile levels, hangs on a dim of 999983
};

inline const std::map<std::string_view, Bug>& bug_names() {
  static const std::map<std::string_view, Bug> names = {
      {"nibble_order", Bug::kNibbleOrder},
      {"first_tile_size", Bug::kFirstTileSize},
      {"ignore_minor_to_major", Bug::kIgnoreMinorToMajor},
      {"nonzero_padding", Bug::kNonzeroPadding},
      {"delinearize_off_by_one", Bug::kDelinearizeOffByOne},
      {"abort_on_two_levels", Bug::kAbortOnTwoLevels}};
  return names;
}

// Thrown on int64 overflow and on buffers of the wrong size; each front end
// turns it into "not supported" or an error.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline int64_t times(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Unsupported("int64 overflow");
  return r;
}
inline int64_t plus(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw Unsupported("int64 overflow");
  return r;
}

// Bounds and one element's index at some level of tiling.
struct Placement {
  std::vector<int64_t> bounds, index;
};

class ExampleImpl {
 public:
  explicit ExampleImpl(Bug bug = Bug::kNone) : bug_(bug) {}

  int64_t linear_index(const ShapeWithLayout& s, const int64_t* element) const {
    if (bug_ == Bug::kAbortOnTwoLevels) {
      if (s.layout.tiles.size() >= 2) std::abort();
      for (int64_t d : s.dims) {
        while (d == 999983) std::this_thread::sleep_for(std::chrono::seconds(1));
      }
    }
    return index_of(s, element);
  }

  int64_t byte_size(const ShapeWithLayout& s) const {
    return bug_ == Bug::kFirstTileSize ? bytes_of(s, padded_count(s, 1)) : exact_byte_size(s);
  }


 private:
  int64_t exact_byte_size(const ShapeWithLayout& s) const {
    return bytes_of(s, padded_count(s, s.layout.tiles.size()));
  }
  static int64_t bytes_of(const ShapeWithLayout& s, int64_t count) {
    const __int128 bits = static_cast<__int128>(count) * s.element_bits();
    const __int128 bytes = (bits + 7) / 8;
    if (bytes > INT64_MAX) throw Unsupported("byte size past int64");
    return static_cast<int64_t>(bytes);
  }

 public:

  // The element stored at `position`, or nullopt for padding.
  std::optional<std::vector<int64_t>> delinearize(const ShapeWithLayout& s, int64_t position) {
    const std::vector<std::optional<std::vector<int64_t>>>& owner = owners(s);
    if (position < 0 || position >= static_cast<int64_t>(owner.size())) {
      throw Unsupported("position past the padded element count");
    }
    const std::optional<std::vector<int64_t>>& e = owner[static_cast<size_t>(position)];
    if (bug_ == Bug::kDelinearizeOffByOne && e && !e->empty() && !s.layout.tiles.empty()) {
      const int64_t last = s.dims.back(), tile = s.layout.tiles.front().dims.back();
      if (tile > 0 && last % tile != 0 && e->back() == last - 1) return std::nullopt;
    }
    return e;
  }

  std::vector<uint8_t> pack(const ShapeWithLayout& s, const uint8_t* dense, size_t dense_bytes) const {
    require_bytes(dense_bytes, dense_size(s));
    std::vector<uint8_t> out(static_cast<size_t>(exact_byte_size(s)),
                             bug_ == Bug::kNonzeroPadding ? 0xff : 0);
    const int64_t bits = s.element_bits(), width = (bits + 7) / 8;
    for_each_element(s, [&](int64_t i, const std::vector<int64_t>&, int64_t position) {
      for (int64_t b = 0; b < bits; ++b) {  // bit b of the value -> its bit in the buffer
        const int64_t at = bit_of(s, position, b);
        const bool one = (dense[i * width + b / 8] >> (b % 8)) & 1;
        out[at / 8] = static_cast<uint8_t>(one ? out[at / 8] | (1u << (at % 8))
                                               : out[at / 8] & ~(1u << (at % 8)));
      }
    });
    require_bytes(out.size(), byte_size(s));  // what it says the size is
    return out;
  }

  // Dense values in the low bits; above them zeros, or copies of a signed
  // type's top bit (docs/PROTOCOL.md, "Dense buffers").
  std::vector<uint8_t> unpack(const ShapeWithLayout& s, const uint8_t* physical,
                              size_t physical_bytes) const {
    require_bytes(physical_bytes, byte_size(s));
    const int64_t bits = s.element_bits(), width = (bits + 7) / 8;
    const bool is_signed = tilecheck::is_signed_integral(s.type);
    std::vector<uint8_t> dense(static_cast<size_t>(dense_size(s)), 0);
    for_each_element(s, [&](int64_t i, const std::vector<int64_t>&, int64_t position) {
      bool one = false;
      for (int64_t b = 0; b < width * 8; ++b) {
        if (b < bits) {
          const int64_t at = bit_of(s, position, b);
          one = (physical[at / 8] >> (at % 8)) & 1;
        } else if (!is_signed) {
          one = false;  // else: the top bit, repeated
        }
        if (one) dense[i * width + b / 8] |= static_cast<uint8_t>(1u << (b % 8));
      }
    });
    return dense;
  }

  std::vector<uint8_t> relayout(const ShapeWithLayout& from, const ShapeWithLayout& to,
                                const uint8_t* physical, size_t physical_bytes) const {
    if (from.dims != to.dims || from.element_bits() != to.element_bits()) {
      throw Unsupported("relayout between layouts of other dims or element widths");
    }
    const std::vector<uint8_t> dense = unpack(from, physical, physical_bytes);
    return pack(to, dense.data(), dense.size());
  }

 private:
  static void apply_tile(const std::vector<int64_t>& tile, Placement& p) {
    while (p.bounds.size() < tile.size()) {  // D3
      p.bounds.insert(p.bounds.begin(), 1);
      p.index.insert(p.index.begin(), 0);
    }
    const size_t base = p.bounds.size() - tile.size();
    // Collected minor group first; reversed below.
    std::vector<int64_t> outer_bounds, outer_index, inner_bounds, inner_index;
    for (size_t j = tile.size(); j-- > 0;) {
      const int64_t t = tile[j];  // never '*': a '*' run is consumed with its group
      int64_t bound = p.bounds[base + j], index = p.index[base + j];
      while (j > 0 && tile[j - 1] == tilecheck::kCombineDim) {
        --j;
        index = plus(index, times(p.index[base + j], bound));
        bound = times(bound, p.bounds[base + j]);
      }
      outer_bounds.push_back(bound / t + (bound % t != 0));
      outer_index.push_back(index / t);
      inner_bounds.push_back(t);
      inner_index.push_back(index % t);
    }
    Placement next;
    next.bounds.assign(p.bounds.begin(), p.bounds.begin() + static_cast<ptrdiff_t>(base));
    next.index.assign(p.index.begin(), p.index.begin() + static_cast<ptrdiff_t>(base));
    next.bounds.insert(next.bounds.end(), outer_bounds.rbegin(), outer_bounds.rend());
    next.bounds.insert(next.bounds.end(), inner_bounds.rbegin(), inner_bounds.rend());
    next.index.insert(next.index.end(), outer_index.rbegin(), outer_index.rend());
    next.index.insert(next.index.end(), inner_index.rbegin(), inner_index.rend());
    p = std::move(next);
  }

  // The placement after the first `levels` tiles of the layout; `element` is
  // logical (nullptr: all zeros, when only the bounds matter).
  Placement place(const ShapeWithLayout& s, const int64_t* element, size_t levels) const {
    Placement p;
    const size_t rank = s.dims.size();
    for (size_t j = 0; j < rank; ++j) {  // D1: most major physical dim first
      const int64_t logical = bug_ == Bug::kIgnoreMinorToMajor
                                  ? static_cast<int64_t>(j)
                                  : s.layout.minor_to_major[rank - 1 - j];
      p.bounds.push_back(s.dims[static_cast<size_t>(logical)]);
      p.index.push_back(element ? element[logical] : 0);
    }
    for (size_t k = 0; k < levels && k < s.layout.tiles.size(); ++k)
      apply_tile(s.layout.tiles[k].dims, p);
    return p;
  }

  // The linear index; every other operation places elements with it.
  int64_t index_of(const ShapeWithLayout& s, const int64_t* element) const {
    return row_major(place(s, element, s.layout.tiles.size()));
  }

  static int64_t row_major(const Placement& p) {
    int64_t position = 0;
    for (size_t j = 0; j < p.bounds.size(); ++j)
      position = plus(times(position, p.bounds[j]), p.index[j]);
    return position;
  }

  int64_t padded_count(const ShapeWithLayout& s, size_t levels) const {
    const Placement p = place(s, nullptr, levels);
    int64_t count = 1;
    for (int64_t b : p.bounds) count = times(count, b);
    if (s.layout.tail_padding_alignment) {  // L(n)
      const int64_t a = *s.layout.tail_padding_alignment;
      count = times(count / a + (count % a != 0), a);
    }
    return count;
  }

  static int64_t element_count(const ShapeWithLayout& s) {
    int64_t count = 1;
    for (int64_t d : s.dims) count = times(count, d);
    return count;
  }
  static int64_t dense_size(const ShapeWithLayout& s) {
    return times(element_count(s), (s.element_bits() + 7) / 8);
  }
  static void require_bytes(size_t given, int64_t wanted) {
    if (static_cast<int64_t>(given) != wanted) {
      throw Unsupported("a buffer of " + std::to_string(given) + " bytes where " +
                        std::to_string(wanted) + " were expected");
    }
  }

  // Bit b of the element at `position`, in the buffer: position*bits + b (D7).
  int64_t bit_of(const ShapeWithLayout& s, int64_t position, int64_t b) const {
    const int64_t bits = s.element_bits();
    int64_t at = plus(times(position, bits), b);
    if (bug_ == Bug::kNibbleOrder && bits == 4) at ^= 4;  // the other half of the byte
    return at;
  }

  // body(i, element, position) for every element, i counting them row-major.
  template <class Body>
  void for_each_element(const ShapeWithLayout& s, Body body) const {
    const int64_t count = element_count(s);
    std::vector<int64_t> element(s.dims.size(), 0);
    for (int64_t i = 0; i < count; ++i) {
      body(i, element, index_of(s, element.data()));
      for (size_t d = element.size(); d-- > 0;) {  // the next element, row-major
        if (++element[d] < s.dims[d]) break;
        element[d] = 0;
      }
    }
  }

  // Which element every position holds (nullopt: padding), for the last
  // layout asked: built once by placing every element.
  const std::vector<std::optional<std::vector<int64_t>>>& owners(const ShapeWithLayout& s) {
    if (owners_of_ && *owners_of_ == s) return owners_;
    const int64_t padded = padded_count(s, s.layout.tiles.size());
    if (padded > (int64_t{1} << 26)) throw Unsupported("too many positions to delinearize");
    owners_.assign(static_cast<size_t>(padded), std::nullopt);
    for_each_element(s, [&](int64_t, const std::vector<int64_t>& element, int64_t position) {
      owners_[static_cast<size_t>(position)] = element;
    });
    owners_of_ = s;
    return owners_;
  }

  Bug bug_;
  std::optional<ShapeWithLayout> owners_of_;
  std::vector<std::optional<std::vector<int64_t>>> owners_;
};

}  // namespace tilecheck_example
