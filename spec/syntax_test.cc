// Parse/print round trips and one test per error class of D9.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

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
           "s32[<=4]{0}",
           "f32[<=23,44,<=55]{2,1,0}",
           "f32[123,456]{1,0:T(2,128)S(3)SC(1:200)}",
           "f32[123,456]{1,0:S(3)SC(0:10)(1:4,5)}",
           "f32[123,456]{1,0:T(16,128)M(1024)}",
           "f32[2,3]{1,0:#(u32)*(u16)}",
           "f32[10,20]{0,1:P(s32[10,20]{1,0})}",
           "f32[200001,128]{1,0:T(8)L(1024)}",
           "f32[4]{0:T(2)L(4)#(u8)*(u64)E(32)S(1)SC(0:2)P(f32[4]{0})M(8)}",
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
TEST(SyntaxErrors, UnknownProperty) {
  expect_error("f32[3]{0:Q(1)}", "unknown layout property 'Q'; expected one of T L # * E S SC P M", 10);
}
TEST(SyntaxErrors, TrailingGarbage) { expect_error("f32[3]{0} x", "unexpected 'x' after the shape", 11); }
TEST(SyntaxErrors, DynamicDims) {
  expect_error("f32[<3]", "expected '<=' before a dynamic dim's bound", 6);
  expect_error("f32[<=-3]", "negative", 7);
  expect_error("f32[<=]", "expected a dim size", 7);
}
TEST(SyntaxErrors, SparseDimLevelTypes) {
  expect_error("f32[3]{0:D(C)}", "sparse layouts are not supported", 12);
  expect_error("f32[3,4]{1,0:D(D,C+)}", "sparse layouts are not supported", 18);
  expect_error("f32[3,4]{1,0:D(D,D~)}", "sparse layouts are not supported", 18);
  expect_error("f32[3]{0:D(X)}", "expected a dim level type (D, C, S or H)", 12);
}
TEST(SyntaxErrors, SplitConfigs) {
  // XLA's order puts SC after S; it is not mistaken for S.
  expect_error("f32[3]{0:SC(0:1)S(1)}", "property S(..) is out of order", 17);
  expect_error("f32[3]{0:SC(0:1)SC(0:2)}", "property SC(..) is out of order or repeated", 17);
  expect_error("f32[3]{0:SC(0)}", "expected ':' after the split config's dim", 14);
  expect_error("f32[3]{0:SC(-1:2)}", "a split config's dim must be >= 0", 13);
  expect_error("f32[3]{0:SC(0:1,-2)}", "split index -2 is negative", 17);
}
TEST(SyntaxErrors, IndexAndPointerTypes) {
  expect_error("f32[3]{0:#(f32)}", "#(..) takes an integer type such as u32, found 'f32'", 12);
  expect_error("f32[3]{0:*(pred)}", "*(..) takes an integer type", 12);
  expect_error("f32[3]{0:*(u8)#(u8)}", "property #(..) is out of order", 15);
}
TEST(SyntaxErrors, PhysicalShapeAndMetadata) {
  expect_error("f32[3]{0:P((f32[3]))}", "P(..) takes an array shape", 12);
  expect_error("f32[3]{0:P(f32[3]{0}}", "expected ')' to close P(..)", 21);
  expect_error("f32[3]{0:M(-1)}", "M(-1) must be >= 0", 12);
}
TEST(SyntaxErrors, Tuples) {
  expect_error("(f32[3]{0}", "expected ',' or ')' in the tuple", 11);
  expect_error("(f32[3]{0},)", "expected an element type", 12);
  expect_error("token[2]", "token takes no dims", 7);
  expect_error("(f32[2], /* open", "unterminated comment", 10);
  expect_error("b(f32[2]{0}, f32[3]{0})", "expected ')' at the end of the buffer shape b(..)", 12);
  expect_error("b((f32[2]{0}))", "b(..) holds one array shape", 3);
}

