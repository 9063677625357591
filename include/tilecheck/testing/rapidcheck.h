// RapidCheck assertions that compare your implementation's answer with the
// spec's (compare.h), for use inside a property (rc::check,
// RC_GTEST_PROP): each fails the property with the same message as the
// GoogleTest assertions (gtest.h), and RapidCheck then shrinks the case.
//
//   RC_ASSERT_PACKS_AS_SPEC(layout, dense, packed);
//   RC_ASSERT_UNPACKS_AS_SPEC(layout, packed, dense);
//   RC_ASSERT_LINEAR_INDEX_AS_SPEC(layout, element, index);
//   RC_ASSERT_DELINEARIZES_AS_SPEC(layout, position, element);   // std::nullopt: padding
//   RC_ASSERT_BYTE_SIZE_AS_SPEC(layout, bytes);
//
// Link tilecheck::testing and rapidcheck; docs/TESTING.md.
#pragma once

#include <rapidcheck.h>

#include <string>

#include <tilecheck/testing/compare.h>

#define TILECHECK_RC_ASSERT_AGREES(mismatch)        \
  do {                                              \
    const std::string tilecheck_mismatch_ = (mismatch); \
    if (!tilecheck_mismatch_.empty()) RC_FAIL(tilecheck_mismatch_); \
  } while (false)

#define RC_ASSERT_PACKS_AS_SPEC(layout, dense, packed) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::pack_mismatch(layout, dense, packed))
#define RC_ASSERT_UNPACKS_AS_SPEC(layout, packed, dense) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::unpack_mismatch(layout, packed, dense))
#define RC_ASSERT_LINEAR_INDEX_AS_SPEC(layout, element, index) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::linear_index_mismatch(layout, element, index))
#define RC_ASSERT_DELINEARIZES_AS_SPEC(layout, position, element) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::delinearize_mismatch(layout, position, element))
#define RC_ASSERT_BYTE_SIZE_AS_SPEC(layout, bytes) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::byte_size_mismatch(layout, bytes))
