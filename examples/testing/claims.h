// Which layouts each function of the library handles: rank 2, row-major,
// exactly its TPU format.
#pragma once

#include <vector>

#include <tilecheck/spec/model.h>

namespace claims {

inline bool tpu_format(const tilecheck::ShapeWithLayout& s, tilecheck::ElementType type,
                       std::vector<int64_t> sub_tile, std::optional<int64_t> element_bits) {
  return s.type == type && s.rank() == 2 && s.layout.minor_to_major == std::vector<int64_t>{1, 0} &&
         s.layout.tiles.size() == 2 && s.layout.tiles[0].dims == std::vector<int64_t>{8, 128} &&
         s.layout.tiles[1].dims == sub_tile && s.layout.element_size_bits == element_bits &&
         !s.layout.tail_padding_alignment;
}

inline bool detile_bf16(const tilecheck::ShapeWithLayout& s) {
  return tpu_format(s, tilecheck::ElementType::kBF16, {2, 1}, std::nullopt);
}

inline bool pack_s4(const tilecheck::ShapeWithLayout& s) {
  return tpu_format(s, tilecheck::ElementType::kS4, {8, 1}, 4);
}

}  // namespace claims
