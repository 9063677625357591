// The C API's answers, from both engines, equal the C++ spec called directly,
// on every catalogue layout: sizes, the delinearization of every position
// (sampled on large layouts) and the linear index of each element found, packed and unpacked bytes,
// relayout to the default layout; and one handle serves several threads at once.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/model.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/tilecheck.h>

namespace tilecheck {
namespace {

constexpr tilecheck_engine kEngines[] = {TILECHECK_SPEC, TILECHECK_IMPL};

struct Handle {
  explicit Handle(const std::string& text) {
    tilecheck_error error;
    EXPECT_EQ(tilecheck_layout_parse(text.c_str(), &layout, &error), TILECHECK_OK)
        << text << ": " << error.message;
  }
  ~Handle() { tilecheck_layout_free(layout); }
  tilecheck_layout* layout = nullptr;
};

std::vector<uint8_t> pattern(int64_t bytes) {
  std::vector<uint8_t> out(bytes);
  for (int64_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(i * 151 + 29);
  return out;
}

int64_t api_size(tilecheck_status (*query)(const tilecheck_layout*, int, int64_t*,
                                           tilecheck_error*),
                 const Handle& h, tilecheck_engine engine) {
  int64_t value = -1;
  tilecheck_error error;
  EXPECT_EQ(query(h.layout, engine, &value, &error), TILECHECK_OK) << error.message;
  return value;
}

// Every position of small layouts; about kSampledPositions evenly spread ones
// (the last included) of larger ones, to keep the test to seconds under ASan.
constexpr int64_t kSampledPositions = 700;
int64_t next_sampled_position(int64_t p, int64_t positions) {
  const int64_t stride = (positions + kSampledPositions - 1) / kSampledPositions;
  if (p + stride < positions || p == positions - 1) return p + stride;
  return positions - 1;
}

// The default (untiled, row-major) layout of the same dims and type.
std::string default_layout_of(const ShapeWithLayout& shape) {
  ShapeWithLayout plain = shape;
  plain.layout = default_layout(shape.rank());
  plain.layout.element_size_bits = shape.layout.element_size_bits;
  return print_shape(plain);
}

class CApiEqualsSpec : public testing::TestWithParam<CatalogEntry> {};

TEST_P(CApiEqualsSpec, OnEveryPositionAndBuffer) {
  const std::string text(GetParam().layout);
  const ShapeWithLayout shape = parse_shape(text);
  const Handle h(text);
  ASSERT_NE(h.layout, nullptr);
  // The spec's answers, computed once.
  const std::vector<uint8_t> dense = pattern(spec::dense_byte_size(shape));
  const std::vector<uint8_t> packed = spec::pack(shape, dense);
  const std::vector<uint8_t> physical_pattern = pattern(spec::byte_size(shape));
  const std::vector<uint8_t> unpacked_pattern = spec::unpack(shape, physical_pattern);
  const ShapeWithLayout plain = parse_shape(default_layout_of(shape));
  const std::vector<uint8_t> relaid_pattern = spec::pack(plain, unpacked_pattern);
  const Handle to(default_layout_of(shape));
  tilecheck_error error;
  for (tilecheck_engine engine : kEngines) {
    SCOPED_TRACE(engine == TILECHECK_SPEC ? "engine spec" : "engine impl");
    EXPECT_EQ(api_size(tilecheck_element_count, h, engine), spec::element_count(shape));
    EXPECT_EQ(api_size(tilecheck_padded_element_count, h, engine),
              spec::padded_element_count(shape));
    EXPECT_EQ(api_size(tilecheck_byte_size, h, engine), spec::byte_size(shape));
    EXPECT_EQ(api_size(tilecheck_dense_byte_size, h, engine), spec::dense_byte_size(shape));

    const int64_t rank = shape.rank();
    std::vector<int64_t> element(rank);
    const int64_t positions = spec::padded_element_count(shape);
    for (int64_t p = 0; p < positions; p = next_sampled_position(p, positions)) {
      const std::optional<std::vector<int64_t>> expected = spec::delinearize(shape, p);
      int is_element = -1;
      ASSERT_EQ(
          tilecheck_delinearize(h.layout, engine, p, element.data(), rank, &is_element, &error),
          TILECHECK_OK)
          << error.message;
      ASSERT_EQ(is_element, expected.has_value() ? 1 : 0) << "position " << p;
      if (!expected) continue;
      ASSERT_EQ(element, *expected) << "position " << p;
      int64_t index = -1;
      ASSERT_EQ(tilecheck_linear_index(h.layout, engine, element.data(), rank, &index, &error),
                TILECHECK_OK)
          << error.message;
      ASSERT_EQ(index, spec::linear_index(shape, element));
    }

    std::vector<uint8_t> physical(packed.size(), 0xEE);
    ASSERT_EQ(tilecheck_pack(h.layout, engine, dense.data(), dense.size(), physical.data(),
                             physical.size(), &error),
              TILECHECK_OK)
        << error.message;
    EXPECT_EQ(physical, packed);

    std::vector<uint8_t> unpacked(dense.size(), 0xEE);
    ASSERT_EQ(tilecheck_unpack(h.layout, engine, physical_pattern.data(), physical_pattern.size(),
                               unpacked.data(), unpacked.size(), &error),
              TILECHECK_OK)
        << error.message;
    EXPECT_EQ(unpacked, unpacked_pattern);

    std::vector<uint8_t> relaid(relaid_pattern.size(), 0xEE);
    ASSERT_EQ(tilecheck_relayout(h.layout, to.layout, engine, physical_pattern.data(),
                                 physical_pattern.size(), relaid.data(), relaid.size(), &error),
              TILECHECK_OK)
        << error.message;
    EXPECT_EQ(relaid, relaid_pattern);
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, CApiEqualsSpec, testing::ValuesIn(catalog()),
                         [](const testing::TestParamInfo<CatalogEntry>& info) {
                           return std::string(info.param.name);
                         });

// One immutable handle, four threads, each with its own tilecheck_error.
TEST(CApiThreads, OneHandleManyThreads) {
  const char* text = "bf16[5,130]{1,0:T(8,128)(2,1)}";
  const ShapeWithLayout shape = parse_shape(text);
  const Handle h(text);
  const std::vector<uint8_t> dense = pattern(spec::dense_byte_size(shape));
  const std::vector<uint8_t> expected = spec::pack(shape, dense);
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      tilecheck_error error;
      std::vector<uint8_t> physical(expected.size());
      for (int round = 0; round < 6; ++round) {
        const tilecheck_engine engine = kEngines[(t + round) % 2];
        const int64_t element[2] = {(t * 3 + round) % 5, (t * 71 + round * 13) % 130};
        int64_t index = -1;
        if (tilecheck_linear_index(h.layout, engine, element, 2, &index, &error) != TILECHECK_OK ||
            index != spec::linear_index(shape, {element[0], element[1]}) ||
            tilecheck_pack(h.layout, engine, dense.data(), dense.size(), physical.data(),
                           physical.size(), &error) != TILECHECK_OK ||
            physical != expected) {
          ++mismatches[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace tilecheck
