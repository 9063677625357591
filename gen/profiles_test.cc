// The generator profiles (tilecheck/gen/profiles.h): every layout valid and within
// its budget; "tpu" gives only the TPU formats, each on the element width
// it belongs to; "gpu" only small tiles, with E(n) only on sub-byte types.
#include <tilecheck/gen/profiles.h>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include <tilecheck/gen/fuzzed_choices.h>
#include <tilecheck/gen/reach.h>
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::gen {
namespace {

TEST(Profiles, NamesRoundTrip) {
  for (const auto& [name, profile] : kProfiles) {
    EXPECT_EQ(profile_from_name(name), profile);
    EXPECT_EQ(profile_name(profile), name);
  }
  EXPECT_EQ(profile_from_name("cpu"), std::nullopt);
}

TEST(Profiles, TpuGivesTheTpuFormatsOnTheirWidths) {
  SeededChoices c(7);
  const RecipeLimits limits = profile_limits(Profile::kTpu, kExhaustiveLimits);
  std::set<std::string> formats;
  for (int i = 0; i < 500; ++i) {
    const ShapeWithLayout s = make_tpu_layout(c, limits);
    spec::validate(s);
    EXPECT_LE(spec::padded_element_count(s), limits.max_padded_elements) << print_shape(s);
    EXPECT_GE(s.rank(), 1);
    EXPECT_LE(s.rank(), 4);
    std::string tiles;
    for (const Tile& t : s.layout.tiles) tiles += "(" + join(t.dims) + ")";
    const int bits = natural_bit_width(s.type);
    const std::set<std::string> allowed =
        s.type == ElementType::kPred ? std::set<std::string>{"(32,128)(32,1)"}
        : bits == 32                 ? std::set<std::string>{"(8,128)", "(2,128)", "(4,128)"}
        : bits == 16                 ? std::set<std::string>{"(8,128)(2,1)"}
        : bits == 8                  ? std::set<std::string>{"(8,128)(4,1)"}
                                     : std::set<std::string>{"(8,128)(8,1)"};
    EXPECT_TRUE(allowed.count(tiles)) << print_shape(s);
    formats.insert(tiles);
  }
  EXPECT_EQ(formats.size(), 7u);  // every format comes up
}

TEST(Profiles, GpuGivesSmallTilesAndSubByteTypes) {
  SeededChoices c(7);
  int sub_byte = 0;
  for (int i = 0; i < 500; ++i) {
    const ShapeWithLayout s = make_gpu_layout(c, kExhaustiveLimits);
    spec::validate(s);
    EXPECT_LE(spec::padded_element_count(s), kExhaustiveLimits.max_padded_elements);
    for (const Tile& t : s.layout.tiles) {
      for (int64_t e : t.dims) EXPECT_LE(e, 32) << print_shape(s);
    }
    if (s.layout.element_size_bits) {
      EXPECT_LT(natural_bit_width(s.type), 8) << print_shape(s);
    }
    sub_byte += natural_bit_width(s.type) < 8;
  }
  EXPECT_GT(sub_byte, 150);
}

// A TEXT layout is shrunk into the profile's budget in every dim, even when
// it has no elements, so a harness never hands code a 2^31-row walk.
TEST(Budget, EveryDimIsBoundedEvenWithoutElements) {
  const RecipeLimits tpu = profile_limits(Profile::kTpu, kExhaustiveLimits);
  for (const char* text : {"u8[2147483647,0]{1,0:T(32,128)(4,1)}", "f32[4611686018427387904,0,4]{2,1,0}",
                           "f32[0,9223372036854775807]{1,0:T(8,128)}", "s4[3,1000000,7]{2,1,0:T(8,128)(8,1)E(4)}"}) {
    const std::optional<ShapeWithLayout> fitted = fit_for_data(parse_shape(text), tpu);
    ASSERT_TRUE(fitted.has_value()) << text;
    for (int64_t d : fitted->dims) EXPECT_LE(d, tpu.max_elements) << text << " -> " << print_shape(*fitted);
    EXPECT_LE(spec::element_count(*fitted), tpu.max_elements) << print_shape(*fitted);
    EXPECT_LE(spec::padded_element_count(*fitted), tpu.max_padded_elements) << print_shape(*fitted);
  }
  EXPECT_EQ(print_shape(*fit_for_data(parse_shape("u8[2147483647,0]{1,0:T(32,128)(4,1)}"), tpu)),
            "u8[16383,0]{1,0:T(32,128)(4,1)}");
}

}  // namespace
}  // namespace tilecheck::gen

