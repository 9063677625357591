// GoogleMock matchers that compare your implementation's answer with the
// spec's (compare.h), for EXPECT_THAT and everywhere a matcher goes:
//
//   EXPECT_THAT(my_pack(dense), IsSpecPackOf(layout, dense));
//   EXPECT_THAT(my_unpack(packed), IsSpecUnpackOf(layout, packed));
//   EXPECT_THAT(my_index(2, 3), IsSpecLinearIndexOf(layout, std::vector<int64_t>{2, 3}));
//
// A mismatch is explained with the message of the assertions (gtest.h).
// Link tilecheck::testing and GTest::gmock; docs/TESTING.md.
#pragma once

#include <gmock/gmock.h>

#include <ostream>
#include <string>
#include <utility>

#include <tilecheck/testing/compare.h>

namespace tilecheck::testing {
namespace detail {

inline std::string layout_text(const ShapeWithLayout& shape) { return print_shape(shape); }
inline std::string layout_text(std::string_view text) { return std::string(text); }

// A matcher whose value is checked by `mismatch(value)` ("" when it agrees).
template <class Mismatch>
class SpecMatcher {
 public:
  SpecMatcher(Mismatch mismatch, std::string description)
      : mismatch_(std::move(mismatch)), description_(std::move(description)) {}
  template <class Value>
  bool MatchAndExplain(const Value& value, ::testing::MatchResultListener* listener) const {
    const std::string m = mismatch_(value);
    if (!m.empty()) *listener << "\n" << m;
    return m.empty();
  }
  void DescribeTo(std::ostream* os) const { *os << "is " << description_; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not " << description_; }

 private:
  Mismatch mismatch_;
  std::string description_;
};

template <class Mismatch>
::testing::PolymorphicMatcher<SpecMatcher<Mismatch>> spec_matcher(Mismatch mismatch, std::string description) {
  return ::testing::MakePolymorphicMatcher(SpecMatcher<Mismatch>(std::move(mismatch), std::move(description)));
}

}  // namespace detail

// The value (a buffer) is the spec's pack of `dense` in `layout`.
template <class Layout, class Dense>
auto IsSpecPackOf(const Layout& layout, const Dense& dense) {
  return detail::spec_matcher(
      [layout, dense](const auto& packed) { return pack_mismatch(layout, dense, packed); },
      "the spec's pack in " + detail::layout_text(layout));
}

// The value (a dense array) is the spec's unpack of `packed` in `layout`.
template <class Layout, class Packed>
auto IsSpecUnpackOf(const Layout& layout, const Packed& packed) {
  return detail::spec_matcher(
      [layout, packed](const auto& dense) { return unpack_mismatch(layout, packed, dense); },
      "the spec's unpack in " + detail::layout_text(layout));
}

// The value (an integer) is the spec's linear index of `element` in `layout`.
template <class Layout, class Element>
auto IsSpecLinearIndexOf(const Layout& layout, const Element& element) {
  return detail::spec_matcher(
      [layout, element](int64_t index) { return linear_index_mismatch(layout, element, index); },
      "the spec's linear index in " + detail::layout_text(layout));
}

}  // namespace tilecheck::testing
