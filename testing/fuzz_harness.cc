// A fuzz harness as a user writes it with <tilecheck/testing/fuzz.h>: a
// hand-written bf16 (8,128)(2,1) pack, or with UNPACK defined its unpack
// (testing/hand_written.h), claiming the row-major rank-2 layouts of that
// format, checked on the TPU profile's layouts. Each built correct, and
// with FORGET_SUB_TILE defined broken: it walks each tile row after row.
// fuzz_random_driver.cc runs it on random inputs; under libFuzzer it is a
// fuzz target as it is.
#include <cstring>
#include <span>
#include <vector>

#include "testing/hand_written.h"
#include <tilecheck/testing/fuzz.h>

#ifdef FORGET_SUB_TILE
constexpr bool kForgetSubTile = true;
#else
constexpr bool kForgetSubTile = false;
#endif

namespace {

bool claims(const tilecheck::ShapeWithLayout& s) {
  return s.type == tilecheck::ElementType::kBF16 && s.rank() == 2 &&
         s.layout.minor_to_major == std::vector<int64_t>{1, 0} && s.layout.tiles.size() == 2 &&
         s.layout.tiles[0].dims == std::vector<int64_t>{8, 128} && s.layout.tiles[1].dims == std::vector<int64_t>{2, 1} &&
         !s.layout.element_size_bits && !s.layout.tail_padding_alignment;
}

std::vector<uint16_t> as_uint16(std::span<const uint8_t> bytes) {
  std::vector<uint16_t> values(bytes.size() / 2);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

#ifndef UNPACK
std::vector<uint16_t> pack(const tilecheck::ShapeWithLayout& s, std::span<const uint8_t> dense) {
  return tilecheck::testing::example::pack_bf16_8x128_2x1(as_uint16(dense), static_cast<int>(s.dims[0]),
                                                          static_cast<int>(s.dims[1]), kForgetSubTile);
}

#else
std::vector<uint16_t> unpack(const tilecheck::ShapeWithLayout& s, std::span<const uint8_t> packed) {
  return tilecheck::testing::example::unpack_bf16_8x128_2x1(as_uint16(packed), static_cast<int>(s.dims[0]),
                                                            static_cast<int>(s.dims[1]), kForgetSubTile);
}
#endif

}  // namespace

#ifdef UNPACK
TILECHECK_FUZZ_UNPACK(unpack, claims, "tpu")
#else
TILECHECK_FUZZ_PACK(pack, claims, "tpu")
#endif
