// libFuzzer on the library's bf16 detile: tilecheck's harness (fuzz.h) draws
// a layout of the function's family (claims.h) and a physical buffer from
// each input, so every input reaches it.
#include <cstring>
#include <span>
#include <vector>

#include <tilecheck/testing/fuzz.h>

#include "claims.h"
#include "layouts.h"

static std::vector<uint16_t> detile(const tilecheck::ShapeWithLayout& layout, std::span<const uint8_t> bytes) {
  std::vector<uint16_t> packed(bytes.size() / 2);
  if (!bytes.empty()) std::memcpy(packed.data(), bytes.data(), bytes.size());
  return layouts::detile_bf16(packed, static_cast<int>(layout.dims[0]), static_cast<int>(layout.dims[1]));
}

TILECHECK_FUZZ_UNPACK(detile, tilecheck::testing::every_layout, claims::detile_bf16())
