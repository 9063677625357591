// The testing kit as a user meets it: hand-written pack, index and detile
// code, correct and broken the way a team writes it by mistake (a sub-tile
// forgotten, nibbles in the wrong order, values moved through float
// arithmetic, an index transposed), checked with the GoogleTest assertions
// (gtest.h) and the RapidCheck ones (rapidcheck.h). Each broken variant
// must fail with a message that names what a person needs.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testing/hand_written.h"
#include <tilecheck/testing/gmock.h>
#include <tilecheck/testing/gtest.h>
#include <tilecheck/testing/family.h>
#include <tilecheck/testing/fuzz.h>
#include <tilecheck/testing/rapidcheck.h>

namespace {

using tilecheck::testing::example::pack_bf16_8x128_2x1;
using tilecheck::testing::example::pack_tiled;
using tilecheck::testing::example::pack_s4;

// f32[4]{0} "packed" by a copy through float arithmetic, as a kernel that
// scales by one does: a signalling NaN comes out quiet.
std::vector<float> copy_through_arithmetic(const std::vector<float>& dense) {
  volatile float one = 1.0f;  // not folded away: the multiply runs
  std::vector<float> out;
  for (const float v : dense) out.push_back(v * one);
  return out;
}

std::vector<uint16_t> counting(int n) {
  std::vector<uint16_t> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<uint16_t>(i + 1);
  return v;
}

constexpr const char* kBf16 = "bf16[16,256]{1,0:T(8,128)(2,1)}";

TEST(TestingKit, ACorrectPackPasses) {
  const std::vector<uint16_t> dense = counting(16 * 256);
  EXPECT_PACKS_AS_SPEC(kBf16, dense, pack_bf16_8x128_2x1(dense, 16, 256));
  const std::vector<int8_t> s4 = {1, -2, 7, -8, 0};
  EXPECT_PACKS_AS_SPEC("s4[5]{0:E(4)}", s4, pack_s4(s4));
  EXPECT_BYTE_SIZE_AS_SPEC("f32[3,5]{1,0:T(2,2)}", 96);
  EXPECT_LINEAR_INDEX_AS_SPEC("f32[3,5]{1,0:T(2,2)}", (std::vector<int64_t>{2, 3}), 17);
  EXPECT_DELINEARIZES_AS_SPEC("f32[3,5]{1,0:T(2,2)}", 17, (std::vector<int64_t>{2, 3}));
  EXPECT_DELINEARIZES_AS_SPEC("f32[3,5]{1,0:T(2,2)}", 23, std::nullopt);
  EXPECT_UNPACKS_AS_SPEC("s4[5]{0:E(4)}", pack_s4(s4), s4);
}

TEST(TestingKit, AForgottenSubTileNamesTheFirstWrongElement) {
  const std::vector<uint16_t> dense = counting(16 * 256);
  // Element (0,0) is right in both; the first difference is position 1,
  // which holds element (1,0) (row pairs interleaved), not (0,1).
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC(kBf16, dense, pack_bf16_8x128_2x1(dense, 16, 256, true)),
                          "first differing byte  2 of 8192 (position 1 = element (1,0))");
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC(kBf16, dense, pack_bf16_8x128_2x1(dense, 16, 256, true)),
                          "pack of bf16[16,256]{1,0:T(8,128)(2,1)} disagrees with the spec: wrong packed bytes");
  // A bf16 element is shown whole, and the actual one named by its value:
  // element (0,1) landed where (1,0) belongs. Of 8,192 bytes, a window of
  // 32 around the first difference is shown, not the whole buffer.
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC(kBf16, dense, pack_bf16_8x128_2x1(dense, 16, 256, true)),
                          "  expected              0x0101\n"
                          "  actual                0x0002 (the value of element (0,1))\n"
                          "  expected bytes 0..31  [01 00 01 01 02 00 02 01");
  // An unpack names the position whose value it read.
  EXPECT_NONFATAL_FAILURE(
      EXPECT_UNPACKS_AS_SPEC(kBf16, pack_bf16_8x128_2x1(dense, 16, 256),
                             tilecheck::testing::example::unpack_bf16_8x128_2x1(pack_bf16_8x128_2x1(dense, 16, 256), 16, 256, true)),
      "  actual                0x0101 (the value of position 1 = element (1,0))");
}

