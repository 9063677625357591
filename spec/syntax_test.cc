// Parse/print round trips and one test per error class of D9.
#include <gtest/gtest.h>

#include <string>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck {
namespace {

TEST(Syntax, CanonicalRoundTrips) {
  for (const char* text : {
           "f32[3,5]{1,0:T(2,2)}",
           "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}",
           "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
           "f32[]{:T(128)}",
           "f32[]",
           "pred[32,128]{0,1:T(32,128)(32,1)E(1)}",
           "f32[3,5]{1,0:L(8)E(32)S(1)}",
           "f32[?,128]{1,0:T(8,128)}",
           "f8e4m3fn[7]{0}",
           "c128[0,2]{0,1}",
       }) {
    const ShapeWithLayout s = parse_shape(text);
    EXPECT_EQ(print_shape(s), text);
    EXPECT_EQ(parse_shape(print_shape(s)), s);
  }
}

TEST(Syntax, AcceptsUppercaseSpacesAndDefaultLayout) {
  EXPECT_EQ(print_shape(parse_shape(" F32 [ 3 , 5 ] { 1 , 0 : T( 2 , 2 ) } ")),
            "f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(print_shape(parse_shape("BF16[2,3,4]")), "bf16[2,3,4]{2,1,0}");
  EXPECT_EQ(parse_shape("f32[2]").layout, default_layout(1));
}

TEST(Syntax, EveryTypeRoundTrips) {
  for (ElementType t : all_element_types()) {
    const std::string text = std::string(element_type_name(t)) + "[2]{0}";
    EXPECT_EQ(parse_shape(text).type, t);
    EXPECT_EQ(print_shape(parse_shape(text)), text);
  }
  EXPECT_EQ(natural_bit_width(ElementType::kPred), 8);
  EXPECT_EQ(natural_bit_width(ElementType::kS4), 4);
  EXPECT_EQ(natural_bit_width(ElementType::kC128), 128);
  EXPECT_EQ(natural_bit_width(ElementType::kF4E2M1FN), 4);
}

// The message names the problem and the column.
void expect_error(const std::string& text, const std::string& fragment, int64_t column) {
  try {
    parse_shape(text);
    ADD_FAILURE() << text << " parsed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << text << " -> " << e.what();
    EXPECT_EQ(e.column(), column) << text << " -> " << e.what();
  }
}

TEST(SyntaxErrors, UnknownType) { expect_error("f31[3]", "unknown element type 'f31'", 1); }
TEST(SyntaxErrors, MissingType) { expect_error("[3]", "expected an element type", 1); }
TEST(SyntaxErrors, BadNumber) { expect_error("f32[3,x]", "expected a dim size, found 'x'", 7); }
TEST(SyntaxErrors, NumberTooLarge) {
  expect_error("f32[99999999999999999999]", "too large for int64", 5);
}
TEST(SyntaxErrors, MissingBracket) {
  expect_error("f32[3,5{1,0}", "expected ',' or ']'", 8);
  expect_error("f32[3,5]{1,0", "expected '}'", 13);
  expect_error("f32[3,5]{1,0:T(2,2}", "expected ',' or ')'", 19);
}
TEST(SyntaxErrors, NegativeDim) { expect_error("f32[-3]", "negative", 5); }
TEST(SyntaxErrors, MinorToMajorWrongLength) {
  expect_error("f32[3,5]{0}", "minor_to_major has 1 entries but the shape has rank 2", 9);
}
TEST(SyntaxErrors, MinorToMajorNotPermutation) {
  expect_error("f32[3,5]{0,0}", "not a permutation", 9);
  expect_error("f32[3,5]{2,0}", "not a dim of a rank-2 shape", 10);
}
TEST(SyntaxErrors, TileEntryZeroOrNegative) {
  expect_error("f32[3,5]{1,0:T(0,2)}", "tile entry 0 must be >= 1", 16);
  expect_error("f32[3,5]{1,0:T(2,-1)}", "tile entry -1 must be >= 1", 18);
}
TEST(SyntaxErrors, StarLast) {
  expect_error("f32[3,5]{1,0:T(2,*)}", "'*' cannot be a tile's last entry", 18);
}
TEST(SyntaxErrors, EmptyTile) { expect_error("f32[3]{0:T()}", "empty tile", 12); }
TEST(SyntaxErrors, ElementSizeOutOfRange) {
  expect_error("f32[3]{0:E(0)}", "E(0) is outside 1..128", 12);
  expect_error("f32[3]{0:E(129)}", "E(129) is outside 1..128", 12);
}
TEST(SyntaxErrors, TailPaddingZero) { expect_error("f32[3]{0:L(0)}", "L(0) must be at least 1", 12); }
TEST(SyntaxErrors, PropertiesOutOfOrder) {
  expect_error("f32[3]{0:E(4)T(2)}", "out of order", 14);
  expect_error("f32[3]{0:E(4)E(4)}", "out of order or repeated", 14);
  expect_error("f32[3]{0:T(2)T(2)}", "write repeated tiles as T(..)(..)", 14);
}
TEST(SyntaxErrors, UnknownProperty) { expect_error("f32[3]{0:D(C)}", "unknown layout property 'D'", 10); }
TEST(SyntaxErrors, TrailingGarbage) { expect_error("f32[3]{0} x", "unexpected 'x' after the shape", 11); }
TEST(SyntaxErrors, DynamicDims) { expect_error("f32[<=3]", "dynamic dims", 5); }

TEST(Validation, StructureErrorsWithoutText) {
  ShapeWithLayout s;
  s.dims = {3, 5};
  s.layout.minor_to_major = {1, 0};
  s.layout.tiles = {Tile{{2, kCombineDim}}};
  EXPECT_THROW(validate_structure(s), Error);
  s.layout.tiles = {Tile{{0}}};
  EXPECT_THROW(validate_structure(s), Error);
  s.layout.tiles = {};
  s.dims = {3, -5};
  EXPECT_THROW(validate_structure(s), Error);
}

}  // namespace
}  // namespace tilecheck

#include <tilecheck/spec/catalog.h>

namespace tilecheck {
namespace {

TEST(Catalog, EveryEntryIsCanonicalValidAndSmall) {
  for (const CatalogEntry& e : catalog()) {
    const ShapeWithLayout s = parse_shape(e.layout);
    EXPECT_EQ(print_shape(s), e.layout);
    EXPECT_NO_THROW(spec::validate(s)) << e.name;
    EXPECT_LE(spec::padded_element_count(s), 1 << 16) << e.name;
  }
}

}  // namespace
}  // namespace tilecheck