// Nesting is bounded (kMaxShapeNesting), at exactly the documented depth,
// in every way text nests, and the message names the limit; far deeper text
// is the same error at once, never a stack overflow.
TEST(SyntaxErrors, NestingLimit) {
  const auto nested = [](std::string_view open, int levels, std::string_view inner,
                         std::string_view close) {
    std::string out;
    for (int i = 0; i < levels; ++i) out += open;
    out += inner;
    for (int i = 0; i < levels; ++i) out += close;
    return out;
  };
  const int limit = kMaxShapeNesting;
  // An array alone is 1 deep: limit - 1 tuples around it reach the limit.
  EXPECT_NO_THROW(parse_any_shape(nested("(", limit - 1, "f32[2]{0}", ")")));
  EXPECT_NO_THROW(parse_any_shape(nested("(", limit - 3, "b(f32[2]{0:P(f32[2])})", ")")));
  const std::string limit_text = "tilecheck's nesting limit is " + std::to_string(limit);
  for (const std::string& text : {nested("(", limit, "f32[2]{0}", ")"),
                                  nested("(", limit - 2, "b(f32[2]{0:P(f32[2])})", ")"),
                                  nested("b(", limit, "f32[2]", ")"),
                                  nested("f32[2]{0:P(", limit, "f32[2]", ")}"),
                                  nested("(", 1000000, "f32[2]{0}", ")"),
                                  nested("(", 1000000, "", ""),
                                  nested("b(", 1000000, "", ""),
                                  nested("f32[2]{0:P(", 200000, "", "")}) {
    try {
      parse_any_shape(text);
      ADD_FAILURE() << "a text nested past the limit parsed: " << text.substr(0, 80);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(limit_text), std::string::npos) << e.what();
    }
  }
}

// Messages quote what they found printably: a NUL or a byte of invalid
// UTF-8 is shown in hex, and a long text is cut.
TEST(SyntaxErrors, MessagesArePrintable) {
  expect_error(std::string("f32[3]{0}\0", 10), "unexpected byte 0x00 after the shape", 10);
  expect_error("f32[3]{0}\xff", "unexpected byte 0xff after the shape", 10);
  expect_error("f32[\x80]", "expected a dim size, found byte 0x80", 5);
  EXPECT_EQ(shown_text(std::string("a\0b\xff", 4)), "a\\x00b\\xff");
  EXPECT_EQ(shown_text(std::string(200, 'x'), 10), std::string(10, 'x') + "... (200 bytes in all)");
  EXPECT_EQ(shown_text(std::string(10, 'x'), 10), std::string(10, 'x'));
}

TEST(Syntax, XlaDefaultsAreNotPrinted) {
  // L(1), S(0) and M(0) are XLA's defaults: XLA stores and prints them as absent.
  EXPECT_EQ(print_shape(parse_shape("f32[3]{0:L(1)S(0)M(0)}")), "f32[3]{0}");
  EXPECT_EQ(parse_shape("f32[3]{0:L(1)S(0)M(0)}"), parse_shape("f32[3]{0}"));
}

TEST(Syntax, DenseDimLevelTypesAreDropped) {
  // As XLA: D(..) is read and dropped; all-dense changes nothing.
  EXPECT_EQ(print_shape(parse_shape("f32[3,4]{1,0:D(D,D)T(2,2)}")), "f32[3,4]{1,0:T(2,2)}");
}