TEST(TestingKit, NibblesInTheWrongOrderShowTheBytes) {
  const std::vector<int8_t> s4 = {1, -2, 7, -8};
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC("s4[4]{0:E(4)}", s4, pack_s4(s4, true)),
                          "expected              0xe1");
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC("s4[4]{0:E(4)}", s4, pack_s4(s4, true)),
                          "actual buffer         [1e 78]");
}

TEST(TestingKit, ValuesMovedThroughArithmeticAreNamedByClass) {
  uint32_t bits = 0x7fa00001;  // a signalling NaN
  float snan;
  std::memcpy(&snan, &bits, 4);
  const std::vector<float> dense = {1.0f, snan, -0.0f, 2.5f};
  const std::vector<float> packed = copy_through_arithmetic(dense);
  if (std::memcmp(packed.data(), dense.data(), 16) == 0) GTEST_SKIP() << "this CPU's multiply keeps sNaNs";
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC("f32[4]{0}", dense, packed),
                          "values changed within their class: 1 signalling NaN written quiet");
}

TEST(TestingKit, WrongIndicesAndPositions) {
  // A transposed index: the column-major position of (2,3).
  EXPECT_NONFATAL_FAILURE(
      EXPECT_LINEAR_INDEX_AS_SPEC("f32[3,5]{1,0:T(2,2)}", (std::vector<int64_t>{2, 3}), 11),
      "wrong linear index\n  element   (2,3)\n  expected  17\n  actual    11");
  EXPECT_NONFATAL_FAILURE(EXPECT_DELINEARIZES_AS_SPEC("f32[3,5]{1,0:T(2,2)}", 23, (std::vector<int64_t>{2, 4})),
                          "expected  padding\n  actual    element (2,4)");
  EXPECT_NONFATAL_FAILURE(EXPECT_BYTE_SIZE_AS_SPEC("f32[3,5]{1,0:T(2,2)}", 60),
                          "wrong byte size\n  expected  96 bytes\n  actual    60 bytes");
}

TEST(TestingKit, BadArgumentsAreMessagesNotCrashes) {
  const std::vector<uint8_t> short_buffer(10);
  const std::vector<float> dense(15);
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC("f32[3,5]{1,0:T(2,2)}", dense, short_buffer),
                          "the packed buffer has 10 bytes; f32[3,5]{1,0:T(2,2)} needs 96");
  EXPECT_NONFATAL_FAILURE(EXPECT_UNPACKS_AS_SPEC("f32[3,5]{1,0:T(2,2)}", short_buffer, dense),
                          "the packed buffer has 10 bytes");
  EXPECT_NONFATAL_FAILURE(EXPECT_PACKS_AS_SPEC("f32[3,5]{1,0:T(2,2)}", short_buffer, short_buffer),
                          "the dense array has 10 bytes; f32[3,5]{1,0:T(2,2)} needs 60");
  EXPECT_NONFATAL_FAILURE(EXPECT_BYTE_SIZE_AS_SPEC("f32[3,5]{1,0:T(0,2)}", 96), "is not a valid layout");
  EXPECT_NONFATAL_FAILURE(EXPECT_LINEAR_INDEX_AS_SPEC("f32[3,5]{1,0}", (std::vector<int64_t>{3, 0}), 15),
                          "element (3,0) is not an element of f32[3,5]{1,0}");
  EXPECT_NONFATAL_FAILURE(EXPECT_LINEAR_INDEX_AS_SPEC("f32[3,5]{1,0}", (std::vector<int64_t>{1}), 1),
                          "element (1) is not an element");
  EXPECT_NONFATAL_FAILURE(EXPECT_DELINEARIZES_AS_SPEC("f32[3,5]{1,0}", -1, std::nullopt),
                          "position -1 is not in [0, 15)");
}

