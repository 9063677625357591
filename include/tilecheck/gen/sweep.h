// Exhaustive sweeps over a shape's elements, and the budget that keeps them
// fast: the checks that visit every element or position (properties, the
// conformance engine) use layouts within kExhaustiveLimits.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/spec/semantics.h>

namespace tilecheck::gen {

// A quarter of the recipe's default budget: the spec is deliberately slow,
// and 1,000 cases of a property must stay within seconds under ASan.
inline constexpr RecipeLimits kExhaustiveLimits{.max_elements = int64_t{1} << 10,
                                                .max_padded_elements = int64_t{1} << 12};

// The row-major sweep of the data model (tilecheck/spec/model.h), over dims
// or over a shape's dims.
using tilecheck::for_each_element;
template <class F>
bool for_each_element(const ShapeWithLayout& shape, F f) {
  return tilecheck::for_each_element(shape.dims, f);
}

// The element at row-major (dense) index i of an array of these dims.
inline std::vector<int64_t> element_at(int64_t i, const std::vector<int64_t>& dims) {
  std::vector<int64_t> e(dims.size(), 0);
  for (size_t d = dims.size(); d-- > 0;) {
    e[d] = i % dims[d];
    i /= dims[d];
  }
  return e;
}

}  // namespace tilecheck::gen
