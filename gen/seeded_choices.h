// The layout recipe's choices from a seed: a splitmix64 stream, so that a
// run of generated layouts is deterministic and needs no test framework
// (the conformance engine's generated layouts, the recipe's own test).
#pragma once

#include <cstdint>

#include "gen/layout_recipe.h"

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

}  // namespace tilecheck::gen
