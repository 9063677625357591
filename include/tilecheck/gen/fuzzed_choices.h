// The layout recipe's choices read from libFuzzer input.
//
// FuzzedChoices<Provider> adapts LLVM's FuzzedDataProvider (or anything with
// the same three calls) to tilecheck/gen/layout_recipe.h, so the fuzzers
// generate layouts with the same recipe as the properties. It is a template
// so this header needs no compiler-specific include. FuzzedDataProvider
// returns the low end of a range once the input is used up, which the recipe
// maps to the simplest layout: short inputs mean small layouts.
//
//   FuzzedDataProvider fdp(data, size);
//   tilecheck::gen::FuzzedChoices choices(fdp);
//   ShapeWithLayout shape = tilecheck::gen::make_layout(choices);
#pragma once

#include <cstddef>
#include <cstdint>

#include <tilecheck/gen/layout_recipe.h>

namespace tilecheck::gen {

template <class Provider>
class FuzzedChoices : public PicksFromRange<FuzzedChoices<Provider>> {
 public:
  explicit FuzzedChoices(Provider& provider) : provider_(provider) {}

  int64_t in_range(int64_t lo, int64_t hi) {
    return hi <= lo ? lo : provider_.template ConsumeIntegralInRange<int64_t>(lo, hi);
  }

 private:
  Provider& provider_;
};

}  // namespace tilecheck::gen
