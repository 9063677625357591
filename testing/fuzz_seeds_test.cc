// The seeds of tilecheck-fuzz-seeds read back through the harnesses' own
// decoding (fuzz_case): each TEXT seed gives the layout it names, with a
// whole physical buffer left for an unpack harness; each RECIPE seed a
// valid layout.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/testing/fuzz.h>
#include <tilecheck/testing/fuzz_seeds.h>

namespace tilecheck::testing {
namespace {

const uint8_t* data(const FuzzSeed& seed) { return reinterpret_cast<const uint8_t*>(seed.bytes.data()); }

TEST(FuzzSeeds, EachSeedGivesTheHarnessItsLayoutAndAWholeBuffer) {
  for (const char* profile : {"general", "tpu", "gpu"}) {
    FuzzSeedOptions options;
    options.profile = profile;
    options.layouts = {"bf16[4,200]{1,0:T(8,128)(2,1)}", "s4[1000,1000]{1,0:T(8,128)(8,1)E(4)}"};
    const std::vector<FuzzSeed> seeds = fuzz_seeds(options);
    std::set<std::string> names;
    int text = 0;
    for (const FuzzSeed& seed : seeds) {
      SCOPED_TRACE(std::string(profile) + " " + seed.name);
      EXPECT_TRUE(names.insert(seed.name).second);
      FuzzedDataProvider input(data(seed), seed.bytes.size());
      const FuzzCase c = fuzz_case(input, profile);
      if (seed.layout.empty()) {
        EXPECT_EQ(seed.bytes.back() & 1, 0);  // RECIPE
        continue;
      }
      ++text;
      EXPECT_EQ(print_shape(c.layout), seed.layout);
      EXPECT_EQ(c.dense.size(), static_cast<size_t>(spec::dense_byte_size(c.layout)));
      EXPECT_GE(input.remaining_bytes(), static_cast<size_t>(spec::byte_size(c.layout)));
    }
    EXPECT_EQ(seeds.size(), static_cast<size_t>(text + options.recipe_seeds));
    EXPECT_EQ(text, static_cast<int>(catalog().size() + 2));
    // Within every profile's budget (800 elements, 1,024 positions): as written.
    EXPECT_EQ(seeds[seeds.size() - options.recipe_seeds - 2].layout, options.layouts[0]);
    // Too large for any profile's budget: shrunk, as the harness shrinks it.
    EXPECT_NE(seeds[seeds.size() - options.recipe_seeds - 1].layout, options.layouts[1]);
  }
}

TEST(FuzzSeeds, BadOptionsAreErrorsThatNameThem) {
  FuzzSeedOptions options;
  options.profile = "cpu";
  EXPECT_THROW(
      {
        try {
          fuzz_seeds(options);
        } catch (const Error& e) {
          EXPECT_STREQ(e.what(), "unknown profile 'cpu' (general, tpu or gpu)");
          throw;
        }
      },
      Error);
  options.profile = "tpu";
  options.layouts = {"f32[3,5]{1,0:T(0,2)}"};
  try {
    fuzz_seeds(options);
    ADD_FAILURE() << "an invalid layout was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("layout 'f32[3,5]{1,0:T(0,2)}': ", 0), 0u) << e.what();
  }
}

TEST(FuzzSeeds, TheDictionaryHoldsTheSyntaxTokens) {
  const std::string_view dictionary = layout_dictionary();
  EXPECT_NE(dictionary.find("tile=\"T(\""), std::string_view::npos);
  EXPECT_NE(dictionary.find("\"bf16\""), std::string_view::npos);
}

}  // namespace
}  // namespace tilecheck::testing
