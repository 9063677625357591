#include "layouts.h"

namespace layouts {

#ifdef TESTING_EXAMPLE_BROKEN
constexpr bool kBroken = true;
#else
constexpr bool kBroken = false;
#endif

std::vector<uint16_t> detile_bf16(std::span<const uint16_t> packed, int rows, int cols) {
  const int tile_cols = (cols + 127) / 128;
  std::vector<uint16_t> dense(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int tile = (r / 8) * tile_cols + c / 128, tr = r % 8, tc = c % 128;
      // The broken one reads each tile row after row: the (2,1) sub-tile forgotten.
      const int within = kBroken ? tr * 128 + tc : (tr / 2) * 256 + tc * 2 + tr % 2;
      dense[static_cast<size_t>(r) * cols + c] = packed[static_cast<size_t>(tile) * 1024 + within];
    }
  }
  return dense;
}

std::vector<uint8_t> pack_s4(std::span<const int8_t> dense, int rows, int cols) {
  const int tile_cols = (cols + 127) / 128;
  std::vector<uint8_t> packed(static_cast<size_t>((rows + 7) / 8) * tile_cols * 512, 0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int tile = (r / 8) * tile_cols + c / 128;
      const size_t position = static_cast<size_t>(tile) * 1024 + (c % 128) * 8 + r % 8;
      // The broken one puts the first value of each byte in the high nibble.
      const bool low = (position % 2 == 0) != kBroken;
      packed[position / 2] |= static_cast<uint8_t>((dense[static_cast<size_t>(r) * cols + c] & 0xf) << (low ? 0 : 4));
    }
  }
  return packed;
}

}  // namespace layouts