TEST(TestingKit, MatchersExplainAMismatch) {
  using tilecheck::testing::IsSpecLinearIndexOf;
  using tilecheck::testing::IsSpecPackOf;
  using tilecheck::testing::IsSpecUnpackOf;
  const std::vector<int8_t> s4 = {1, -2, 7, -8};
  EXPECT_THAT(pack_s4(s4), IsSpecPackOf("s4[4]{0:E(4)}", s4));
  EXPECT_THAT(s4, IsSpecUnpackOf("s4[4]{0:E(4)}", pack_s4(s4)));
  EXPECT_THAT(17, IsSpecLinearIndexOf("f32[3,5]{1,0:T(2,2)}", std::vector<int64_t>{2, 3}));
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(pack_s4(s4, true), IsSpecPackOf("s4[4]{0:E(4)}", s4)),
                          "Expected: is the spec's pack in s4[4]{0:E(4)}");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(pack_s4(s4, true), IsSpecPackOf("s4[4]{0:E(4)}", s4)),
                          "first differing byte  0 of 2 (position 0 = element (0); position 1 = element (1))");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(11, IsSpecLinearIndexOf("f32[3,5]{1,0:T(2,2)}", std::vector<int64_t>{2, 3})),
                          "expected  17");
}

// Inside a property: the broken nibble order fails on some array, and
// RapidCheck shrinks it; the correct one passes every array.
TEST(TestingKit, RapidCheckAssertionsFailABrokenPackAndPassACorrectOne) {
  const auto property = [](bool broken) {
    return rc::check("s4 pack", [broken] {
      const auto dense = *rc::gen::container<std::vector<int8_t>>(rc::gen::inRange<int8_t>(-8, 8));
      const std::string layout = "s4[" + std::to_string(dense.size()) + "]{0:E(4)}";
      RC_ASSERT_PACKS_AS_SPEC(layout, dense, pack_s4(dense, broken));
    });
  };
  EXPECT_TRUE(property(false));
  EXPECT_FALSE(property(true));
}

// The generators: valid layouts within the filter, dense arrays of the
// layout's size with float specials, and set-up errors for filters that
// cannot be met.
TEST(TestingKit, GeneratedLayoutsAreValidAndWithinTheFilter) {
  using tilecheck::testing::layouts;
  EXPECT_TRUE(rc::check("any layout", [](const tilecheck::ShapeWithLayout& shape) {
    RC_ASSERT(tilecheck::spec::parse_layout(tilecheck::print_shape(shape)) == shape);
  }));
  EXPECT_TRUE(rc::check("tpu bf16 rank <= 2", [] {
    const auto shape = *layouts("tpu", {"bf16"}, 2);
    RC_ASSERT(shape.type == tilecheck::ElementType::kBF16);
    RC_ASSERT(shape.rank() <= 2);
    RC_ASSERT(!shape.layout.tiles.empty());
  }));
}

TEST(TestingKit, DenseArraysFitTheLayoutAndCarryFloatSpecials) {
  int arrays_with_snan = 0, arrays_with_denormal = 0;
  EXPECT_TRUE(rc::check("f32 arrays", [&] {
    const auto shape = tilecheck::spec::parse_layout("f32[8,32]{1,0:T(8,8)}");
    const std::vector<uint8_t> dense = *tilecheck::testing::dense_arrays(shape);
    RC_ASSERT(static_cast<int64_t>(dense.size()) == tilecheck::spec::dense_byte_size(shape));
    bool snan = false, denormal = false;
    for (size_t i = 0; i < dense.size(); i += 4) {
      uint32_t v;
      std::memcpy(&v, &dense[i], 4);
      snan |= (v & 0x7fc00000) == 0x7f800000 && (v & 0x3fffff) != 0;
      denormal |= (v & 0x7f800000) == 0 && (v & 0x7fffff) != 0;
    }
    arrays_with_snan += snan;
    arrays_with_denormal += denormal;
  }));
  EXPECT_GT(arrays_with_snan, 10);
  EXPECT_GT(arrays_with_denormal, 10);
}

TEST(TestingKit, PackedBuffersHaveTheLayoutsByteSize) {
  EXPECT_TRUE(rc::check("packed buffers", [] {
    const auto shape = *tilecheck::testing::layouts();
    const std::vector<uint8_t> packed = *tilecheck::testing::packed_buffers(shape);
    RC_ASSERT(static_cast<int64_t>(packed.size()) == tilecheck::spec::byte_size(shape));
  }));
}

