// Hand-written layout code as a team writes it, correct and with the bugs
// teams write by mistake: what the testing kit's own tests (testing_test.cc,
// fuzz_harness.cc) check with the kit's assertions, generators and
// harnesses. Not part of the kit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilecheck::testing::example {

// bf16[R,C]{1,0:T(8,128)(2,1)}: tiles of 8x128 over the dims padded to
// whole tiles, in row-major order, each as 4x128 sub-tiles of 2x1 (row
// pairs interleaved), padding zero. The position of element (r, c) in the
// physical buffer; `forget_sub_tile` walks each tile row after row instead.
inline size_t bf16_8x128_2x1_position(int r, int c, int cols, bool forget_sub_tile) {
  const int tile = (r / 8) * ((cols + 127) / 128) + c / 128;
  const int tr = r % 8, tc = c % 128;
  return static_cast<size_t>(tile) * 1024 + (forget_sub_tile ? tr * 128 + tc : (tr / 2) * 256 + tc * 2 + tr % 2);
}

// Its pack: each element written to its position.
inline std::vector<uint16_t> pack_bf16_8x128_2x1(const std::vector<uint16_t>& dense, int rows, int cols,
                                                 bool forget_sub_tile = false) {
  std::vector<uint16_t> out(static_cast<size_t>((rows + 7) / 8) * ((cols + 127) / 128) * 1024, 0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) out[bf16_8x128_2x1_position(r, c, cols, forget_sub_tile)] = dense[r * cols + c];
  }
  return out;
}

// Its unpack: each element read back from its position.
inline std::vector<uint16_t> unpack_bf16_8x128_2x1(const std::vector<uint16_t>& packed, int rows, int cols,
                                                   bool forget_sub_tile = false) {
  std::vector<uint16_t> out(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) out[r * cols + c] = packed[bf16_8x128_2x1_position(r, c, cols, forget_sub_tile)];
  }
  return out;
}

// A tiled 2-D pack written for one format, `rows_per_tile` x 128 tiles in
// row-major order over dims padded to whole tiles, each tile split into
// sub-tiles of `sub_rows` x 1 (1: none): f32[R,C]{1,0:T(8,128)} is (8, 1),
// u8[R,C]{1,0:T(32,128)(4,1)} is (32, 4). `tiles_column_major` is the
// tile-order bug: the tiles walked down each column of tiles first, which
// only an array of two tiles or more in both dims shows.
inline size_t tiled_position(int r, int c, int rows, int cols, int rows_per_tile, int sub_rows,
                             bool tiles_column_major) {
  const int row_tiles = (rows + rows_per_tile - 1) / rows_per_tile, col_tiles = (cols + 127) / 128;
  const int tile = tiles_column_major ? (c / 128) * row_tiles + r / rows_per_tile
                                      : (r / rows_per_tile) * col_tiles + c / 128;
  const int tr = r % rows_per_tile, tc = c % 128;
  return static_cast<size_t>(tile) * rows_per_tile * 128 + ((tr / sub_rows) * 128 + tc) * sub_rows + tr % sub_rows;
}

template <class T>
std::vector<T> pack_tiled(const std::vector<T>& dense, int rows, int cols, int rows_per_tile, int sub_rows,
                          bool tiles_column_major = false) {
  const size_t tiles = static_cast<size_t>((rows + rows_per_tile - 1) / rows_per_tile) * ((cols + 127) / 128);
  std::vector<T> out(tiles * rows_per_tile * 128, 0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      out[tiled_position(r, c, rows, cols, rows_per_tile, sub_rows, tiles_column_major)] = dense[r * cols + c];
    }
  }
  return out;
}

// s4[n]{0:E(4)}: two values per byte, the first in the low nibble.
inline std::vector<uint8_t> pack_s4(const std::vector<int8_t>& dense, bool high_nibble_first = false) {
  std::vector<uint8_t> out((dense.size() + 1) / 2, 0);
  for (size_t i = 0; i < dense.size(); ++i) {
    const bool low = (i % 2 == 0) != high_nibble_first;
    out[i / 2] |= static_cast<uint8_t>((dense[i] & 0xf) << (low ? 0 : 4));
  }
  return out;
}

}  // namespace tilecheck::testing::example
