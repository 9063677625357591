// Exhaustive sweeps over a shape's elements, and the budget that keeps them
// fast: the checks that visit every element or position (properties, the
// conformance engine) use layouts within kExhaustiveLimits.
#pragma once

#include <cstdint>
#include <vector>

#include "gen/layout_recipe.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::gen {

// A quarter of the recipe's default budget: the spec is deliberately slow,
// and 1,000 cases of a property must stay within seconds under ASan.
inline constexpr RecipeLimits kExhaustiveLimits{.max_elements = int64_t{1} << 10,
                                                .max_padded_elements = int64_t{1} << 12};

// Calls f(element) for every element of the shape, row-major (dim 0 most major).
template <class F>
void for_each_element(const ShapeWithLayout& shape, F f) {
  const int64_t count = spec::element_count(shape);
  std::vector<int64_t> e(shape.dims.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    f(e);
    for (size_t d = e.size(); d-- > 0;) {
      if (++e[d] < shape.dims[d]) break;
      e[d] = 0;
    }
  }
}

}  // namespace tilecheck::gen
