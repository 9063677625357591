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

#include <algorithm>
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
#include <utility>
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
  kCombineLogical,       // a '*' merges logically adjacent dims: layouts with '*' read as row-major
  kOddNibbleTail,        // 4-bit: a half-filled final byte holds its element in the high nibble
  kIndex32,              // linear_index computed in 32 bits (wraps past 2^31 positions)
  kFloatArithmetic,      // pack moves f32 and bf16 values through float arithmetic (v + 0.0f)
  kStaleCache,           // byte sizes cached by dims and element type, not the whole layout
  kReusedBuffer,         // pack writes into the previous pack's buffer, padding not zeroed again
  kIndexFloat,           // linear_index accumulated in a double (exact below 2^53)
  kDim32,                // linear_index with each dim and coordinate in 32 bits
  kBitsOverflow,         // byte size counted in bits in an int64_t (wraps past 2^63 bits)
  kTile32,               // linear_index with a tile's number in its grid in 32 bits
  kRankLimit,            // ranks past 6 folded: the leading dims merged as if in the default order
  // Data movement at size: each is right on every array of up to 65,536 elements.
  kChunkedPack,          // pack in chunks of 65,536 dense elements: a byte two chunks share keeps the later's bits only
  kCounter16,            // pack and unpack count dense elements in a uint16_t: past 65,536 the source wraps to its start
  kThreadShares,         // pack of 65,536 elements or more in 4 thread shares of dense elements rounded up to a
                         // multiple of 8 (whole bytes in row-major order): a byte two shares meet in keeps one share's bits
  kStaging1MiB,          // pack and unpack through a staging buffer of 1 MiB: physical bytes past it are dropped
};

