// oneDNN's reorder and PackPlan::pack write the same bytes, padding
// included, for every benchmark case that oneDNN can express: at the
// benchmark's size, at the spec's smaller size, and for the rank-2 cases at a
// ragged size. oneDNN is an independent implementation of the same blocked
// formats, so this checks the impl against a peer, not only against the
// spec, and it keeps the benchmark's oneDNN figures meaningful.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench/cases.h"
#include "bench/onednn_peer.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>

namespace {

using tilecheck::ShapeWithLayout;
using tilecheck::bench::Case;

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// Packs random data with both and compares byte for byte.
void expect_same_bytes(const ShapeWithLayout& shape, const Case& c) {
  const std::string text = tilecheck::print_shape(shape);
  SCOPED_TRACE(text);
  const auto format = tilecheck::bench::onednn_format(shape, c.onednn_blocks);
  ASSERT_TRUE(format.has_value()) << "oneDNN rejected the blocked format of " << c.name;
  const tilecheck::impl::PackPlan plan(shape);
  ASSERT_EQ(static_cast<int64_t>(format->blocked.get_size()), plan.index().byte_size());
  const auto dense = random_bytes(plan.index().dense_byte_size(), 7);
  // Different fill bytes, so neither side's padding is zero by accident.
  std::vector<uint8_t> ours(plan.index().byte_size(), 0xAB), theirs(plan.index().byte_size(), 0xCD);
  plan.pack(dense, ours, {1});
  tilecheck::bench::onednn_reorder(*format, dense, theirs);
  int64_t differing = 0, first = -1;
  for (size_t i = 0; i < ours.size(); ++i) {
    if (ours[i] != theirs[i]) {
      if (first < 0) first = static_cast<int64_t>(i);
      ++differing;
    }
  }
  EXPECT_EQ(differing, 0) << differing << " of " << ours.size() << " bytes differ, the first at byte " << first;
}

TEST(OneDnnCrossCheck, EveryExpressibleCaseWritesTheSameBytes) {
  ASSERT_TRUE(tilecheck::bench::limit_onednn_to_one_thread());
  int checked = 0;
  for (const Case& c : tilecheck::bench::cases()) {
    if (c.onednn_blocks.empty()) continue;
    SCOPED_TRACE(c.name);
    expect_same_bytes(tilecheck::parse_shape(c.layout), c);
    expect_same_bytes(tilecheck::parse_shape(c.small_layout), c);
    ShapeWithLayout ragged = tilecheck::parse_shape(c.small_layout);
    if (ragged.rank() == 2) {
      ragged.dims = {1001, 333};
      expect_same_bytes(ragged, c);
    }
    ++checked;
  }
  // Six of the eight cases have a oneDNN format: none may drop out unnoticed.
  EXPECT_EQ(checked, 6);
}

}  // namespace