// The reach set (tilecheck/gen/reach.h): every text a valid layout, every element
// type there, and shapes past 2^32 positions.
TEST(ReachSet, EveryLayoutIsValidAndEveryElementTypeIsThere) {
  std::set<tilecheck::ElementType> types;
  int past_2_32 = 0;
  for (const std::string& text : tilecheck::gen::reach_layouts()) {
    tilecheck::ShapeWithLayout s;
    ASSERT_NO_THROW(s = tilecheck::parse_shape(text)) << text;
    EXPECT_NO_THROW(tilecheck::spec::validate(s)) << text;
    types.insert(s.type);
    past_2_32 += tilecheck::spec::padded_element_count(s) > (int64_t{1} << 32);
  }
  EXPECT_EQ(types.size(), tilecheck::all_element_types().size());
  EXPECT_GE(past_2_32, 10);
}

// The size layouts (size_layouts(), tilecheck/gen/reach.h): every split that layout
// code makes in dense order -- every multiple of 2^16 elements, and the
// starts of 4 shares of the elements rounded up to 8 -- falls inside a
// first-level tile and, for sub-byte types, inside a byte of the physical
// buffer, so that work split there shares a tile and a byte across the
// split. Every width class, both dim orders, past 2^16 and 2^20 elements.
TEST(ReachSet, EverySplitOfTheSizeLayoutsFallsInsideAByteAndATile) {
  std::set<std::pair<int64_t, std::vector<int64_t>>> classes;  // (bits, order) past 2^20
  for (const std::string& text : tilecheck::gen::size_layouts()) {
    const tilecheck::ShapeWithLayout s = tilecheck::parse_shape(text);
    ASSERT_FALSE(s.layout.tiles.empty()) << text;
    const int64_t count = tilecheck::spec::element_count(s);
    EXPECT_GT(count, int64_t{1} << 16) << text;
    std::vector<int64_t> splits;
    for (int64_t at = int64_t{1} << 16; at < count; at += int64_t{1} << 16) splits.push_back(at);
    const int64_t share = ((count + 3) / 4 + 7) / 8 * 8;
    for (int k = 1; k < 4; ++k) splits.push_back(k * share);
    int64_t tile = 1;
    for (int64_t t : s.layout.tiles.front().dims) tile *= t;
    for (const int64_t at : splits) {
      tilecheck::spec::Int64Domain a;
      const int64_t position =
          tilecheck::spec::linear_index(s, tilecheck::spec::row_major_coordinates(a, at, s.dims));
      EXPECT_NE(position % tile, 0) << text << ": element " << at << " starts a tile";
      if (s.element_bits() < 8) {
        EXPECT_NE(position * s.element_bits() % 8, 0) << text << ": element " << at << " starts a byte";
      }
    }
    // Both dims ragged under the tile.
    for (size_t j = 0; j < 2; ++j) {
      const int64_t entry = s.layout.tiles.front().dims[1 - j];
      EXPECT_NE(s.dims[static_cast<size_t>(s.layout.minor_to_major[j])] % entry, 0) << text;
    }
    if (count > (int64_t{1} << 20)) {
      classes.insert({s.element_bits() * (s.layout.element_size_bits ? -1 : 1), s.layout.minor_to_major});
    }
  }
  // 1, 2 and 4 bits with and without E(n), 8, 16, 32, 64: ten, in two orders.
  EXPECT_EQ(classes.size(), 20u);
}
