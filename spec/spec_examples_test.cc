// Worked examples with exact values: the document's figures and values that
// XLA's own tests publish.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/reshape_formulation.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::spec {
namespace {

using Grid = std::vector<std::vector<int64_t>>;

Grid index_grid(const ShapeWithLayout& s) {
  Grid g(s.dims[0], std::vector<int64_t>(s.dims[1]));
  for (int64_t r = 0; r < s.dims[0]; ++r) {
    for (int64_t c = 0; c < s.dims[1]; ++c) g[r][c] = linear_index(s, {r, c});
  }
  return g;
}

TEST(Figure1, ElementTwoThreeIsSeventeen) {
  const ShapeWithLayout s = parse_shape("F32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(linear_index(s, {2, 3}), 17);
  EXPECT_EQ(linear_index_by_reshape(s, {2, 3}), 17);
  const IndexTrace t = trace_linear_index(s, {2, 3});
  ASSERT_EQ(t.levels.size(), 1u);
  EXPECT_EQ(t.levels[0].tile_index, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(t.levels[0].within_tile_index, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(t.final_index, (std::vector<int64_t>{1, 1, 0, 1}));
  EXPECT_EQ(t.final_bounds, (std::vector<int64_t>{2, 3, 2, 2}));
}

TEST(Figure1, WholeGrid) {
  const ShapeWithLayout s = parse_shape("f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(index_grid(s), (Grid{{0, 1, 4, 5, 8}, {2, 3, 6, 7, 10}, {12, 13, 16, 17, 20}}));
  EXPECT_EQ(tiled_shape(s), (std::vector<int64_t>{2, 3, 2, 2}));
  EXPECT_EQ(tiled_shape_by_reshape(s), (std::vector<int64_t>{2, 3, 2, 2}));
  EXPECT_EQ(padded_element_count(s), 24);
  EXPECT_EQ(byte_size(s), 96);
  // Padding: the positions no element maps to.
  for (int64_t p : {9, 11, 14, 15, 18, 19, 21, 22, 23}) EXPECT_FALSE(delinearize(s, p)) << p;
  EXPECT_EQ(delinearize(s, 17), (std::vector<int64_t>{2, 3}));
}

TEST(Figure2, TwoLevelsWholeGrid) {
  const ShapeWithLayout s = parse_shape("f32[4,8]{1,0:T(2,4)(2,1)}");
  EXPECT_EQ(index_grid(s), (Grid{{0, 2, 4, 6, 8, 10, 12, 14},
                                 {1, 3, 5, 7, 9, 11, 13, 15},
                                 {16, 18, 20, 22, 24, 26, 28, 30},
                                 {17, 19, 21, 23, 25, 27, 29, 31}}));
  EXPECT_EQ(tiled_shape(s), (std::vector<int64_t>{2, 2, 1, 4, 2, 1}));
}

TEST(CombinedDims, DocumentExampleEqualsMergedShape) {
  const ShapeWithLayout combined = parse_shape("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
  const ShapeWithLayout merged = parse_shape("f32[112,110]{1,0:T(2,3)}");
  EXPECT_EQ(tiled_shape(combined), tiled_shape(merged));
  int64_t checked = 0;
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 7; ++b)
      for (int64_t c = 0; c < 8; ++c)
        for (int64_t d = 0; d < 11; ++d)
          for (int64_t e = 0; e < 10; ++e) {
            const int64_t want = linear_index(merged, {a * 56 + b * 8 + c, d * 10 + e});
            ASSERT_EQ(linear_index(combined, {a, b, c, d, e}), want);
            ASSERT_EQ(linear_index_by_reshape(combined, {a, b, c, d, e}), want);
            ++checked;
          }
  EXPECT_EQ(checked, 12320);
}

TEST(XlaPublished, Bf16ThreeLevels) {
  const ShapeWithLayout s = parse_shape("bf16[2048]{0:T(1024)(128)(2,1)}");
  EXPECT_EQ(linear_index(s, {0}), 0);
  EXPECT_EQ(linear_index(s, {128}), 1);
  EXPECT_EQ(linear_index(s, {1}), 2);
}

TEST(XlaPublished, Bf16Rank3) {
  EXPECT_EQ(linear_index(parse_shape("bf16[2,8,128]{2,1,0:T(8,128)(2,1)}"), {0, 2, 0}), 256);
}

TEST(XlaPublished, F32TwoByTwoAndUntiled) {
  EXPECT_EQ(linear_index(parse_shape("f32[8,4]{1,0:T(2,2)}"), {3, 1}), 11);
  EXPECT_EQ(linear_index(parse_shape("f32[8,4]{1,0}"), {3, 1}), 13);
}

TEST(XlaPublished, SecondTileReachesCrossTileDims) {
  EXPECT_EQ(linear_index(parse_shape("f32[8,8]{1,0:T(2,4)(2,1,1,1)}"), {6, 5}), 51);
}

TEST(XlaPublished, SmallDimsPaddedToTile) {
  const ShapeWithLayout s = parse_shape("f32[28,1,1]{2,1,0:T(2,128)}");
  EXPECT_EQ(padded_element_count(s), 7168);
  EXPECT_EQ(byte_size(s), 28672);
  EXPECT_EQ(linear_index(s, {27, 0, 0}), 6912);
}

TEST(XlaPublished, S4PackedByteSize) {
  EXPECT_EQ(byte_size(parse_shape("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}")), 28311552);
}

TEST(Decisions, D1ColumnMajor) {
  const ShapeWithLayout s = parse_shape("f32[3,5]{0,1}");
  EXPECT_EQ(linear_index(s, {2, 3}), 3 * 3 + 2);
  EXPECT_EQ(tiled_shape(s), (std::vector<int64_t>{5, 3}));
}

TEST(Decisions, D3TileLongerThanShape) {
  const ShapeWithLayout scalar = parse_shape("f32[]{:T(128)}");
  EXPECT_EQ(padded_element_count(scalar), 128);
  EXPECT_EQ(linear_index(scalar, {}), 0);
  const ShapeWithLayout s = parse_shape("f32[3]{0:T(2,128)}");
  EXPECT_EQ(tiled_shape(s), (std::vector<int64_t>{1, 1, 2, 128}));
  EXPECT_EQ(linear_index(s, {2}), 2);
  EXPECT_FALSE(delinearize(s, 128));
}

TEST(Decisions, D5TailPadding) {
  const ShapeWithLayout s = parse_shape("f32[3,5]{1,0:L(8)}");
  EXPECT_EQ(padded_element_count(s), 16);
  EXPECT_FALSE(delinearize(s, 15));
  EXPECT_EQ(delinearize(s, 14), (std::vector<int64_t>{2, 4}));
}

TEST(Decisions, D6ElementWidths) {
  EXPECT_EQ(byte_size(parse_shape("pred[10]{0}")), 10);
  EXPECT_EQ(byte_size(parse_shape("pred[10]{0:E(1)}")), 2);
  EXPECT_EQ(byte_size(parse_shape("s4[3]{0}")), 2);
  EXPECT_EQ(byte_size(parse_shape("c128[3]{0}")), 48);
  EXPECT_EQ(byte_size(parse_shape("f32[3]{0:E(12)}")), 5);
  EXPECT_EQ(parse_shape("f32[3]{0:E(12)}").dense_element_bytes(), 2);
}

TEST(Decisions, D7SubBytePackingLowestBitsFirst) {
  const ShapeWithLayout s = parse_shape("s4[3]{0}");
  const std::vector<uint8_t> dense = {0x1, 0x2, 0xF3};  // high bits of 0xF3 are ignored
  EXPECT_EQ(pack(s, dense), (std::vector<uint8_t>{0x21, 0x03}));
  EXPECT_EQ(unpack(s, pack(s, dense)), (std::vector<uint8_t>{0x1, 0x2, 0x3}));
  const ShapeWithLayout bits = parse_shape("pred[2,2]{1,0:T(2,1)E(1)}");
  // Column-pairs: (0,0)->0 (1,0)->1 (0,1)->2 (1,1)->3.
  EXPECT_EQ(pack(bits, std::vector<uint8_t>{1, 0, 0, 1}), (std::vector<uint8_t>{0b1001}));
  EXPECT_EQ(pack(bits, std::vector<uint8_t>{0, 1, 0, 0}), (std::vector<uint8_t>{0b0100}));
}

// docs/PROTOCOL.md, "Dense buffers": unpack sign-extends signed types, so a
// dense s4 is the int8 of its value; unsigned types get zeros above.
TEST(Decisions, DenseSignedValuesAreSignExtended) {
  const ShapeWithLayout s4 = parse_shape("s4[2]{0}");
  EXPECT_EQ(pack(s4, std::vector<uint8_t>{0xFF, 0x02}), (std::vector<uint8_t>{0x2F}));
  EXPECT_EQ(unpack(s4, std::vector<uint8_t>{0x2F}), (std::vector<uint8_t>{0xFF, 0x02}));
  EXPECT_EQ(unpack(s4, std::vector<uint8_t>{0x87}), (std::vector<uint8_t>{0x07, 0xF8}));  // 7, -8
  EXPECT_EQ(unpack(parse_shape("u4[2]{0}"), std::vector<uint8_t>{0x2F}),
            (std::vector<uint8_t>{0x0F, 0x02}));
  EXPECT_EQ(unpack(parse_shape("s1[3]{0}"), std::vector<uint8_t>{0b101}),
            (std::vector<uint8_t>{0xFF, 0x00, 0xFF}));
  // E(12) on s16: two dense bytes, sign-extended from bit 11.
  EXPECT_EQ(unpack(parse_shape("s16[1]{0:E(12)}"), std::vector<uint8_t>{0x00, 0x08}),
            (std::vector<uint8_t>{0x00, 0xF8}));
  EXPECT_EQ(canonical_dense(s4, {0x0F, 0x72}), (std::vector<uint8_t>{0xFF, 0x02}));
}

TEST(Decisions, D8PaddingIsZero) {
  const ShapeWithLayout s = parse_shape("u8[3]{0:T(4)}");
  EXPECT_EQ(pack(s, std::vector<uint8_t>{7, 8, 9}), (std::vector<uint8_t>{7, 8, 9, 0}));
  EXPECT_EQ(unpack(s, std::vector<uint8_t>{7, 8, 9, 0xAA}), (std::vector<uint8_t>{7, 8, 9}));
}

TEST(Decisions, ZeroSizeDims) {
  const ShapeWithLayout s = parse_shape("f32[0,5]{1,0:T(2,2)}");
  EXPECT_EQ(padded_element_count(s), 0);
  EXPECT_TRUE(pack(s, {}).empty());
  EXPECT_THROW(delinearize(s, 0), Error);
}

TEST(PackUnpack, MultiByteLittleEndianAtLinearIndex) {
  const ShapeWithLayout s = parse_shape("u16[3,2]{0,1}");
  const std::vector<uint8_t> dense = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  // (r,c) dense at 2*(2r+c), physical at 2*(3c+r).
  EXPECT_EQ(pack(s, dense), (std::vector<uint8_t>{1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}));
  EXPECT_EQ(unpack(s, pack(s, dense)), dense);
}

// pack computes linear indices a batch of elements at a time (ColumnDomain);
// every element of every catalogue layout (several batches for the larger
// ones) must land at the linear_index of the one-element form, with its bits
// in order, and unpack must bring it back.
TEST(PackUnpack, EveryCatalogueElementAtItsLinearIndex) {
  std::mt19937_64 random(7);
  for (const CatalogEntry& entry : catalog()) {
    const ShapeWithLayout s = parse_shape(entry.layout);
    std::vector<uint8_t> dense(dense_byte_size(s));
    for (uint8_t& b : dense) b = static_cast<uint8_t>(random());
    const std::vector<uint8_t> physical = pack(s, dense);
    const int64_t bits = s.element_bits(), dense_bits = 8 * s.dense_element_bytes();
    const auto bit = [](const std::vector<uint8_t>& v, int64_t i) { return (v[i / 8] >> (i % 8)) & 1; };
    int64_t i = 0, wrong = 0;
    for_each_element(s.dims, [&](const std::vector<int64_t>& e) {
      const int64_t p = linear_index(s, e);
      for (int64_t b = 0; b < bits; ++b) wrong += bit(dense, i * dense_bits + b) != bit(physical, p * bits + b);
      ++i;
    });
    EXPECT_EQ(wrong, 0) << entry.layout;
    EXPECT_EQ(unpack(s, physical), canonical_dense(s, dense)) << entry.layout;
  }
}

TEST(Errors, ElementAndPosition) {
  const ShapeWithLayout s = parse_shape("f32[3,5]{1,0:T(2,2)}");
  EXPECT_THROW(linear_index(s, {3, 0}), Error);
  EXPECT_THROW(linear_index(s, {0}), Error);
  EXPECT_THROW(linear_index(s, {-1, 0}), Error);
  EXPECT_THROW(delinearize(s, 24), Error);
  EXPECT_THROW(delinearize(s, -1), Error);
  EXPECT_THROW(pack(s, std::vector<uint8_t>(59)), Error);
  EXPECT_THROW(unpack(s, std::vector<uint8_t>(95)), Error);
}

TEST(Errors, Overflow) {
  EXPECT_THROW(validate(parse_shape("f32[4611686018427387904,4]")), Error);
  EXPECT_THROW(validate(parse_shape("f32[9223372036854775807]{0:T(2)}")), Error);
  // A byte size that fits although count * bits would not.
  EXPECT_EQ(byte_size(parse_shape("s4[4611686018427387904]{0}")), 2305843009213693952);
  EXPECT_THROW(byte_size(parse_shape("s8[4611686018427387904,2]{1,0}")), Error);
}

TEST(Errors, SymbolicDimsOnlyForProofs) {
  const ShapeWithLayout s = parse_shape("f32[?,128]{1,0:T(8,128)}");
  EXPECT_TRUE(s.has_symbolic_dims());
  EXPECT_THROW(validate(s), Error);
  EXPECT_THROW(linear_index(s, {0, 0}), Error);
}

}  // namespace
}  // namespace tilecheck::spec
