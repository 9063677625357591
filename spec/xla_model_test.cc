// XLA's size model and validity rules (tilecheck/spec/xla_model.h). Each
// expected XLA size comes from an assertion in XLA's own tests (file and
// line at openxla/xla commit 2c731115ef3bbd9457cfbc46cd5fba5a35ee74bb) or,
// where XLA has none, from the derivation written beside the case, following
// ShapeUtil::ArraySize and ByteSizeOf in xla/shape_util.cc at that commit.
#include <gtest/gtest.h>

#include <string>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck {
namespace {

struct SizeCase {
  const char* text;
  int64_t byte_size_of;
  int64_t array_size;
  const char* source;  // XLA's assertion, or the derivation
};

TEST(XlaSizes, MatchXlaAndTheDerivations) {
  const SizeCase cases[] = {
      {"f32[]", 4, 4, "xla/shape_util_test.cc:333 ByteSizeOf(f32[]) == 4"},
      {"f32[10,20]{1,0}", 800, 800, "xla/shape_util_test.cc:334 ByteSizeOf(f32[10,20]) == 800"},
      {"f64[10,20]{1,0}", 1600, 1600, "xla/shape_util_test.cc:338"},
      {"c64[10,20]{1,0}", 1600, 1600, "xla/shape_util_test.cc:342"},
      {"s4[64,128]{1,0:E(4)}", 4096, 4096,
       "xla/shape_util_test.cc:1377-1378 ArrayDataSize == ArraySize == 64*128/2"},
      {"s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}", 28311552, 28311552,
       "xla/shape_util_test.cc:1389-1390 ArraySize == 9216*6144/2"},
      {"s4[0,63,127]{2,1,0:T(64,128)(8,1)E(4)}", 0, 0,
       "xla/shape_util_test.cc:1421-1422 a zero dim: ArraySize == 0"},
      // Derivations (ArraySize: the first tile only, right-aligned on the
      // most minor dims; a dim the tile does not reach is taken whole).
      {"u2[6,10]{1,0:T(4,4)}", 60, 96, "10->12, 6->8: 96 elements at ByteWidth(u2) = 1 byte"},
      {"f32[]{:T(1)(2)}", 4, 4, "a scalar: the tile (1) on a dim of 1; sub-tile (2) ignored"},
      {"f32[]{:T(256)}", 4, 1024, "the scalar's dim of 1 rounded up to 256: 256 * 4"},
      {"f32[100,200]{1,0:T(42,123)(4,5)}", 80000, 123984,
       "200->246, 100->126; sub-tile (4,5) ignored: 246*126*4"},
      {"s4[100]{0:T(128)E(4)}", 50, 64, "100->128 elements at E(4): 128*4/8"},
      {"s4[100]{0:T(128)}", 100, 128, "no E: one byte per element"},
      {"f32[10]{0:L(8)}", 40, 40, "no tiles: ByteSizeOfElements, L ignored"},
      {"f32[10]{0:T(4)L(8)}", 40, 64, "10->12 by the tile, ->16 by L(8)"},
      {"pred[100]{0:T(128)E(1)}", 13, 16, "128 elements at 1 bit"},
      {"f32[10]{0:T(8,128)}", 40, 4096, "10->128, and a missing dim of 1 -> 8"},
      {"f32[8,3]{1,0:T(2,*,1)}", 96, 0, "'*' is INT64_MIN: RoundUpTo(x, INT64_MIN) == 0"},
      {"f32[150,200]{1,0:T(8,128)SC(1:100)}", 120000, 77824,
       "SC dim 1 is logical dim 1: largest piece 100 -> 128; 150 -> 152; 152*128*4"},
      {"f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}", 12000000, 12000000,
       "untiled: ByteSizeOfElements (split configs are only read with tiles)"},
      {"s32[<=4,8]{1,0}", 128, 128, "a bounded dim at its bound: 32 elements"},
      {"f32[123,456]{1,0:T(16,128)M(1024)}", 224352, 262144,
       "M is not part of ArraySize: 456->512, 123->128"},
  };
  for (const SizeCase& c : cases) {
    const ShapeWithLayout s = parse_shape(c.text);
    EXPECT_EQ(xla::byte_size_of(s), c.byte_size_of) << c.text << ": " << c.source;
    EXPECT_EQ(xla::array_size(s), c.array_size) << c.text << ": " << c.source;
  }
}

TEST(XlaSizes, TuplesCountTheirIndexTable) {
  // ShapeUtil::ByteSizeOf of a tuple is pointer_size per element.
  EXPECT_EQ(xla::byte_size_of(parse_any_shape("(f32[2]{0}, s8[3]{0})")), 16);
  EXPECT_EQ(xla::byte_size_of(parse_any_shape("()")), 0);
  EXPECT_EQ(xla::byte_size_of(parse_any_shape("token[]")), 0);
}

TEST(XlaSizes, WhatXlaCannotSizeIsAnError) {
  EXPECT_THROW(xla::array_size(parse_shape("f32[?,784]{1,0}")), Error);
  // XLA reads minor_to_major out of bounds for a split config past the rank.
  EXPECT_THROW(xla::array_size(parse_shape("f32[8]{0:T(4)SC(1:2)}")), Error);
}

// The four ways the models differ, each named in words.
TEST(XlaSizes, EveryDifferenceIsExplained) {
  struct Case {
    const char* text;
    int64_t exact, array_size;
    const char* reason;
  };
  const Case cases[] = {
      {"f32[]{:T(1)(2)}", 8, 4, "counts only the first tile T(1)"},
      {"f32[42,123]{1,0:T(42,123)(4,5)}", 22000, 20664, "the sub-tiles (4,5) add 1336 bytes"},
      {"f32[10]{0:L(8)}", 64, 40, "XLA ignores L(8) when the layout has no tiles"},
      {"u2[6,10]{1,0:T(4,4)}", 24, 96, "XLA stores u2 without E(n) at one byte per element"},
      {"f32[8,3]{1,0:T(2,*,1)}", 192, 0, "XLA does not model combined dims"},
  };
  for (const Case& c : cases) {
    const xla::SizeComparison cmp = xla::compare_sizes(parse_shape(c.text));
    EXPECT_EQ(cmp.exact, c.exact) << c.text;
    EXPECT_EQ(cmp.array_size, c.array_size) << c.text;
    ASSERT_FALSE(cmp.reasons.empty()) << c.text;
    std::string all;
    for (const std::string& r : cmp.reasons) all += r + "\n";
    EXPECT_NE(all.find(c.reason), std::string::npos) << c.text << ": " << all;
  }
  const xla::SizeComparison same = xla::compare_sizes(parse_shape("f32[3,5]{1,0:T(2,2)}"));
  EXPECT_EQ(same.exact, same.array_size);
  EXPECT_TRUE(same.reasons.empty());
  EXPECT_TRUE(xla::compare_sizes(parse_shape("f32[8,3]{1,0:T(2,*,1)}")).meaningless);
}

// The property (or "") of each problem of `text`, errors before warnings.
std::string problems(const std::string& text) {
  std::string out;
  for (const xla::Problem& p : xla::validity_problems(parse_any_shape(text))) {
    out += (p.severity == xla::Problem::Severity::kError ? "error " : "warning ") + p.property +
           ";";
  }
  return out;
}

TEST(XlaValidity, FlagsWhatXlaRejects) {
  EXPECT_EQ(problems("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}"), "");
  EXPECT_EQ(problems("bf16[128,256]{1,0:T(8,128)(2,1)}"), "");
  // E(n) leaked onto types that are not sub-byte: shipped compiler bugs.
  EXPECT_EQ(problems("bf16[8]{0:E(4)}"), "error E(4);");
  EXPECT_EQ(problems("pred[8]{0:E(4)}"), "error E(4);");
  EXPECT_EQ(problems("pred[8]{0:E(1)}"), "error E(1);");
  EXPECT_EQ(problems("s4[8]{0:E(2)}"), "warning E(2);");
  EXPECT_EQ(problems("f32[2,3]{1,0:#(u32)}"), "error #(..);");
  EXPECT_EQ(problems("f32[2,3]{1,0:*(u32)}"), "error *(..);");
  EXPECT_EQ(problems("f32[10,20]{0,1:P(s32[10,20]{1,0})}"), "error P(..);");
  EXPECT_EQ(problems("f32[3]{0:T(2,128)}"), "warning T(2,128);");
  EXPECT_EQ(problems("f32[]{:T(256)}"), "");
  // TPU's rank-1 bf16 layout: the sub-tiles apply to what the tile before
  // them made (D2), as XLA applies them.
  EXPECT_EQ(problems("bf16[2048]{0:T(1024)(128)(2,1)}"), "");
  EXPECT_EQ(problems("f32[8]{0:SC(1:4)}"), "error SC(1:4);");
  EXPECT_EQ(problems("f32[8]{0:SC(0:4,2)}"), "error SC(0:4,2);");
  EXPECT_EQ(problems("f32[8]{0:SC(0:8)}"), "error SC(0:8);");
  EXPECT_EQ(problems("f32[123,456]{1,0:S(3)SC(0:10)(1:4,5)}"), "");
  EXPECT_EQ(problems("f32[8]{0:S(200)}"), "error S(200);");
  EXPECT_EQ(problems("f32[8]{0:M(64)}"), "warning M(64);");
  EXPECT_EQ(problems("f32[<=8]{0:M(64)}"), "");
  EXPECT_EQ(problems("(f32[2]{0}, (bf16[2]{0:E(4)}))"), "error {1,0} E(4);");
}

}  // namespace
}  // namespace tilecheck