// A pack written for bf16 weights that forgets its sub-tile, in a property
// over the TPU profile's bf16 layouts it claims: RapidCheck finds it.
TEST(TestingKit, AGeneratedPropertyFindsTheForgottenSubTile) {
  const auto property = [](bool broken) {
    return rc::check("bf16 (8,128)(2,1) pack", [broken] {
      const auto shape = *tilecheck::testing::layouts("tpu", {"bf16"}, 2);
      RC_PRE((shape.rank() == 2 && shape.layout.minor_to_major == std::vector<int64_t>{1, 0}));
      RC_PRE((shape.layout.tiles.size() == 2 && shape.layout.tiles[0].dims == std::vector<int64_t>{8, 128} &&
              shape.layout.tiles[1].dims == std::vector<int64_t>{2, 1}));
      const std::vector<uint8_t> bytes = *tilecheck::testing::dense_arrays(shape);
      std::vector<uint16_t> dense(bytes.size() / 2);
      std::memcpy(dense.data(), bytes.data(), bytes.size());
      const int rows = static_cast<int>(shape.dims[0]), cols = static_cast<int>(shape.dims[1]);
      RC_ASSERT_PACKS_AS_SPEC(shape, dense, pack_bf16_8x128_2x1(dense, rows, cols, broken));
    });
  };
  EXPECT_TRUE(property(false));
  EXPECT_FALSE(property(true));
}

TEST(TestingKit, AFilterThatCannotBeMetIsAnErrorAtSetUp) {
  using tilecheck::testing::layouts;
  EXPECT_THROW(layouts("cpu"), tilecheck::Error);
  EXPECT_THROW(layouts("general", {"f31"}), tilecheck::Error);
  try {
    layouts("tpu", {}, 0);
    ADD_FAILURE() << "no error";
  } catch (const tilecheck::Error& e) {
    EXPECT_STREQ(e.what(), "layouts(): the profile 'tpu' draws no layout of rank at most 0 (in 4,096 draws)");
  }
}

// Families: the sizes drawn for each open dim, layouts that are members and
// keep within the budget, set-up errors that name the text.
TEST(TestingKit, AFamilyDrawsTheEdgesOfEachTileOnItsOwnDim) {
  const tilecheck::testing::Family u8 = tilecheck::testing::family("u8[?,?]{1,0:T(32,128)(4,1)}");
  ASSERT_EQ(u8.members().size(), 1u);
  // Rows: the (32,128) tile's 32 and the (4,1) sub-tile's 4; columns: 128.
  EXPECT_EQ(u8.members()[0].sizes[0], (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 31, 32, 33, 63, 64, 65, 97}));
  EXPECT_EQ(u8.members()[0].sizes[1], (std::vector<int64_t>{0, 1, 2, 3, 127, 128, 129, 255, 256, 257, 385}));
  // A dim written as a number is the text's; s4's two elements a byte land
  // on the most minor dim, which minor_to_major {0,1} makes dim 0, with the
  // tile's 128.
  const tilecheck::testing::Family s4 =
      tilecheck::testing::family("s4[?,6]{0,1:T(8,128)(8,1)E(4)}", {.max_elements = 1000, .zero_dims = false});
  EXPECT_TRUE(s4.members()[0].sizes[1].empty());
  EXPECT_EQ(s4.members()[0].sizes[0], (std::vector<int64_t>{1, 2, 3, 4, 5, 7, 127, 128, 129, 255, 256, 257, 385}));
  EXPECT_TRUE(s4.contains(tilecheck::spec::parse_layout("s4[5,6]{0,1:T(8,128)(8,1)E(4)}")));
  EXPECT_FALSE(s4.contains(tilecheck::spec::parse_layout("s4[5,7]{0,1:T(8,128)(8,1)E(4)}")));
  EXPECT_FALSE(s4.contains(tilecheck::spec::parse_layout("s4[0,6]{0,1:T(8,128)(8,1)E(4)}")));
  EXPECT_FALSE(s4.contains(tilecheck::spec::parse_layout("s4[5,6]{0,1:T(8,128)E(4)}")));
  // Over the budget, the largest open dim is cut back to the largest of its
  // sizes at most half of it.
  EXPECT_EQ(tilecheck::print_shape(s4.fit(0, {385, 6})), "s4[129,6]{0,1:T(8,128)(8,1)E(4)}");
}

