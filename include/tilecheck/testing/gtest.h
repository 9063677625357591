// GoogleTest assertions that compare your implementation's answer with the
// spec's (compare.h), with a message that says where and why they differ:
//
//   EXPECT_PACKS_AS_SPEC(layout, dense, packed);
//   EXPECT_UNPACKS_AS_SPEC(layout, packed, dense);
//   EXPECT_LINEAR_INDEX_AS_SPEC(layout, element, index);
//   EXPECT_DELINEARIZES_AS_SPEC(layout, position, element);   // std::nullopt: padding
//   EXPECT_BYTE_SIZE_AS_SPEC(layout, bytes);
//
// and the ASSERT_ form of each. `layout` is a tilecheck::ShapeWithLayout or
// its text; buffers are any contiguous range; an element is any range of
// integers (in a macro argument, a braced list needs parentheses:
// (std::vector<int64_t>{2, 3})). Link tilecheck::testing and GTest::gtest;
// docs/TESTING.md shows the messages.
#pragma once

#include <gtest/gtest.h>

#include <tilecheck/testing/compare.h>

namespace tilecheck::testing {
namespace detail {

inline ::testing::AssertionResult verdict(const std::string& mismatch, const std::string& call) {
  if (mismatch.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << call << "\n" << mismatch;
}

}  // namespace detail

// The predicate-formatters behind the macros (EXPECT_PRED_FORMAT3 and 2).
template <class Layout, class Dense, class Packed>
::testing::AssertionResult PacksAsSpec(const char* l, const char* d, const char* p, const Layout& layout,
                                       const Dense& dense, const Packed& packed) {
  return detail::verdict(pack_mismatch(layout, dense, packed),
                         std::string(p) + " is not the spec's pack of " + d + " in " + l);
}

template <class Layout, class Packed, class Dense>
::testing::AssertionResult UnpacksAsSpec(const char* l, const char* p, const char* d, const Layout& layout,
                                         const Packed& packed, const Dense& dense) {
  return detail::verdict(unpack_mismatch(layout, packed, dense),
                         std::string(d) + " is not the spec's unpack of " + p + " in " + l);
}

template <class Layout, class Element>
::testing::AssertionResult LinearIndexAsSpec(const char* l, const char* e, const char* i, const Layout& layout,
                                             const Element& element, int64_t index) {
  return detail::verdict(linear_index_mismatch(layout, element, index),
                         std::string(i) + " is not the spec's linear index of " + e + " in " + l);
}

template <class Layout>
::testing::AssertionResult DelinearizesAsSpec(const char* l, const char* p, const char* e, const Layout& layout,
                                              int64_t position, const std::optional<std::vector<int64_t>>& element) {
  return detail::verdict(delinearize_mismatch(layout, position, element),
                         std::string(e) + " is not what the spec stores at position " + p + " of " + l);
}

template <class Layout>
::testing::AssertionResult ByteSizeAsSpec(const char* l, const char* b, const Layout& layout, int64_t bytes) {
  return detail::verdict(byte_size_mismatch(layout, bytes), std::string(b) + " is not the spec's byte size of " + l);
}

}  // namespace tilecheck::testing

// Each as EXPECT_ and ASSERT_ (GoogleTest's EXPECT_PRED_FORMATn and ASSERT_PRED_FORMATn).
#define EXPECT_PACKS_AS_SPEC(...) EXPECT_PRED_FORMAT3(::tilecheck::testing::PacksAsSpec, __VA_ARGS__)
#define ASSERT_PACKS_AS_SPEC(...) ASSERT_PRED_FORMAT3(::tilecheck::testing::PacksAsSpec, __VA_ARGS__)
#define EXPECT_UNPACKS_AS_SPEC(...) EXPECT_PRED_FORMAT3(::tilecheck::testing::UnpacksAsSpec, __VA_ARGS__)
#define ASSERT_UNPACKS_AS_SPEC(...) ASSERT_PRED_FORMAT3(::tilecheck::testing::UnpacksAsSpec, __VA_ARGS__)
#define EXPECT_LINEAR_INDEX_AS_SPEC(...) EXPECT_PRED_FORMAT3(::tilecheck::testing::LinearIndexAsSpec, __VA_ARGS__)
#define ASSERT_LINEAR_INDEX_AS_SPEC(...) ASSERT_PRED_FORMAT3(::tilecheck::testing::LinearIndexAsSpec, __VA_ARGS__)
#define EXPECT_DELINEARIZES_AS_SPEC(...) EXPECT_PRED_FORMAT3(::tilecheck::testing::DelinearizesAsSpec, __VA_ARGS__)
#define ASSERT_DELINEARIZES_AS_SPEC(...) ASSERT_PRED_FORMAT3(::tilecheck::testing::DelinearizesAsSpec, __VA_ARGS__)
#define EXPECT_BYTE_SIZE_AS_SPEC(...) EXPECT_PRED_FORMAT2(::tilecheck::testing::ByteSizeAsSpec, __VA_ARGS__)
#define ASSERT_BYTE_SIZE_AS_SPEC(...) ASSERT_PRED_FORMAT2(::tilecheck::testing::ByteSizeAsSpec, __VA_ARGS__)