inline const std::map<std::string_view, Bug>& bug_names() {
  static const std::map<std::string_view, Bug> names = {
      {"nibble_order", Bug::kNibbleOrder},
      {"first_tile_size", Bug::kFirstTileSize},
      {"ignore_minor_to_major", Bug::kIgnoreMinorToMajor},
      {"nonzero_padding", Bug::kNonzeroPadding},
      {"delinearize_off_by_one", Bug::kDelinearizeOffByOne},
      {"abort_on_two_levels", Bug::kAbortOnTwoLevels},
      {"combine_logical", Bug::kCombineLogical},
      {"odd_nibble_tail", Bug::kOddNibbleTail},
      {"index_32bit", Bug::kIndex32},
      {"float_arithmetic", Bug::kFloatArithmetic},
      {"stale_cache", Bug::kStaleCache},
      {"reused_buffer", Bug::kReusedBuffer},
      {"index_float", Bug::kIndexFloat},
      {"dim_32bit", Bug::kDim32},
      {"bits_overflow", Bug::kBitsOverflow},
      {"tile_32bit", Bug::kTile32},
      {"rank_limit", Bug::kRankLimit},
      {"chunked_pack", Bug::kChunkedPack},
      {"counter_16bit", Bug::kCounter16},
      {"thread_shares", Bug::kThreadShares},
      {"staging_1mib", Bug::kStaging1MiB}};
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
    if (bug_ == Bug::kIndexFloat || bug_ == Bug::kTile32) return narrow_index(s, element);
    if (bug_ == Bug::kDim32) {  // each dim and coordinate as an int would hold it
      ShapeWithLayout narrow = s;
      std::vector<int64_t> e(element, element + s.dims.size());
      for (int64_t& d : narrow.dims) d = int32(d);
      for (int64_t& c : e) c = int32(c);
      return index_of(narrow, e.data());
    }
    const int64_t index = index_of(s, element);
    // int32_t arithmetic, as a 32-bit size_t or int would do it.
    if (bug_ == Bug::kIndex32) return int32(index);
    return index;
  }

  int64_t byte_size(const ShapeWithLayout& s) const {
    const int64_t size = bug_ == Bug::kFirstTileSize ? bytes_of(s, padded_count(s, 1)) : exact_byte_size(s);
    if (bug_ == Bug::kStaleCache) return size_cache_.emplace(std::make_pair(s.dims, s.type), size).first->second;
    return size;
  }


 private:
  int64_t exact_byte_size(const ShapeWithLayout& s) const {
    return bytes_of(s, padded_count(s, s.layout.tiles.size()));
  }
  int64_t bytes_of(const ShapeWithLayout& s, int64_t count) const {
    if (bug_ == Bug::kBitsOverflow) {  // the bits in an int64_t: wraps past 2^63
      const auto bits = static_cast<int64_t>(static_cast<uint64_t>(count) * static_cast<uint64_t>(s.element_bits()));
      return bits / 8 + (bits % 8 != 0);
    }
    const __int128 bits = static_cast<__int128>(count) * s.element_bits();
    const __int128 bytes = (bits + 7) / 8;
    if (bytes > INT64_MAX) throw Unsupported("byte size past int64");
    return static_cast<int64_t>(bytes);
  }

 public:

  // The element stored at `position`, or nullopt for padding: the tiling
  // undone level by level (no table of positions, so shapes of any size).
  std::optional<std::vector<int64_t>> delinearize(const ShapeWithLayout& s, int64_t position) const {
    const size_t levels = s.layout.tiles.size();
    if (position < 0 || position >= padded_count(s, levels)) {
      throw Unsupported("position past the padded element count");
    }
    // The bounds before each level (bounds[k]: after the first k tiles).
    std::vector<std::vector<int64_t>> bounds;
    Placement p = place(s, nullptr, 0);
    bounds.push_back(p.bounds);
    for (size_t k = 0; k < levels; ++k) {
      apply_tile(s.layout.tiles[k].dims, p);
      bounds.push_back(p.bounds);
    }
    // The final index: `position` in mixed radix over the final bounds; past
    // their product lies L(n) tail padding.
    std::vector<int64_t> index(p.bounds.size());
    int64_t rest = position;
    for (size_t j = p.bounds.size(); j-- > 0;) {
      index[j] = rest % p.bounds[j];
      rest /= p.bounds[j];
    }
    if (rest != 0) return std::nullopt;
    for (size_t k = levels; k-- > 0;) {
      std::optional<std::vector<int64_t>> before = untile(s.layout.tiles[k].dims, bounds[k], index);
      if (!before) return std::nullopt;
      index = std::move(*before);
    }
    std::vector<int64_t> element(s.dims.size());
    const size_t rank = s.dims.size();
    for (size_t j = 0; j < rank; ++j) {
      const int64_t logical = bug_ == Bug::kIgnoreMinorToMajor || combines_logically(s)
                                  ? static_cast<int64_t>(j)
                                  : s.layout.minor_to_major[rank - 1 - j];
      element[static_cast<size_t>(logical)] = index[j];
    }
    if (bug_ == Bug::kDelinearizeOffByOne && !element.empty() && !s.layout.tiles.empty()) {
      const int64_t last = s.dims.back(), tile = s.layout.tiles.front().dims.back();
      if (tile > 0 && last % tile != 0 && element.back() == last - 1) return std::nullopt;
    }
    return element;
  }

  std::vector<uint8_t> pack(const ShapeWithLayout& s, const uint8_t* dense_in, size_t dense_bytes) const {
    require_bytes(dense_bytes, dense_size(s));
    const uint8_t* dense = dense_in;
    std::vector<uint8_t> converted;
    if (bug_ == Bug::kFloatArithmetic) dense = (converted = through_float(s, dense_in, dense_bytes)).data();
    std::vector<uint8_t> out(static_cast<size_t>(exact_byte_size(s)),
                             bug_ == Bug::kNonzeroPadding ? 0xff : 0);
    if (bug_ == Bug::kReusedBuffer) {  // the previous pack's bytes where this one writes none
      if (last_pack_.size() < out.size()) last_pack_.resize(out.size());
      std::copy(last_pack_.begin(), last_pack_.begin() + static_cast<ptrdiff_t>(out.size()), out.begin());
    }
    const std::vector<int64_t> shares = share_starts(s);
    if (shares.size() > 2) {
      pack_in_shares(s, dense, shares, out);
    } else {
      pack_elements(s, dense, 0, element_count(s), out);
    }
    if (bug_ == Bug::kStaging1MiB && out.size() > kStagingBytes) {  // the staged first MiB, copied out
      std::fill(out.begin() + static_cast<ptrdiff_t>(kStagingBytes), out.end(), uint8_t{0});
    }
    require_bytes(out.size(), byte_size(s));  // what it says the size is
    if (bug_ == Bug::kReusedBuffer) std::copy(out.begin(), out.end(), last_pack_.begin());
    return out;
  }

  static constexpr size_t kStagingBytes = size_t{1} << 20;  // Bug::kStaging1MiB

  // Dense elements [first, last) packed into `out`, each bit set or
  // cleared; `wrote`, when given, marks each byte written.
  void pack_elements(const ShapeWithLayout& s, const uint8_t* dense, int64_t first, int64_t last,
                     std::vector<uint8_t>& out, std::vector<bool>* wrote = nullptr) const {
    const int64_t bits = s.element_bits(), width = (bits + 7) / 8;
    for_each_element(s, first, last, [&](int64_t i, int64_t position) {
      const int64_t start = bit_of(s, position, 0);
      if (bits % 8 == 0 && start % 8 == 0) {  // whole bytes: copied
        std::memcpy(&out[static_cast<size_t>(start / 8)], dense + i * width, static_cast<size_t>(width));
        if (wrote) std::fill_n(wrote->begin() + start / 8, width, true);
        return;
      }
      for (int64_t b = 0; b < bits; ++b) {  // bit b of the value -> its bit in the buffer
        const int64_t at = bit_of(s, position, b);
        if (wrote) (*wrote)[static_cast<size_t>(at / 8)] = true;
        const bool one = (dense[i * width + b / 8] >> (b % 8)) & 1;
        out[at / 8] = static_cast<uint8_t>(one ? out[at / 8] | (1u << (at % 8))
                                               : out[at / 8] & ~(1u << (at % 8)));
      }
    });
  }

  // Where the dense elements are split to be packed apart: {0, count}, or
  // the starts of the chunks (Bug::kChunkedPack) or thread shares
  // (Bug::kThreadShares) and the count.
  std::vector<int64_t> share_starts(const ShapeWithLayout& s) const {
    const int64_t count = element_count(s);
    std::vector<int64_t> starts = {0};
    int64_t step = count;
    if (bug_ == Bug::kChunkedPack) step = int64_t{1} << 16;
    if (bug_ == Bug::kThreadShares && count >= (int64_t{1} << 16)) step = ((count + 3) / 4 + 7) / 8 * 8;
    for (int64_t at = step; at < count; at += step) starts.push_back(at);
    starts.push_back(count);
    return starts;
  }

  // Each share packed into a zeroed buffer of its own (a thread each), then
  // the bytes it wrote copied into `out`, share after share: where two
  // shares write one byte, the later share's copy holds only its own bits.
  void pack_in_shares(const ShapeWithLayout& s, const uint8_t* dense, const std::vector<int64_t>& starts,
                      std::vector<uint8_t>& out) const {
    const size_t n = starts.size() - 1;
    std::vector<std::vector<uint8_t>> parts(n, std::vector<uint8_t>(out.size(), 0));
    std::vector<std::vector<bool>> wrote(n, std::vector<bool>(out.size(), false));
    const auto pack_share = [&](size_t k) { pack_elements(s, dense, starts[k], starts[k + 1], parts[k], &wrote[k]); };
    if (bug_ == Bug::kThreadShares) {
      std::vector<std::thread> threads;
      for (size_t k = 0; k < n; ++k) threads.emplace_back(pack_share, k);
      for (std::thread& t : threads) t.join();
    } else {
      for (size_t k = 0; k < n; ++k) pack_share(k);
    }
    for (size_t k = 0; k < n; ++k) {
      for (size_t j = 0; j < out.size(); ++j) {
        if (wrote[k][j]) out[j] = parts[k][j];
      }
    }
  }

  // Bug::kFloatArithmetic: each f32 or bf16 value as `v + 0.0f` computes it
  // (signalling NaNs come out quiet, -0 as +0); other types unchanged.
  static std::vector<uint8_t> through_float(const ShapeWithLayout& s, const uint8_t* dense, size_t bytes) {
    std::vector<uint8_t> out(dense, dense + bytes);
    const bool f32 = s.type == tilecheck::ElementType::kF32, bf16 = s.type == tilecheck::ElementType::kBF16;
    if ((!f32 && !bf16) || s.element_bits() != (f32 ? 32 : 16)) return out;
    const size_t width = f32 ? 4 : 2;
    for (size_t i = 0; i + width <= bytes; i += width) {
      uint32_t bits = 0;
      std::memcpy(reinterpret_cast<uint8_t*>(&bits) + (f32 ? 0 : 2), &out[i], width);
      float v;
      std::memcpy(&v, &bits, 4);
      volatile float zero = 0.0f;  // not folded away
      v = v + zero;
      std::memcpy(&bits, &v, 4);
      std::memcpy(&out[i], reinterpret_cast<const uint8_t*>(&bits) + (f32 ? 0 : 2), width);
    }
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
    std::vector<uint8_t> staged;
    if (bug_ == Bug::kStaging1MiB && physical_bytes > kStagingBytes) {  // the first MiB staged, the rest zero
      staged.assign(physical, physical + kStagingBytes);
      staged.resize(physical_bytes, 0);
      physical = staged.data();
    }
    for_each_element(s, 0, element_count(s), [&](int64_t i, int64_t position) {
      const int64_t start = bit_of(s, position, 0);
      if (bits % 8 == 0 && start % 8 == 0) {  // whole bytes: copied
        std::memcpy(&dense[static_cast<size_t>(i * width)], physical + start / 8, static_cast<size_t>(width));
        return;
      }
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
  // One tiling level undone: `index` is after tile `tile` over `bounds`
  // (the bounds before it); the index before it, or nullopt where a group's
  // index is past its bound (padding).
  static std::optional<std::vector<int64_t>> untile(const std::vector<int64_t>& tile, std::vector<int64_t> bounds,
                                                    const std::vector<int64_t>& index) {
    size_t extended = 0;
    while (bounds.size() < tile.size()) bounds.insert(bounds.begin(), 1), ++extended;  // D3
    const size_t base = bounds.size() - tile.size();
    size_t groups = 0;
    for (int64_t t : tile) groups += t != tilecheck::kCombineDim;
    std::vector<int64_t> before(index.begin(), index.begin() + static_cast<ptrdiff_t>(base));
    before.resize(bounds.size());
    size_t g = groups;  // the group being undone, from the minor end
    for (size_t j = tile.size(); j-- > 0;) {
      --g;
      const int64_t t = tile[j];
      size_t first = j;
      int64_t bound = bounds[base + j];
      while (first > 0 && tile[first - 1] == tilecheck::kCombineDim) bound = times(bound, bounds[base + --first]);
      int64_t merged = plus(times(index[base + g], t), index[base + groups + g]);
      if (merged >= bound) return std::nullopt;
      for (size_t d = j + 1; d-- > first;) {  // the group's dims, minor first
        before[base + d] = merged % bounds[base + d];
        merged /= bounds[base + d];
      }
      j = first;
    }
    before.erase(before.begin(), before.begin() + static_cast<ptrdiff_t>(extended));
    return before;
  }

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
      const int64_t logical = bug_ == Bug::kIgnoreMinorToMajor || combines_logically(s)
                                  ? static_cast<int64_t>(j)
                                  : s.layout.minor_to_major[rank - 1 - j];
      p.bounds.push_back(s.dims[static_cast<size_t>(logical)]);
      p.index.push_back(element ? element[logical] : 0);
    }
    for (size_t k = 0; k < levels && k < s.layout.tiles.size(); ++k)
      apply_tile(s.layout.tiles[k].dims, p);
    return p;
  }

  // Bug::kCombineLogical on a layout with a '*': it merges the logically
  // adjacent dims, as if the dims were in row-major physical order.
  bool combines_logically(const ShapeWithLayout& s) const { return bug_ == Bug::kCombineLogical && combines(s); }

  // The linear index; every other operation places elements with it.
  int64_t index_of(const ShapeWithLayout& s, const int64_t* element) const {
    if (bug_ == Bug::kRankLimit && s.dims.size() > 6) {
      // The leading dims merged into one, their coordinates row-major, and
      // minor_to_major renumbered as if they were adjacent in it.
      const size_t k = s.dims.size() - 6;
      ShapeWithLayout folded = s;
      folded.dims.erase(folded.dims.begin() + 1, folded.dims.begin() + static_cast<ptrdiff_t>(k) + 1);
      std::vector<int64_t> e(element + k, element + s.dims.size());
      e[0] = 0;
      for (size_t d = 0; d <= k; ++d) {
        if (d > 0) folded.dims[0] = times(folded.dims[0], s.dims[d]);
        e[0] = plus(times(e[0], s.dims[d]), element[d]);
      }
      folded.layout.minor_to_major.clear();
      for (int64_t d : s.layout.minor_to_major) {
        if (d == 0 || d > static_cast<int64_t>(k)) folded.layout.minor_to_major.push_back(d == 0 ? 0 : d - static_cast<int64_t>(k));
      }
      return row_major(place(folded, e.data(), s.layout.tiles.size()));
    }
    return row_major(place(s, element, s.layout.tiles.size()));
  }

  static int64_t row_major(const Placement& p, size_t from = 0, size_t to = SIZE_MAX) {
    int64_t position = 0;
    for (size_t j = from; j < p.bounds.size() && j < to; ++j)
      position = plus(times(position, p.bounds[j]), p.index[j]);
    return position;
  }

  static int64_t int32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

  // Bug::kIndexFloat: the row-major sum in a double. Bug::kTile32: the
  // first level's tile number (its grid's dims) in 32 bits, times the
  // tile's positions, plus the offset in it.
  int64_t narrow_index(const ShapeWithLayout& s, const int64_t* element) const {
    const Placement p = place(s, element, s.layout.tiles.size());
    if (bug_ == Bug::kIndexFloat) {
      double position = 0;
      for (size_t j = 0; j < p.bounds.size(); ++j)
        position = position * static_cast<double>(p.bounds[j]) + static_cast<double>(p.index[j]);
      return static_cast<int64_t>(position);
    }
    if (s.layout.tiles.empty()) return row_major(p);
    const std::vector<int64_t>& first = s.layout.tiles.front().dims;
    const size_t grid = place(s, nullptr, 1).bounds.size() -
                        static_cast<size_t>(std::count_if(first.begin(), first.end(), [](int64_t t) {
                          return t != tilecheck::kCombineDim;
                        }));
    int64_t size = 1;
    for (size_t j = grid; j < p.bounds.size(); ++j) size = times(size, p.bounds[j]);
    return plus(times(int32(row_major(p, 0, grid)), size), row_major(p, grid));
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
    // The last byte half filled (an odd count of 4-bit positions): its
    // element written to the high half.
    if (bug_ == Bug::kOddNibbleTail && bits == 4) {
      const int64_t padded = padded_count(s, s.layout.tiles.size());
      if (padded % 2 == 1 && position == padded - 1) at += 4;
    }
    return at;
  }

  // body(i, position) for the elements i = first .. last - 1, counting
  // them row-major (Bug::kCounter16: i in a uint16_t). Without a '*' each
  // dim's coordinate is tiled on its own, so a position is a sum of one term
  // per dim, the position of the element with that coordinate and zeros
  // elsewhere: a table of terms per dim, and one addition per element.
  // Otherwise (and past 2^31 positions, where the narrow-arithmetic bugs
  // part from the sum) each element is indexed on its own.
  template <class Body>
  void for_each_element(const ShapeWithLayout& s, int64_t first, int64_t last, Body body) const {
    if (first >= last) return;
    const size_t rank = s.dims.size();
    std::vector<int64_t> element(rank, 0);
    for (size_t d = rank, rest = static_cast<size_t>(first); d-- > 0;) {
      element[d] = static_cast<int64_t>(rest % static_cast<size_t>(s.dims[d]));
      rest /= static_cast<size_t>(s.dims[d]);
    }
    const bool separable = !combines(s) && !(bug_ == Bug::kRankLimit && rank > 6) &&
                           padded_count(s, s.layout.tiles.size()) < (int64_t{1} << 31);
    std::vector<std::vector<int64_t>> terms(separable ? rank : 0);
    int64_t position = 0;
    for (size_t d = 0; d < terms.size(); ++d) {
      std::vector<int64_t> unit(rank, 0);
      for (int64_t x = 0; x < s.dims[d]; ++x) {
        unit[d] = x;
        terms[d].push_back(index_of(s, unit.data()));
      }
      position += terms[d][static_cast<size_t>(element[d])];
    }
    for (int64_t i = first; i < last; ++i) {
      body(bug_ == Bug::kCounter16 ? static_cast<int64_t>(static_cast<uint16_t>(i)) : i,
           separable ? position : index_of(s, element.data()));
      for (size_t d = rank; d-- > 0;) {  // the next element, row-major
        const int64_t before = element[d];
        const bool carry = ++element[d] == s.dims[d];
        if (carry) element[d] = 0;
        if (separable) position += terms[d][static_cast<size_t>(element[d])] - terms[d][static_cast<size_t>(before)];
        if (!carry) break;
      }
    }
  }

  static bool combines(const ShapeWithLayout& s) {
    return std::any_of(s.layout.tiles.begin(), s.layout.tiles.end(), [](const tilecheck::Tile& t) {
      return std::find(t.dims.begin(), t.dims.end(), tilecheck::kCombineDim) != t.dims.end();
    });
  }

  Bug bug_;
  // State kept between requests, by the two stateful bugs only.
  mutable std::map<std::pair<std::vector<int64_t>, tilecheck::ElementType>, int64_t> size_cache_;
  mutable std::vector<uint8_t> last_pack_;
};

}  // namespace tilecheck_example