// The harnesses' structure-aware mutator, applied again and again from one
// TEXT seed: every input it writes reads back (fuzz_case) as a layout of the
// source, and the steps reach many other layouts -- over a family by its
// open dims only, over a profile also by tiles, order and type.
std::set<std::string> layouts_reached_by_mutation(const tilecheck::testing::detail::FuzzSource& source,
                                                  const std::string& seed_text) {
  const std::string seed = tilecheck::gen::text_input({seed_text}, std::string(16, '\x07'));
  std::set<std::string> reached;
  std::vector<uint8_t> input(seed.begin(), seed.end());
  for (unsigned step = 0; step < 400; ++step) {
    std::vector<uint8_t> next = input;
    next.resize(4096);
    next.resize(source.mutate(next.data(), input.size(), next.size(), step));
    FuzzedDataProvider provider(next.data(), next.size());
    const tilecheck::testing::FuzzCase c = source.next(provider);
    EXPECT_NO_THROW(tilecheck::spec::validate(c.layout)) << tilecheck::print_shape(c.layout);
    if (source.family) {
      EXPECT_TRUE(source.family->contains(c.layout)) << tilecheck::print_shape(c.layout);
    }
    reached.insert(tilecheck::print_shape(c.layout));
    if (step % 8 == 0) input = next;  // a walk, not only single steps from the seed
  }
  return reached;
}

// A mutated input reads back as the mutated layout, and everything read
// after the layout (the data, the later choices) reads as before: the
// mutation changes the layout and nothing else.
TEST(TestingKit, AMutatedInputKeepsEverythingAfterItsLayout) {
  using Choices = tilecheck::gen::FuzzedChoices<FuzzedDataProvider>;
  const auto draw = [](uint8_t, Choices& c) -> std::optional<tilecheck::ShapeWithLayout> {
    return tilecheck::gen::make_layout(c, tilecheck::gen::RecipeLimits{});
  };
  const auto later_reads = [](FuzzedDataProvider& p) {
    std::vector<int64_t> v;
    for (int i = 0; i < 12; ++i) v.push_back(p.ConsumeIntegralInRange<int64_t>(0, 1000));
    return v;
  };
  int checked = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    std::vector<uint8_t> input = tilecheck::gen::random_bytes(seed, 40 + seed % 60);
    if (seed % 2) {  // TEXT mode
      const std::string text = tilecheck::gen::text_input({"bf16[17,260]{1,0:T(8,128)(2,1)}"},
                                                          std::string(input.begin(), input.end()));
      input.assign(text.begin(), text.end());
    } else {
      input.back() &= 0xfe;  // RECIPE mode
    }
    const std::optional<tilecheck::gen::DecodedLayout> d =
        tilecheck::gen::decode_first_layout(input.data(), input.size(), draw);
    ASSERT_TRUE(d.has_value()) << seed;
    tilecheck::gen::SeededChoices c(seed);
    const tilecheck::ShapeWithLayout mutated = tilecheck::gen::mutate_layout(d->layout, c);
    const std::vector<uint8_t> out = tilecheck::gen::encode_first_layout(input.data(), *d, mutated, input.size(), 4096);
    ASSERT_FALSE(out.empty());

    FuzzedDataProvider before(input.data(), input.size()), after(out.data(), out.size());
    Choices cb(before);
    const uint8_t mode = before.ConsumeIntegral<uint8_t>();
    (mode & 1) ? (void)tilecheck::gen::consume_layout_text(before) : (void)draw(mode, cb);
    ASSERT_EQ(after.ConsumeIntegral<uint8_t>() & 1, 1);
    const std::optional<tilecheck::ShapeWithLayout> read = tilecheck::gen::consume_layout_text(after);
    // What the mutation wrote is read back; a text the parser refuses
    // (mutations may leave the valid layouts) reads as nullopt.
    if (read) {
      EXPECT_EQ(tilecheck::print_shape(*read), tilecheck::print_shape(mutated)) << seed;
      ++checked;
    }
    EXPECT_EQ(later_reads(before), later_reads(after)) << seed;
  }
  EXPECT_GT(checked, 250);
}

