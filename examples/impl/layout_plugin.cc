// An implementation under test for `tilecheck gate --impl`: tiled linear
// index, byte size and pack behind the C interface of tilecheck/conformance_plugin.h.
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
// Compiled three ways (examples/impl/CMakeLists.txt):
//   (none)                                   correct
//   TILECHECK_EXAMPLE_BUG_FIRST_TILE_SIZE    byte size from the first tile
//       only, as XLA's ShapeUtil::ArraySize computes it: wrong whenever a
//       later tile adds padding
//   TILECHECK_EXAMPLE_BUG_ABORT_ON_TWO_LEVELS  linear_index aborts on layouts
//       with two or more tile levels, and never returns for a dim of 999983:
//       the runner must survive both
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

#include <tilecheck/conformance_plugin.h>
#include <tilecheck/spec/syntax.h>

#define TILECHECK_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using tilecheck::ShapeWithLayout;

// Thrown on int64 overflow; the C functions turn it into "not supported".
struct Overflow {};

int64_t times(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Overflow{};
  return r;
}
int64_t plus(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw Overflow{};
  return r;
}

// Bounds and one element's index at some level of tiling.
struct Placement {
  std::vector<int64_t> bounds, index;
};

void apply_tile(const std::vector<int64_t>& tile, Placement& p) {
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
  next.bounds.assign(p.bounds.begin(), p.bounds.begin() + base);
  next.index.assign(p.index.begin(), p.index.begin() + base);
  next.bounds.insert(next.bounds.end(), outer_bounds.rbegin(), outer_bounds.rend());
  next.bounds.insert(next.bounds.end(), inner_bounds.rbegin(), inner_bounds.rend());
  next.index.insert(next.index.end(), outer_index.rbegin(), outer_index.rend());
  next.index.insert(next.index.end(), inner_index.rbegin(), inner_index.rend());
  p = std::move(next);
}

// The placement after the first `levels` tiles of the layout; `element` is
// logical (nullptr: all zeros, when only the bounds matter).
Placement place(const ShapeWithLayout& s, const int64_t* element, size_t levels) {
  Placement p;
  const size_t rank = s.dims.size();
  for (size_t j = 0; j < rank; ++j) {  // D1: most major physical dim first
    const int64_t logical = s.layout.minor_to_major[rank - 1 - j];
    p.bounds.push_back(s.dims[logical]);
    p.index.push_back(element ? element[logical] : 0);
  }
  for (size_t k = 0; k < levels && k < s.layout.tiles.size(); ++k)
    apply_tile(s.layout.tiles[k].dims, p);
  return p;
}

int64_t row_major(const Placement& p) {
  int64_t position = 0;
  for (size_t j = 0; j < p.bounds.size(); ++j)
    position = plus(times(position, p.bounds[j]), p.index[j]);
  return position;
}

int64_t byte_size_of(const ShapeWithLayout& s) {
#ifdef TILECHECK_EXAMPLE_BUG_FIRST_TILE_SIZE
  const Placement p = place(s, nullptr, 1);
#else
  const Placement p = place(s, nullptr, s.layout.tiles.size());
#endif
  int64_t count = 1;
  for (int64_t b : p.bounds) count = times(count, b);
  if (s.layout.tail_padding_alignment) {
    const int64_t a = *s.layout.tail_padding_alignment;
    count = times(count / a + (count % a != 0), a);
  }
  const __int128 bits = static_cast<__int128>(count) * s.element_bits();
  const __int128 bytes = (bits + 7) / 8;
  if (bytes > INT64_MAX) throw Overflow{};
  return static_cast<int64_t>(bytes);
}

// Runs `body` and maps every failure to a nonzero return: nothing may leave
// a C function as an exception.
template <class Body>
int guarded(Body body) {
  try {
    return body();
  } catch (...) {
    return 1;
  }
}

}  // namespace

TILECHECK_EXPORT int tilecheck_impl_linear_index(const char* shape_with_layout, int64_t rank,
                                                 const int64_t* element, int64_t* linear_index) {
  return guarded([&] {
    const ShapeWithLayout s = tilecheck::parse_shape(shape_with_layout);
    if (rank != s.rank()) return 2;
#ifdef TILECHECK_EXAMPLE_BUG_ABORT_ON_TWO_LEVELS
    if (s.layout.tiles.size() >= 2) std::abort();
    for (int64_t d : s.dims) {
      while (d == 999983) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
#endif
    *linear_index = row_major(place(s, element, s.layout.tiles.size()));
    return 0;
  });
}

TILECHECK_EXPORT int tilecheck_impl_byte_size(const char* shape_with_layout, int64_t* bytes) {
  return guarded([&] {
    *bytes = byte_size_of(tilecheck::parse_shape(shape_with_layout));
    return 0;
  });
}

TILECHECK_EXPORT int tilecheck_impl_pack(const char* shape_with_layout, const void* src,
                                         size_t src_bytes, void* dst, size_t dst_bytes) {
  return guarded([&] {
    const ShapeWithLayout s = tilecheck::parse_shape(shape_with_layout);
    const int64_t bits = s.element_bits(), element_bytes = (bits + 7) / 8;
    int64_t count = 1;
    for (int64_t d : s.dims) count = times(count, d);
    if (static_cast<int64_t>(src_bytes) != times(count, element_bytes) ||
        static_cast<int64_t>(dst_bytes) != byte_size_of(s)) {
      return 2;
    }
    const auto* in = static_cast<const uint8_t*>(src);
    auto* out = static_cast<uint8_t*>(dst);
    std::memset(out, 0, dst_bytes);  // padding is zero (D8)
    std::vector<int64_t> element(s.dims.size(), 0);
    for (int64_t i = 0; i < count; ++i) {  // dense order: row-major
      const int64_t position = row_major(place(s, element.data(), s.layout.tiles.size()));
      const uint8_t* value = in + i * element_bytes;
      if (bits % 8 == 0) {
        std::memcpy(out + position * element_bytes, value, static_cast<size_t>(element_bytes));
      } else {
        for (int64_t b = 0; b < bits; ++b) {  // bit b of the value -> bit position*bits + b
          const int64_t at = position * bits + b;
          out[at / 8] |= static_cast<uint8_t>(((value[b / 8] >> (b % 8)) & 1) << (at % 8));
        }
      }
      for (size_t d = element.size(); d-- > 0;) {  // the next element, row-major
        if (++element[d] < s.dims[d]) break;
        element[d] = 0;
      }
    }
    return 0;
  });
}
