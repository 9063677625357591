// The layout recipe's choices from a seed: a splitmix64 stream, so that a
// run of generated layouts is deterministic and needs no test framework
// (the conformance engine's generated layouts, the recipe's own test); and
// the seed of one layout's draws within a run (layout_seed).
#pragma once

#include <cstdint>
#include <string_view>

#include <tilecheck/gen/layout_recipe.h>

namespace tilecheck::gen {

class SeededChoices : public PicksFromRange<SeededChoices> {
 public:
  explicit SeededChoices(uint64_t seed) : state_(seed) {}
  int64_t in_range(int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(splitmix64(state_) % span);
  }

 private:
  uint64_t state_;
};

// The seed of what is drawn for one layout: the FNV-1a hash of its text
// mixed into the run's seed, so that a layout's data does not depend on the
// other layouts of the run.
inline uint64_t layout_seed(uint64_t seed, std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (const unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return seed ^ h;
}

}  // namespace tilecheck::gen
