#include <tilecheck/testing/fuzz_seeds.h>

#include <tilecheck/gen/fuzzed_choices.h>
#include <tilecheck/gen/profiles.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::testing {

namespace {

// The choices fuzz_case reads after a TEXT layout (the dense data: two flips
// and a seed of 40 bits) fit in 8 bytes.
constexpr size_t kChoiceBytes = 8;

std::string as_string(const std::vector<uint8_t>& bytes) { return std::string(bytes.begin(), bytes.end()); }

// A TEXT seed of a valid `shape`: its text, as many pseudo-random bytes as
// its physical buffer holds once shrunk to the profile's budget (the
// front-read bytes of an unpack harness), then the choice bytes.
FuzzSeed text_seed(std::string name, const ShapeWithLayout& shape, const gen::RecipeLimits& limits, uint64_t salt) {
  ShapeWithLayout fitted = shape;
  gen::fit_to_budget(fitted, limits);
  const size_t physical = static_cast<size_t>(spec::byte_size(fitted));
  const std::string data = as_string(gen::random_bytes(salt, physical + kChoiceBytes));
  return FuzzSeed{std::move(name), gen::text_input({print_shape(shape)}, data), print_shape(fitted)};
}

}  // namespace

std::vector<FuzzSeed> fuzz_seeds(const FuzzSeedOptions& options) {
  const std::optional<gen::Profile> profile = gen::profile_from_name(options.profile);
  if (!profile) {
    throw Error("unknown profile '" + options.profile + "' (general, tpu or gpu)");
  }
  if (options.recipe_seeds < 0) throw Error("the number of recipe seeds is negative");
  const gen::RecipeLimits limits = gen::profile_limits(*profile, gen::kExhaustiveLimits);
  std::vector<FuzzSeed> seeds;
  uint64_t salt = 1;
  if (options.catalog) {
    for (const CatalogEntry& entry : catalog()) {
      // Every entry validates (the catalogue's own test says so).
      seeds.push_back(text_seed("catalog_" + std::string(entry.name), parse_shape(entry.layout), limits, salt++));
    }
  }
  for (size_t k = 0; k < options.layouts.size(); ++k) {
    const std::string& text = options.layouts[k];
    ShapeWithLayout shape;
    try {
      shape = parse_shape(text);
      spec::validate(shape);
    } catch (const Error& e) {
      throw Error("layout '" + text + "': " + e.what());
    }
    // Printed canonically (text_seed), so that the seed holds text the parser reads back.
    seeds.push_back(text_seed("layout_" + std::to_string(k + 1), shape, limits, salt++));
  }
  for (int k = 1; k <= options.recipe_seeds; ++k) {
    // From 16 bytes (a small layout, little data) to a few hundred.
    std::vector<uint8_t> bytes = gen::random_bytes(0x5eed0000 + k, 16 * static_cast<size_t>(k));
    bytes.back() &= 0xFE;  // RECIPE mode
    seeds.push_back(FuzzSeed{"recipe_" + std::to_string(k), as_string(bytes), ""});
  }
  return seeds;
}

}  // namespace tilecheck::testing
