// libFuzzer on the library's s4 pack: tilecheck's harness (fuzz.h) draws a
// layout of the function's family (claims.h) and a dense array from each
// input, so every input reaches it.
#include <span>
#include <vector>

#include <tilecheck/testing/fuzz.h>

#include "claims.h"
#include "layouts.h"

static std::vector<uint8_t> pack(const tilecheck::ShapeWithLayout& layout, std::span<const uint8_t> bytes) {
  const std::vector<int8_t> dense(bytes.begin(), bytes.end());
  return layouts::pack_s4(dense, static_cast<int>(layout.dims[0]), static_cast<int>(layout.dims[1]));
}

TILECHECK_FUZZ_PACK(pack, tilecheck::testing::every_layout, claims::pack_s4())
