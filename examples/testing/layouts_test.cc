// The library's tests on tilecheck's testing kit: GoogleTest assertions on
// fixed arrays, and RapidCheck properties over the layouts each function
// handles (claims.h).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <vector>

#include <tilecheck/testing/gtest.h>
#include <tilecheck/testing/rapidcheck.h>

#include "claims.h"
#include "layouts.h"

namespace {

TEST(Layouts, DetileBf16) {
  const tilecheck::ShapeWithLayout layout = tilecheck::spec::parse_layout("bf16[16,256]{1,0:T(8,128)(2,1)}");
  std::vector<uint16_t> packed(layout.dims[0] * layout.dims[1]);
  for (size_t i = 0; i < packed.size(); ++i) packed[i] = static_cast<uint16_t>(i + 1);
  EXPECT_UNPACKS_AS_SPEC(layout, packed, layouts::detile_bf16(packed, 16, 256));
}

TEST(Layouts, PackS4) {
  std::vector<int8_t> dense(16 * 256);
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 256; ++c) dense[r * 256 + c] = static_cast<int8_t>((r * 3 + c) % 16 - 8);
  }
  EXPECT_PACKS_AS_SPEC("s4[16,256]{1,0:T(8,128)(8,1)E(4)}", dense, layouts::pack_s4(dense, 16, 256));
}

RC_GTEST_PROP(Layouts, DetileBf16AsTheSpec, ()) {
  const tilecheck::ShapeWithLayout layout = *tilecheck::testing::layouts(claims::detile_bf16());
  const std::vector<uint8_t> bytes = *tilecheck::testing::packed_buffers(layout);
  std::vector<uint16_t> packed(bytes.size() / 2);
  if (!bytes.empty()) std::memcpy(packed.data(), bytes.data(), bytes.size());
  const int rows = static_cast<int>(layout.dims[0]), cols = static_cast<int>(layout.dims[1]);
  RC_ASSERT_UNPACKS_AS_SPEC(layout, packed, layouts::detile_bf16(packed, rows, cols));
}

RC_GTEST_PROP(Layouts, PackS4AsTheSpec, ()) {
  const tilecheck::ShapeWithLayout layout = *tilecheck::testing::layouts(claims::pack_s4());
  const std::vector<uint8_t> bytes = *tilecheck::testing::dense_arrays(layout);
  const std::vector<int8_t> dense(bytes.begin(), bytes.end());
  const int rows = static_cast<int>(layout.dims[0]), cols = static_cast<int>(layout.dims[1]);
  RC_ASSERT_PACKS_AS_SPEC(layout, dense, layouts::pack_s4(dense, rows, cols));
}

}  // namespace