TEST(Syntax, DynamicDimsAreSizedAtTheirBound) {
  const ShapeWithLayout s = parse_shape("s32[<=4,8]{1,0}");
  EXPECT_EQ(s.dims, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(s.dynamic_dims, (std::vector<int64_t>{0}));
  EXPECT_EQ(spec::byte_size(s), 128);
}

TEST(Syntax, TuplesAsXlaPrintsThem) {
  for (const char* text : {
           "()",
           "(f32[2]{0}, (s32[], f32[2,4]{1,0}))",
           "(opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1})",
           "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])",
           "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0})",
           "token[]",
           "(f32[42]{0}, u32[<=123,<=456]{1,0})",
           "b(s32[3,4]{1,0})",
           "(b(f32[8]{0:T(8)}), token[])",
       }) {
    const Shape s = parse_any_shape(text);
    EXPECT_EQ(print_any_shape(s), text);
    EXPECT_EQ(parse_any_shape(print_any_shape(s)), s);
  }
  const Shape t = parse_any_shape("(f32[2]{0}, (s32[], f32[2,4]{1,0}))");
  const std::vector<Leaf> leaves = array_leaves(t);
  ASSERT_EQ(leaves.size(), 3u);
  EXPECT_EQ(leaves[2].path, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(print_shape(*leaves[2].array), "f32[2,4]{1,0}");
  EXPECT_THROW(parse_shape("(f32[2]{0})"), Error);
}

TEST(Syntax, NotModelledConstructsAreKeptButNotMapped) {
  for (const char* text : {"f32[8]{0:SC(0:4)}", "f32[8]{0:#(u32)}", "f32[8]{0:*(u32)}",
                           "f32[8]{0:P(f32[8]{0})}"}) {
    const ShapeWithLayout s = parse_shape(text);
    try {
      spec::validate(s);
      ADD_FAILURE() << text << " validated";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("not supported: ", 0), 0u) << e.what();
    }
  }
  // M(n) and S(n) do not change indexing.
  EXPECT_EQ(spec::byte_size(parse_shape("f32[8]{0:S(1)M(16)}")), 32);
}

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

namespace tilecheck {
namespace {

// What each kind of error of the parse cases says: the kind a case names is
// the error tilecheck finds, not only some error.
const std::map<std::string_view, std::vector<std::string_view>>& error_words() {
  static const std::map<std::string_view, std::vector<std::string_view>> words = {
      {"syntax", {"expected", "unexpected"}},
      {"unknown_element_type", {"unknown element type"}},
      {"property_order", {"out of order or repeated"}},
      {"number_too_large", {"too large for int64"}},
      {"minor_to_major_not_permutation", {"not a permutation", "is not a dim of"}},
      {"minor_to_major_length", {"entries but the shape has rank"}},
      {"tile_entry_not_positive", {"tile entry"}},
      {"empty_tile", {"empty tile"}},
      {"combine_last", {"cannot be a tile's last entry"}},
      {"negative_dim", {"is negative"}},
      {"tail_padding_below_one", {"must be at least 1"}},
      {"element_size_out_of_range", {"is outside 1..128"}},
      {"negative_memory_space", {"S(-"}},
      {"negative_metadata", {"M(-"}},
      {"size_overflow", {"overflow"}},
      {"symbolic_dim", {"symbolic dim"}},
      {"not_an_array", {"expected one array shape"}},
  };
  return words;
}

TEST(ParseCases, EachIsJudgedAsItSaysWithItsKindOfError) {
  std::set<std::string_view> names, kinds;
  for (const ParseCase& c : parse_cases()) {
    EXPECT_TRUE(names.insert(c.name).second) << "repeated name " << c.name;
    std::string error;
    try {
      spec::validate(parse_shape(c.text));
    } catch (const Error& e) {
      error = e.what();
    }
    if (c.verdict != ParseVerdict::kInvalid) {
      EXPECT_EQ(error, "") << c.name;
      EXPECT_EQ(c.error, "") << c.name;
      continue;
    }
    ASSERT_NE(error, "") << c.name << " is accepted";
    const auto words = error_words().find(c.error);
    ASSERT_NE(words, error_words().end()) << c.name << ": unknown kind " << c.error;
    kinds.insert(c.error);
    EXPECT_TRUE(std::any_of(words->second.begin(), words->second.end(),
                            [&](std::string_view w) { return error.find(w) != std::string::npos; }))
        << c.name << " (" << c.error << "): " << error;
  }
  EXPECT_EQ(kinds.size(), error_words().size()) << "a kind of error without a case";
}

}  // namespace
}  // namespace tilecheck