TEST(TestingKit, TheHarnessMutatorStepsToOtherLayoutsOfTheSource) {
  const tilecheck::testing::Family family = tilecheck::testing::family("u8[?,?]{1,0:T(32,128)(4,1)}");
  const auto over_family = tilecheck::testing::detail::fuzz_source(family, "pack");
  const std::set<std::string> by_dims = layouts_reached_by_mutation(over_family, "u8[33,129]{1,0:T(32,128)(4,1)}");
  EXPECT_GT(by_dims.size(), 30u);
  const auto over_profile = tilecheck::testing::detail::fuzz_source("tpu", "pack");
  const std::set<std::string> by_structure = layouts_reached_by_mutation(over_profile, "f32[9,129]{1,0:T(8,128)}");
  EXPECT_GT(by_structure.size(), 30u);
  // Other tiles, orders and types than the seed's, not only other dims.
  EXPECT_TRUE(std::any_of(by_structure.begin(), by_structure.end(),
                          [](const std::string& t) { return t.find("T(8,128)}") == std::string::npos; }));
  EXPECT_TRUE(std::any_of(by_structure.begin(), by_structure.end(),
                          [](const std::string& t) { return t.rfind("f32", 0) != 0; }));
}

TEST(TestingKit, FamilyLayoutsAreMembersWithinTheBudget) {
  const tilecheck::testing::Family family = tilecheck::testing::family(
      {"bf16[?,?]{1,0:T(8,128)(2,1)}", "f32[2,?,?]{0,2,1:T(8,128)}", "pred[?]{0:T(1024)E(1)}"},
      {.max_elements = 4096});
  std::set<std::string> members;
  EXPECT_TRUE(rc::check("family layouts", [&] {
    const tilecheck::ShapeWithLayout shape = *tilecheck::testing::layouts(family);
    RC_ASSERT(family.contains(shape));
    RC_ASSERT(tilecheck::spec::element_count(shape) <= 4096);
    tilecheck::spec::validate(shape);
    members.insert(family.members()[family.member_of(shape)].text);
  }));
  EXPECT_EQ(members.size(), 3u);
  // Two texts in braces are two texts, not a string's iterator pair.
  EXPECT_EQ(tilecheck::testing::family({"f32[?,?]{1,0:T(8,128)}", "bf16[?,?]{1,0:T(8,128)(2,1)}"}).members().size(), 2u);
  EXPECT_EQ(tilecheck::testing::family(std::string("f32[?]{0}")).text(), "f32[?]{0}");
}

