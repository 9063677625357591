// The recipe reaches every feature it promises (its header's list of features),
// driven by a seeded random source instead of RapidCheck, which also shows
// the recipe works with any source of choices.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/spec/semantics.h>

namespace tilecheck::gen {
namespace {

constexpr int kLayouts = 5000;

TEST(RecipeCoverage, ReachesEveryFeature) {
  SeededChoices c(7);
  std::map<std::string, int> seen;
  std::set<ElementType> types;
  int64_t total_padded = 0, total_elements = 0;
  for (int i = 0; i < kLayouts; ++i) {
    const ShapeWithLayout s = make_layout(c);
    types.insert(s.type);
    const Layout& l = s.layout;
    seen["rank " + std::to_string(s.rank())]++;
    seen["levels " + std::to_string(l.tiles.size())]++;
    for (int64_t d : s.dims) {
      if (d == 0) seen["dim 0"]++;
      if (d == 1) seen["dim 1"]++;
      if (d == 13 || d == 31 || d == 127) seen["prime dim"]++;
      if (d >= 64 && (d & (d - 1)) == 0) seen["power-of-two dim"]++;
      if (d == 129 || d == 257 || d == 333) seen["ragged dim"]++;
    }
    if (l.minor_to_major != default_layout(s.rank()).minor_to_major) seen["permuted"]++;
    std::vector<int64_t> bounds = spec::to_physical_order(s.dims, l.minor_to_major);
    for (size_t k = 0; k < l.tiles.size(); ++k) {
      const std::vector<int64_t>& t = l.tiles[k].dims;
      if (t.size() > bounds.size()) seen["tile longer than the shape (D3)"]++;
      for (int64_t e : t) seen[e == kCombineDim ? "combined" : "entry"]++;
      if (k > 0 && t.size() == 2 && t[1] == 1) seen["second level inside the tile"]++;
      if (k > 0 && t.size() > l.tiles[k - 1].dims.size() && t.size() <= bounds.size()) {
        seen["level reaching cross-tile dims"]++;
      }
      if (t.size() <= bounds.size()) {
        if (t.back() == bounds.back()) seen["tile equal to the dim"]++;
        if (t.back() < bounds.back()) seen["tile shorter than the dim"]++;
        if (t.back() > bounds.back()) seen["tile longer than the dim"]++;
      }
      ShapeWithLayout partial = s;
      partial.layout.tiles.resize(k + 1);
      bounds = spec::tiled_shape(partial);
    }
    if (l.tiles == std::vector<Tile>{Tile{{8, 128}}, Tile{{2, 1}}}) seen["tpu (8,128)(2,1)"]++;
    if (l.tiles == std::vector<Tile>{Tile{{8, 128}}, Tile{{4, 1}}}) seen["tpu (8,128)(4,1)"]++;
    if (l.tiles == std::vector<Tile>{Tile{{32, 128}}, Tile{{32, 1}}}) seen["tpu (32,128)(32,1)"]++;
    if (l.tiles == std::vector<Tile>{Tile{{2, 128}}}) seen["tpu (2,128)"]++;
    if (l.tiles == std::vector<Tile>{Tile{{4, 128}}}) seen["tpu (4,128)"]++;
    if (l.tail_padding_alignment) seen["L(n)"]++;
    if (l.element_size_bits) seen["E(n)"]++;
    if (l.memory_space) seen["S(n)"]++;
    if (s.element_bits() < 8) seen["sub-byte width"]++;
    const int64_t padded = spec::padded_element_count(s);
    const int64_t count = spec::element_count(s);
    if (padded > count && count > 0) seen["padding"]++;
    total_padded += padded;
    total_elements += count;
  }
  const char* expected[] = {
      "rank 0", "rank 1", "rank 2", "rank 3", "rank 4", "rank 5", "rank 6",
      "levels 0", "levels 1", "levels 2", "levels 3",
      "dim 0", "dim 1", "prime dim", "power-of-two dim", "ragged dim", "permuted",
      "tile longer than the shape (D3)", "combined", "second level inside the tile",
      "level reaching cross-tile dims", "tile equal to the dim", "tile shorter than the dim",
      "tile longer than the dim", "tpu (8,128)(2,1)", "tpu (8,128)(4,1)",
      "tpu (32,128)(32,1)", "tpu (2,128)", "tpu (4,128)", "L(n)", "E(n)", "S(n)",
      "sub-byte width", "padding"};
  for (const char* feature : expected) EXPECT_GT(seen[feature], 0) << feature;
  EXPECT_EQ(types.size(), all_element_types().size());
  for (const auto& [feature, n] : seen) std::cout << "  " << feature << ": " << n << "\n";
  std::cout << "  mean elements " << total_elements / kLayouts << ", mean padded "
            << total_padded / kLayouts << "\n";
}

// Out of choices (every choice at its low end), the recipe gives the simplest
// layout: what RapidCheck shrinks towards and what an empty fuzz input means.
TEST(RecipeCoverage, LowestChoicesGiveTheSimplestLayout) {
  struct Lowest : PicksFromRange<Lowest> {
    int64_t in_range(int64_t lo, int64_t) { return lo; }
  } c;
  EXPECT_EQ(print_shape(make_layout(c)), "f32[]");
}

}  // namespace
}  // namespace tilecheck::gen
