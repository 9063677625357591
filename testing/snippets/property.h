// What docs/TESTING.md's "property" program leaves to the user: a pack of
// u8[R,C]{1,0:T(32,128)(4,1)} that walks its tiles in the wrong order (the
// page shows the property catching it), and a bf16 (8,128)(2,1) pack as
// written, with the layouts it handles.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "testing/hand_written.h"
#include <tilecheck/spec/model.h>

inline std::vector<uint8_t> my_pack(const tilecheck::ShapeWithLayout& layout, std::span<const uint8_t> dense) {
  return tilecheck::testing::example::pack_tiled(std::vector<uint8_t>(dense.begin(), dense.end()),
                                                 static_cast<int>(layout.dims[0]), static_cast<int>(layout.dims[1]),
                                                 32, 4, /*tiles_column_major=*/true);
}

inline bool my_bf16_pack_supports(const tilecheck::ShapeWithLayout& s) {
  return s.rank() == 2 && s.layout.minor_to_major == std::vector<int64_t>{1, 0} && s.layout.tiles.size() == 2 &&
         s.layout.tiles[0].dims == std::vector<int64_t>{8, 128} && s.layout.tiles[1].dims == std::vector<int64_t>{2, 1} &&
         !s.layout.element_size_bits && !s.layout.tail_padding_alignment;
}

inline std::vector<uint16_t> my_bf16_pack(const tilecheck::ShapeWithLayout& s, std::span<const uint8_t> dense) {
  std::vector<uint16_t> values(dense.size() / 2);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<uint16_t>(dense[2 * i] | dense[2 * i + 1] << 8);
  return tilecheck::testing::example::pack_bf16_8x128_2x1(values, static_cast<int>(s.dims[0]),
                                                          static_cast<int>(s.dims[1]));
}
