// Exhaustive sweeps over a shape's elements, and the budget that keeps them
// fast: the checks that visit every element or position (properties, the
// conformance engine) use layouts within kExhaustiveLimits.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "gen/layout_recipe.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::gen {

// A quarter of the recipe's default budget: the spec is deliberately slow,
// and 1,000 cases of a property must stay within seconds under ASan.
inline constexpr RecipeLimits kExhaustiveLimits{.max_elements = int64_t{1} << 10,
                                                .max_padded_elements = int64_t{1} << 12};

// Calls f(element) for every element of an array of these dims, row-major
// (dim 0 most major); none when a dim is 0. When f returns a bool, false
// stops the sweep. Returns false if it was stopped.
template <class F>
bool for_each_element(const std::vector<int64_t>& dims, F f) {
  for (const int64_t d : dims) {
    if (d <= 0) return true;
  }
  std::vector<int64_t> e(dims.size(), 0);
  while (true) {
    if constexpr (std::is_same_v<decltype(f(e)), bool>) {
      if (!f(std::as_const(e))) return false;
    } else {
      f(std::as_const(e));
    }
    size_t d = e.size();
    while (d > 0 && ++e[d - 1] == dims[d - 1]) e[--d] = 0;
    if (d == 0) return true;
  }
}

template <class F>
bool for_each_element(const ShapeWithLayout& shape, F f) {
  return for_each_element(shape.dims, f);
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
