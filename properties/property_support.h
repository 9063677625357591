// Helpers shared by the property files: exhaustive element sweeps, the
// reduced budget for them, and buffers with guard bytes that catch writes
// outside a span even when the code under test is not instrumented (the
// mutant libraries are built without sanitizers).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "properties/layout_recipe.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::props {

// Exhaustive sweeps (every element, every position) use a quarter of the
// recipe's default budget: the spec is deliberately slow, and 1,000 cases
// must stay within seconds under ASan.
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

// A byte buffer of `size` bytes pre-filled with `fill`, between two guard
// zones of kGuard bytes; intact() says whether the guards still hold their
// pattern.
class GuardedBuffer {
 public:
  static constexpr size_t kGuard = 64;
  static constexpr uint8_t kGuardByte = 0xC3;

  GuardedBuffer(size_t size, uint8_t fill)
      : storage_(size + 2 * kGuard, kGuardByte), size_(size) {
    std::fill_n(storage_.begin() + kGuard, size, fill);
  }
  std::span<uint8_t> span() { return {storage_.data() + kGuard, size_}; }
  std::vector<uint8_t> bytes() const {
    return {storage_.begin() + kGuard, storage_.begin() + kGuard + size_};
  }
  bool intact() const {
    auto guard = [](uint8_t b) { return b == kGuardByte; };
    return std::all_of(storage_.begin(), storage_.begin() + kGuard, guard) &&
           std::all_of(storage_.end() - kGuard, storage_.end(), guard);
  }

 private:
  std::vector<uint8_t> storage_;
  size_t size_;
};

}  // namespace tilecheck::props