TEST(TestingKit, AFamilyThatIsNoLayoutIsAnErrorNamingTheText) {
  const auto message = [](const std::vector<std::string>& texts, tilecheck::testing::FamilyOptions options = {}) {
    try {
      tilecheck::testing::family(texts, options);
    } catch (const tilecheck::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({"f32[?,?]{1,0:T(8,128)}", "f32[?,?]{1,0:T(0,128)}"}),
            "family(): 'f32[?,?]{1,0:T(0,128)}': column 16: tile entry 0 must be >= 1 (or '*' to combine dims)");
  EXPECT_EQ(message({"f32[?,?]{1,1}"}).substr(0, 51), "family(): 'f32[?,?]{1,1}': column 9: minor_to_major");
  EXPECT_EQ(message({"f32[?,4611686018427387904]{1,0}"}).substr(0, 84),
            "family(): 'f32[?,4611686018427387904]{1,0}': not a valid layout (with each '?' at 1)");
  EXPECT_EQ(message({"u8[300,300,?]{2,1,0}"}, {.max_elements = 65536}),
            "family(): 'u8[300,300,?]{2,1,0}': its written dims alone hold more than max_elements (65536) elements");
  EXPECT_EQ(message({}), "family(): no layout text given");
  EXPECT_EQ(message({"u8[?]{0}"}, {.max_elements = 0}), "family(): max_elements must be in 1..2^40, not 0");
}

// Hostile families: a tile past any budget, twenty open dims, a text of a
// megabyte; each is drawn within the budget or refused with a message.
TEST(TestingKit, HostileFamiliesAreDrawnWithinTheBudgetOrRefused) {
  std::string twenty = "u8[?";
  for (int d = 1; d < 20; ++d) twenty += ",?";
  twenty += "]{";
  for (int d = 19; d >= 0; --d) twenty += std::to_string(d) + (d ? "," : "}");
  const tilecheck::testing::Family huge_tile = tilecheck::testing::family("pred[?]{0:T(2305843009213693952)E(1)}");
  const tilecheck::testing::Family many = tilecheck::testing::family(twenty, {.max_elements = 1 << 12});
  EXPECT_TRUE(rc::check("hostile families", [&] {
    for (const tilecheck::testing::Family* f : {&huge_tile, &many}) {
      const tilecheck::ShapeWithLayout shape = *tilecheck::testing::layouts(*f);
      RC_ASSERT(f->contains(shape));
      RC_ASSERT(tilecheck::spec::element_count(shape) <= f->options().max_elements);
    }
  }));
  EXPECT_THROW(tilecheck::testing::family("u8[" + std::string(1 << 20, '?') + "]{0}"), tilecheck::Error);
}

template <class T>
std::vector<T> elements_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// The layout of a failed property's counterexample, or "" when it did not fail.
std::string counterexample_layout(const rc::detail::TestResult& result) {
  const auto* failure = result.is<rc::detail::FailureResult>() ? &result.get<rc::detail::FailureResult>() : nullptr;
  if (!failure) return "";
  for (const auto& [type, value] : failure->counterExample) {
    if (type == "tilecheck::ShapeWithLayout") return value;
  }
  return "?";
}

// A pack written for one format that walks its tiles in the wrong order, in
// a property over its own family, with 20 seeds: found every time, and
// shrunk to the smallest array that shows the bug -- two tiles plus one
// element in each dim -- in most runs.
TEST(TestingKit, AFamilyPropertyShrinksTheTileOrderBugToItsSmallestCase) {
  struct Case {
    const char* family;
    int rows_per_tile, sub_rows;
    const char* minimal;
  };
  for (const Case& k : {Case{"f32[?,?]{1,0:T(8,128)}", 8, 1, "f32[9,129]{1,0:T(8,128)}"},
                        Case{"u8[?,?]{1,0:T(32,128)(4,1)}", 32, 4, "u8[33,129]{1,0:T(32,128)(4,1)}"}}) {
    const tilecheck::testing::Family family = tilecheck::testing::family(k.family);
    const bool f32 = std::string(k.family).starts_with("f32");
    int caught = 0, minimal = 0;
    std::string shrunk;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      rc::detail::TestParams params;
      params.seed = seed;
      const rc::detail::TestResult result = rc::detail::checkTestable(
          [&] {
            const tilecheck::ShapeWithLayout shape = *tilecheck::testing::layouts(family);
            const std::vector<uint8_t> dense = *tilecheck::testing::dense_arrays(shape);
            const int rows = static_cast<int>(shape.dims[0]), cols = static_cast<int>(shape.dims[1]);
            if (f32) {
              RC_ASSERT_PACKS_AS_SPEC(shape, dense,
                                      pack_tiled(elements_of<uint32_t>(dense), rows, cols, k.rows_per_tile, k.sub_rows, true));
            } else {
              RC_ASSERT_PACKS_AS_SPEC(shape, dense, pack_tiled(dense, rows, cols, k.rows_per_tile, k.sub_rows, true));
            }
          },
          rc::detail::TestMetadata{}, params);
      const std::string layout = counterexample_layout(result);
      caught += !layout.empty();
      minimal += layout == k.minimal;
      shrunk += " " + layout;
    }
    EXPECT_EQ(caught, 20) << k.family << shrunk;
    EXPECT_GE(minimal, 15) << k.family << " shrunk to" << shrunk;
    std::printf("%s: caught in 20 of 20 runs, shrunk to %s in %d\n", k.family, k.minimal, minimal);
    // The pack as written passes the same property.
    EXPECT_TRUE(rc::check(k.family, [&] {
      const tilecheck::ShapeWithLayout shape = *tilecheck::testing::layouts(family);
      const std::vector<uint8_t> dense = *tilecheck::testing::dense_arrays(shape);
      const int rows = static_cast<int>(shape.dims[0]), cols = static_cast<int>(shape.dims[1]);
      if (f32) {
        RC_ASSERT_PACKS_AS_SPEC(shape, dense, pack_tiled(elements_of<uint32_t>(dense), rows, cols, k.rows_per_tile, k.sub_rows));
      } else {
        RC_ASSERT_PACKS_AS_SPEC(shape, dense, pack_tiled(dense, rows, cols, k.rows_per_tile, k.sub_rows));
      }
    }));
  }
}

// A generated array shows in a counterexample as its size and first bytes.
TEST(TestingKit, AGeneratedArrayShowsItsSizeAndFirstBytes) {
  tilecheck::testing::Bytes bytes(100);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  std::ostringstream shown;
  rc::show(bytes, shown);
  EXPECT_EQ(shown.str(),
            "100 bytes: [00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f ...]");
}

}  // namespace
