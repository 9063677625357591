// A fuzz harness over a layout family, as a user writes one with
// <tilecheck/testing/fuzz.h>: a hand-written pack of
// u8[R,C]{1,0:T(32,128)(4,1)} (testing/hand_written.h), or with UNPACK
// defined its unpack, over the family of every R and C, so that every input
// reaches it. Built correct, and with TILE_ORDER defined broken: the tiles
// walked down each column of tiles first. fuzz_random_driver.cc runs it on
// random inputs; under libFuzzer it is a fuzz target as it is.
#include <cstdint>
#include <span>
#include <vector>

#include "testing/hand_written.h"
#include <tilecheck/testing/fuzz.h>

#ifdef TILE_ORDER
constexpr bool kTilesColumnMajor = true;
#else
constexpr bool kTilesColumnMajor = false;
#endif

namespace {

using tilecheck::testing::example::pack_tiled;
using tilecheck::testing::example::tiled_position;

#ifndef UNPACK
std::vector<uint8_t> pack_u8(const tilecheck::ShapeWithLayout& s, std::span<const uint8_t> dense) {
  return pack_tiled(std::vector<uint8_t>(dense.begin(), dense.end()), static_cast<int>(s.dims[0]),
                    static_cast<int>(s.dims[1]), 32, 4, kTilesColumnMajor);
}
#else
std::vector<uint8_t> unpack_u8(const tilecheck::ShapeWithLayout& s, std::span<const uint8_t> packed) {
  const int rows = static_cast<int>(s.dims[0]), cols = static_cast<int>(s.dims[1]);
  std::vector<uint8_t> dense(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) dense[r * cols + c] = packed[tiled_position(r, c, rows, cols, 32, 4, kTilesColumnMajor)];
  }
  return dense;
}
#endif

}  // namespace

#ifdef UNPACK
TILECHECK_FUZZ_UNPACK(unpack_u8, tilecheck::testing::every_layout,
                      tilecheck::testing::family("u8[?,?]{1,0:T(32,128)(4,1)}"))
#else
TILECHECK_FUZZ_PACK(pack_u8, tilecheck::testing::every_layout, tilecheck::testing::family("u8[?,?]{1,0:T(32,128)(4,1)}"))
#endif
