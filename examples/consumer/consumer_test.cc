// A test in a project outside tilecheck, against the installed package:
// its own pack of f32[3,5]{1,0:T(2,2)} (the document's Figure 1, written out
// by hand) checked with tilecheck::testing's GoogleTest assertions.
#include <gtest/gtest.h>

#include <vector>

#include <tilecheck/testing/gtest.h>

namespace {

// 2x2 tiles in row-major order over the 3x5 array padded to 4x6.
std::vector<float> pack_figure1(const std::vector<float>& dense) {
  std::vector<float> out(24, 0.0f);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 5; ++c) out[((r / 2) * 3 + c / 2) * 4 + (r % 2) * 2 + c % 2] = dense[r * 5 + c];
  }
  return out;
}

TEST(Consumer, PacksFigure1AsTheSpec) {
  std::vector<float> dense(15);
  for (int i = 0; i < 15; ++i) dense[i] = static_cast<float>(i + 1);
  EXPECT_PACKS_AS_SPEC("f32[3,5]{1,0:T(2,2)}", dense, pack_figure1(dense));
  EXPECT_BYTE_SIZE_AS_SPEC("f32[3,5]{1,0:T(2,2)}", 24 * 4);
  EXPECT_LINEAR_INDEX_AS_SPEC("f32[3,5]{1,0:T(2,2)}", (std::vector<int64_t>{2, 3}), 17);
}

}  // namespace
