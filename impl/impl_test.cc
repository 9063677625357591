// The fast implementation against the spec, exhaustively on every catalogue
// layout (and a few more that reach the per-element fallback): sizes,
// linear_index (single, checked, batch, and the exported IndexProgram),
// delinearize of every position, pack, unpack and relayout with 1 and 2
// threads, and the error cases.
#include <gtest/gtest.h>

#include <cstring>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "hwy/targets.h"
#include "impl/fast_div.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::impl {
namespace {

// Layouts beyond the catalogue: the per-element fallback, odd widths,
// deeper repeated tiling.
const std::vector<std::string>& extra_layouts() {
  static const std::vector<std::string> v = {
      "f32[3,4,5]{1,2,0:T(*,4,2)}",        // combined dims, strides do not nest: fallback
      "f32[5,6]{1,0:T(4,*,3)(3,2)}",       // combined, then a ragged second level
      "f32[13,7]{1,0:T(8,4)(3,2)}",        // ragged split of a within-tile dim
      "u8[9,10]{0,1:T(*,4)(2,1)}",         // transposed combine: fallback
      "s4[7,9]{1,0:T(4,4)(2,1)E(4)}",
      "u8[5,9]{1,0:T(2,4)E(3)}",           // 3-bit elements across bytes
      "u32[3,7]{1,0:T(2,2)E(20)}",
      "pred[40,9]{1,0:T(32,8)(32,1)E(1)}",
      "f64[2,3,4]{0,2,1:T(2,2)(2,1,1)}",
      "bf16[6]{0:T(2,4,2)(2,1,2)}",
      "u2[11,5]{0,1:T(4,4)(4,1)L(64)}",
      "f32[256,16]{0,1:T(8,128)}",         // column-major: transposing leaves, 2 tiles fused
      "f32[512,32]{0,1:T(8,128)}",         // 4 tiles fused
      "f32[1,1,1]{2,1,0}",
      "f32[]",
      // Panels (whole tile rows per kernel call): ragged columns through
      // the staged path, full-width vectors plus scalar column remainders.
      "bf16[5,40,200]{2,1,0:T(8,128)(2,1)}",
      "s8[16,300]{1,0:T(8,128)(4,1)}",
      "f32[16,1000]{1,0:T(8,128)}",
      "u8[6,4,70]{2,1,0:T(4,64)}",
      // Transposing panels: 16x16 blocks, column and row remainders.
      "f32[256,40]{0,1:T(8,128)}",
      "f32[96,40]{0,1:T(8,24)}",
      "u32[48,96]{0,1:T(16,48)}",
      // AVX-512 transposing panel: three whole chunks of 64 columns (the
      // next one prefetched), a chunk of 32, 8 scalar columns. 256 rows:
      // with one row tile (128) the column digits merge into one and the
      // layout takes the block transpose instead (tried: a broken chunk
      // loop then went unnoticed here).
      "f32[256,232]{0,1:T(8,128)}",
      // 4-byte transposes without a tile digit above the block: untiled
      // transposed matrices, and a channel dim blocked alone (CNN
      // activations, nChw16c), through the element transposes (16x16
      // 32-bit transposes on AVX-512 and AVX2, staged and streamed squares
      // on SSE4 and SSSE3). Ragged rows and columns, 15 rows, more than a
      // region of 128 a side.
      "f32[40,70]{0,1}",
      "u32[100,33]{0,1}",
      "f32[15,40]{0,1}",
      "f32[2,48,5,7]{3,2,1,0:T(16,1,1)}",
      "s32[1,64,3,3]{3,2,1,0:T(32,1,1)}",
      "f32[270,300]{0,1}",
      // 1- and 2-byte transposes: 32-bit 16x16 transposes of interleaved
      // rows (AVX-512, AVX2) over chunks of 64 columns, a chunk of 16 and
      // more; the rows and columns past them in 128-bit blocks and scalar.
      "bf16[100,150]{0,1}",
      "s8[200,90]{0,1}",
      // 8-byte transposes: 8x8 64-bit transposes (AVX-512, AVX2), whole
      // regions of 128 and a ragged one; rows and columns past the last 8.
      "f64[300,141]{0,1}",
  };
  return v;
}

std::vector<std::string> all_layouts() {
  std::vector<std::string> v;
  for (const auto& e : catalog()) v.emplace_back(e.layout);
  for (const auto& s : extra_layouts()) v.push_back(s);
  return v;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

class ImplVsSpec : public ::testing::TestWithParam<std::string> {};

TEST_P(ImplVsSpec, Sizes) {
  const ShapeWithLayout s = parse_shape(GetParam());
  const IndexPlan p(s);
  EXPECT_EQ(p.element_count(), spec::element_count(s));
  EXPECT_EQ(p.padded_element_count(), spec::padded_element_count(s));
  EXPECT_EQ(p.byte_size(), spec::byte_size(s));
  EXPECT_EQ(p.dense_byte_size(), spec::dense_byte_size(s));
  EXPECT_EQ(p.tiled_shape(), spec::tiled_shape(s));
  EXPECT_EQ(p.shape(), s);
  EXPECT_EQ(p.rank(), s.rank());
}

TEST_P(ImplVsSpec, LinearIndexEveryElement) {
  const ShapeWithLayout s = parse_shape(GetParam());
  const IndexPlan p(s);
  std::vector<int64_t> all, expected;
  for_each_element(s.dims, [&](const std::vector<int64_t>& e) {
    const int64_t want = spec::linear_index(s, e);
    ASSERT_EQ(p.linear_index(e), want) << GetParam() << " element " << ::testing::PrintToString(e);
    ASSERT_EQ(p.linear_index_checked(e), want);
    ASSERT_EQ(evaluate_index_program(p.program(), e), want);
    all.insert(all.end(), e.begin(), e.end());
    expected.push_back(want);
  });
  std::vector<int64_t> batch(expected.size(), -1);
  p.linear_index_batch(all, batch);
  EXPECT_EQ(batch, expected);
  std::vector<int64_t> checked(expected.size(), -1);
  p.linear_index_batch_checked(all, checked);
  EXPECT_EQ(checked, expected);
  // And back: every position of the batch holds its element.
  std::vector<int64_t> rows(all.size(), -2);
  p.delinearize_batch(expected, rows);
  EXPECT_EQ(rows, all);
}

// Also checks for_each_in_physical_order against the same spec results.
TEST_P(ImplVsSpec, DelinearizeEveryPosition) {
  const ShapeWithLayout s = parse_shape(GetParam());
  const IndexPlan p(s);
  std::vector<int64_t> e(s.rank());
  std::vector<std::pair<int64_t, std::vector<int64_t>>> in_order, visited;
  for (int64_t pos = 0; pos < p.padded_element_count(); ++pos) {
    const auto want = spec::delinearize(s, pos);
    if (want) in_order.emplace_back(pos, *want);
    std::fill(e.begin(), e.end(), -1);
    const bool got = p.delinearize(pos, e);
    ASSERT_EQ(got, want.has_value()) << GetParam() << " position " << pos;
    if (got) {
      ASSERT_EQ(e, *want) << GetParam() << " position " << pos;
    }
  }
  EXPECT_THROW(p.delinearize(-1, e), Error);
  EXPECT_THROW(p.delinearize(p.padded_element_count(), e), Error);
  p.for_each_in_physical_order([&](int64_t pos, std::span<const int64_t> element) {
    visited.emplace_back(pos, std::vector<int64_t>(element.begin(), element.end()));
  });
  EXPECT_EQ(visited, in_order);
  EXPECT_EQ(static_cast<int64_t>(visited.size()), p.element_count());
}

TEST_P(ImplVsSpec, PackAndUnpack) {
  const ShapeWithLayout s = parse_shape(GetParam());
  const PackPlan p(s);
  // Random dense bytes, high bits of narrow elements included (pack ignores them).
  const auto dense = random_bytes(p.index().dense_byte_size(), 1);
  const auto want_physical = spec::pack(s, dense);
  // Physical buffer with garbage in the padding: unpack ignores it.
  const auto noisy_physical = random_bytes(p.index().byte_size(), 2);
  const auto want_dense = spec::unpack(s, noisy_physical);
  for (int threads : {1, 2}) {
    std::vector<uint8_t> physical(p.index().byte_size(), 0xAB);
    p.pack(dense, physical, {threads});
    EXPECT_EQ(physical, want_physical) << GetParam() << " threads " << threads;
    std::vector<uint8_t> back(dense.size(), 0xCD);
    p.unpack(noisy_physical, back, {threads});
    EXPECT_EQ(back, want_dense) << GetParam() << " threads " << threads;
  }
}

// The kernels exist once per SIMD target (Highway) and the machine runs only
// its best one; every target it supports runs here, on every layout.
TEST(KernelTargets, EveryTargetPacksLikeTheSpec) {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  for (const std::string& text : all_layouts()) {
    const ShapeWithLayout s = parse_shape(text);
    const PackPlan p(s);
    const auto dense = random_bytes(p.index().dense_byte_size(), 3);
    const auto want_physical = spec::pack(s, dense);
    const auto noisy_physical = random_bytes(p.index().byte_size(), 4);
    const auto want_dense = spec::unpack(s, noisy_physical);
    for (int64_t target : targets) {
      hwy::SetSupportedTargetsForTest(target);
      std::vector<uint8_t> physical(p.index().byte_size(), 0xAB);
      p.pack(dense, physical, {1});
      EXPECT_EQ(physical, want_physical) << text << " on " << hwy::TargetName(target);
      std::vector<uint8_t> back(dense.size(), 0xCD);
      p.unpack(noisy_physical, back, {1});
      EXPECT_EQ(back, want_dense) << text << " on " << hwy::TargetName(target);
    }
    hwy::SetSupportedTargetsForTest(0);  // back to the best target
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, ImplVsSpec, ::testing::ValuesIn(all_layouts()),
                         [](const auto& info) { return "layout" + std::to_string(info.index); });

// Empty arrays the spec accepts although strides or index coefficients
// derived from their other dims exceed int64 (every size is 0): the fuzzers'
// reproducers (fuzz/corpus/*/zero_size_*, index_validity_f8e3m4,
// pack_crash_s2) and the same pattern in each place the impl derives one.
const std::vector<std::string>& empty_layouts() {
  static const std::vector<std::string> v = {
      "f32[0,1]{1,0:T(4611686018427387904,4611686018427387904)}",  // final-shape stride
      "s8[0,3]{1,0:T(4611686018427387904,1)(2,1)}",
      "f32[0,4611686018427387904,4]{2,1,0}",                        // dense stride
      "f32[0,4611686018427387904,4]{2,1,0:T(*,*,8)}",               // combined-dim coefficient
      "f8e3m4[1,0,3,4611686018427387904,2,1]{5,4,3,2,1,0:T(2,4611686018427387904)}",
      "u4[3,0]{0,1:T(2,128)L(1024)}",
  };
  return v;
}

INSTANTIATE_TEST_SUITE_P(Empty, ImplVsSpec, ::testing::ValuesIn(empty_layouts()),
                         [](const auto& info) { return "layout" + std::to_string(info.index); });

TEST(Lowering, TpuFormatsUseTheLoopNest) {
  for (const auto& e : catalog()) {
    if (std::string(e.name).rfind("tpu_", 0) == 0 || std::string(e.name).rfind("doc_", 0) == 0) {
      EXPECT_TRUE(PackPlan(parse_shape(e.layout)).lowered()) << e.name;
    }
  }
  EXPECT_FALSE(PackPlan(parse_shape("f32[3,4,5]{1,2,0:T(*,4,2)}")).lowered());
}

// Relayout between every pair of layouts with the same dims and width, and
// between each layout and the default / a transposed untiled layout.
TEST(Relayout, MatchesUnpackThenPack) {
  std::vector<ShapeWithLayout> shapes;
  for (const auto& text : all_layouts()) {
    const ShapeWithLayout s = parse_shape(text);
    shapes.push_back(s);
    ShapeWithLayout plain = s;
    plain.layout.tiles.clear();
    plain.layout.tail_padding_alignment.reset();
    shapes.push_back(plain);
    if (s.rank() >= 2) {
      ShapeWithLayout t = s;
      std::swap(t.layout.minor_to_major[0], t.layout.minor_to_major[1]);
      shapes.push_back(t);
    }
  }
  // Pairs share dims and width, hence the dense array: the spec packs it once
  // per layout, and relayout(pack_from(x)) must equal pack_to(x).
  std::vector<std::vector<uint8_t>> packed;
  for (const auto& s : shapes) packed.push_back(spec::pack(s, random_bytes(spec::dense_byte_size(s), 3)));
  int pairs = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    for (size_t j = 0; j < shapes.size(); ++j) {
      const auto& from = shapes[i];
      const auto& to = shapes[j];
      if (from.dims != to.dims || from.element_bits() != to.element_bits()) continue;
      const RelayoutPlan plan(from, to);
      for (int threads : {1, 2}) {
        std::vector<uint8_t> dst(packed[j].size(), 0x5A);
        plan.run(packed[i], dst, {threads});
        ASSERT_EQ(dst, packed[j]) << print_shape(from) << " -> " << print_shape(to);
      }
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 100);
}

// Arrays of 8 MiB and more take the non-temporal-store path (64-byte
// aligned destinations only); too large for the spec's element loop, so
// every element is checked through IndexPlan (itself checked against the
// spec above) and a sample directly against spec::linear_index.
// A 64-byte aligned buffer, as a tensor runtime allocates.
struct Aligned {
  uint8_t* p;
  size_t n;
  explicit Aligned(size_t size) : p(static_cast<uint8_t*>(::operator new(size, std::align_val_t(64)))), n(size) {}
  ~Aligned() { ::operator delete(p, std::align_val_t(64)); }
  std::span<uint8_t> span() { return {p, n}; }
};

TEST(LargeArrays, StreamedPackAndUnpack) {
  // Ragged rank 4 (stage-then-stream on both sides), column-major tiles
  // and 1-, 2-, 4- and 8-byte transposes (streamed 16x16 and 8x8 transposes), ragged rows (staged ragged chunks) and a
  // permuted rank 3 (unpack panels whose rows are not adjacent) too, and
  // short runs folded into wider elements (column-major (2,1) and (4,1)
  // tiles, f32 tiles of 2 columns), at the production thresholds (the
  // properties reach the same paths at small size with the thresholds
  // lowered).
  for (const char* text : {"s8[4096,2048]{1,0:T(8,128)(4,1)}", "f32[2048,1024]{1,0:T(8,128)}",
                           "bf16[2048,2048]{1,0:T(8,128)(2,1)}", "bf16[4,64,96,200]{3,2,1,0:T(8,128)(2,1)}",
                           "f32[2048,1024]{0,1:T(8,128)}", "f32[2048,1100]{1,0:T(8,128)}",
                           "f32[8,2048,200]{2,0,1:T(8,128)}", "f32[2048,1100]{0,1}", "bf16[2100,2050]{0,1}",
                           "s8[4100,2060]{0,1}", "f64[1100,1030]{0,1}",
                           "f32[16,64,56,56]{3,2,1,0:T(16,1,1)}", "bf16[2048,2048]{0,1:T(8,128)(2,1)}",
                           "s8[4096,2048]{0,1:T(8,128)(4,1)}", "f32[2048,1024]{1,0:T(8,2)}"}) {
    const ShapeWithLayout s = parse_shape(text);
    const PackPlan p(s);
    const int64_t nb = s.dense_element_bytes();
    ASSERT_GE(p.index().byte_size(), int64_t{8} << 20);
    const auto dense = random_bytes(p.index().dense_byte_size(), 5);
    Aligned physical(p.index().byte_size());
    std::memset(physical.p, 0xEE, physical.n);
    p.pack(dense, physical.span(), {1});
    int64_t i = 0;
    bool ok = true;
    std::vector<bool> holds_element(physical.n, false);
    for_each_element(s.dims, [&](const std::vector<int64_t>& e) {
      const int64_t pos = p.index().linear_index(e);
      ok = ok && std::memcmp(physical.p + pos * nb, dense.data() + i * nb, nb) == 0;
      for (int64_t b = 0; b < nb; ++b) holds_element[pos * nb + b] = true;
      ++i;
    });
    EXPECT_TRUE(ok) << text;
    // Padding (D8): every other byte is zero (the buffer started as 0xEE).
    size_t nonzero_padding = 0;
    for (size_t b = 0; b < physical.n; ++b) nonzero_padding += !holds_element[b] && physical.p[b] != 0;
    EXPECT_EQ(nonzero_padding, 0u) << text;
    std::mt19937_64 rng(6);
    for (int k = 0; k < 200; ++k) {
      std::vector<int64_t> e;
      for (int64_t d : s.dims) e.push_back(static_cast<int64_t>(rng() % d));
      ASSERT_EQ(p.index().linear_index(e), spec::linear_index(s, e));
    }
    // Two threads: the same bytes.
    Aligned physical2(p.index().byte_size());
    p.pack(dense, physical2.span(), {2});
    EXPECT_EQ(std::memcmp(physical.p, physical2.p, physical.n), 0) << text;
    for (int threads : {1, 2}) {
      Aligned back(p.index().dense_byte_size());
      p.unpack(physical.span(), back.span(), {threads});
      EXPECT_EQ(std::memcmp(back.p, dense.data(), back.n), 0) << text << " threads " << threads;
    }
  }
}

// Relayouts block by block past 2^20 elements, of 8 MiB and more (the
// destination's runs streamed), on one and two threads: the same bytes as
// unpacking the source and packing the destination (plans checked against
// the spec above and in the properties).
TEST(LargeArrays, RelayoutByBlocks) {
  const std::pair<const char*, const char*> pairs[] = {
      {"f32[2048,1024]{1,0:T(8,128)}", "f32[2048,1024]{0,1:T(8,128)}"},
      {"bf16[2048,2048]{1,0:T(8,128)(2,1)}", "bf16[2048,2048]{0,1:T(8,128)(2,1)}"},
      {"s4[4096,4096]{1,0:T(8,128)(8,1)E(4)}", "s4[4096,4096]{0,1:T(8,128)E(4)}"},
      {"s8[4096,2048]{0,1}", "s8[4096,2048]{1,0:T(8,128)(4,1)}"},
  };
  for (const auto& [a, b] : pairs) {
    const ShapeWithLayout from = parse_shape(a), to = parse_shape(b);
    const RelayoutPlan relayout(from, to);
    EXPECT_TRUE(relayout.by_blocks()) << a;
    const PackPlan source(from), target(to);
    ASSERT_GE(target.index().byte_size(), int64_t{8} << 20);
    std::vector<uint8_t> src(source.index().byte_size());
    source.pack(random_bytes(source.index().dense_byte_size(), 7), src);
    std::vector<uint8_t> dense(source.index().dense_byte_size()), want(target.index().byte_size());
    source.unpack(src, dense);
    target.pack(dense, want);
    for (int threads : {1, 2}) {
      Aligned got(want.size());
      std::memset(got.p, 0xEE, got.n);
      relayout.run(src, got.span(), {threads});
      EXPECT_EQ(std::memcmp(got.p, want.data(), got.n), 0) << a << " -> " << b << ", threads " << threads;
    }
  }
}

// The impl accepts `text` exactly when the spec does.
void expect_validity_like_spec(const std::string& text) {
  ShapeWithLayout s;
  try {
    s = parse_shape(text);
  } catch (const Error&) {
    return;  // the syntax already refuses it
  }
  {
    bool spec_throws = false;
    try {
      spec::validate(s);
      (void)spec::byte_size(s);
      (void)spec::dense_byte_size(s);
    } catch (const Error&) {
      spec_throws = true;
    }
    bool impl_throws = false;
    try {
      PackPlan p(s);
    } catch (const Error&) {
      impl_throws = true;
    }
    EXPECT_EQ(impl_throws, spec_throws) << text;
  }
}

TEST(Errors, InvalidLayoutsThrowLikeTheSpec) {
  for (const char* text : {"f32[3,5]{1,0:T(2,0)}", "f32[?,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,*)}",
                           "f32[4611686018427387904,4]{1,0:T(1,3)}",
                           "f32[4611686018427387904]{0:T(3)}",
                           "f32[3037000499,3037000499]{1,0:T(2,2)}",
                           "f32[1152921504606846975]{0}", "u4[4611686018427387903]{0:E(4)}"}) {
    expect_validity_like_spec(text);
  }
}

// A valid layout whose dense buffer cannot exist: 2^62 + 1 elements of
// E(9) take 5.2e18 physical bytes but two dense bytes each, past int64. It
// is answered like the spec (index, sizes); only what needs the dense buffer
// refuses it, with the spec's reason.
TEST(Errors, DenseSizePastInt64IsValidButHasNoDenseBuffer) {
  const ShapeWithLayout s = parse_shape("s1[4611686018427387905]{0:E(9)}");
  expect_validity_like_spec(print_shape(s));
  const IndexPlan plan(s);
  EXPECT_EQ(plan.byte_size(), spec::byte_size(s));
  const std::vector<int64_t> last{4611686018427387904};
  EXPECT_EQ(plan.linear_index(last), spec::linear_index(s, last));
  EXPECT_THROW((void)spec::dense_byte_size(s), Error);
  EXPECT_THROW((void)plan.dense_byte_size(), Error);
  EXPECT_THROW(PackPlan{s}, Error);
}

// Empty arrays: valid exactly when the spec's checked sizes (taken in its
// order of multiplication) fit.
TEST(Errors, EmptyArraysValidLikeTheSpec) {
  for (const auto& text : empty_layouts()) {
    EXPECT_NO_THROW(PackPlan{parse_shape(text)}) << text;
    expect_validity_like_spec(text);
  }
  // A final shape whose product overflows before it meets the zero dim
  // (physical [4, 2^62, 0]); a zero inside a combined group after
  // members that overflow; an element count that overflows first.
  for (const char* text : {"f32[0,4611686018427387904,4]{0,1,2}",
                           "f32[4611686018427387904,4,0]{2,1,0:T(*,*,8)}",
                           "f32[4611686018427387904,4,0]{2,1,0}"}) {
    EXPECT_THROW(PackPlan{parse_shape(text)}, Error) << text;
    expect_validity_like_spec(text);
  }
}

TEST(Errors, BadBuffersThrowAndWriteNothing) {
  const ShapeWithLayout s = parse_shape("bf16[17,333]{1,0:T(8,128)(2,1)}");
  const PackPlan p(s);
  const size_t dense_n = p.index().dense_byte_size(), phys_n = p.index().byte_size();
  std::vector<uint8_t> dense(dense_n + 1, 7), physical(phys_n + 1, 9);
  const std::vector<uint8_t> dense0 = dense, physical0 = physical;
  auto d = std::span<uint8_t>(dense), ph = std::span<uint8_t>(physical);
  EXPECT_THROW(p.pack(d.first(dense_n - 1), ph.first(phys_n)), Error);
  EXPECT_THROW(p.pack(d.first(dense_n), ph.first(phys_n + 1)), Error);
  EXPECT_THROW(p.unpack(ph.first(phys_n - 2), d.first(dense_n)), Error);
  EXPECT_THROW(p.unpack(ph.first(phys_n), d.first(dense_n + 1)), Error);
  EXPECT_EQ(dense, dense0);
  EXPECT_EQ(physical, physical0);
  // Overlap: one buffer holding both.
  std::vector<uint8_t> both(dense_n + phys_n, 3);
  const std::vector<uint8_t> both0 = both;
  auto b = std::span<uint8_t>(both);
  EXPECT_THROW(p.pack(b.first(dense_n), b.subspan(dense_n - 1, phys_n)), Error);
  EXPECT_THROW(p.unpack(b.subspan(1, phys_n), b.subspan(phys_n, dense_n)), Error);
  EXPECT_EQ(both, both0);
  // Adjacent but disjoint is fine.
  EXPECT_NO_THROW(p.pack(b.first(dense_n), b.subspan(dense_n, phys_n)));
}

TEST(Errors, RelayoutMismatches) {
  const auto a = parse_shape("f32[16,256]{1,0:T(8,128)}");
  EXPECT_THROW(RelayoutPlan(a, parse_shape("f32[16,255]{1,0:T(8,128)}")), Error);
  EXPECT_THROW(RelayoutPlan(a, parse_shape("bf16[16,256]{1,0:T(8,128)(2,1)}")), Error);
  EXPECT_THROW(RelayoutPlan(a, parse_shape("f32[256,16]{1,0}")), Error);
  EXPECT_NO_THROW(RelayoutPlan(a, parse_shape("s32[16,256]{0,1:T(4,4)}")));  // same width
  const RelayoutPlan r(a, parse_shape("f32[16,256]{0,1}"));
  std::vector<uint8_t> src(16 * 256 * 4), dst(16 * 256 * 4 - 4, 1);
  EXPECT_THROW(r.run(src, dst), Error);
  EXPECT_TRUE(std::all_of(dst.begin(), dst.end(), [](uint8_t x) { return x == 1; }));
  EXPECT_THROW(r.run(std::span<const uint8_t>(src).first(src.size() - 1), src), Error);
  EXPECT_THROW(r.run(src, src), Error);  // overlapping
}

TEST(Errors, StridesAndSlices) {
  const auto a = parse_shape("f32[16,256]{1,0:T(8,128)}");
  EXPECT_THROW(PackPlan(a, std::vector<int64_t>{1024}), Error);      // one stride for rank 2
  EXPECT_THROW(PackPlan(a, std::vector<int64_t>{1024, -4}), Error);  // negative
  EXPECT_THROW(PackPlan(a, std::vector<int64_t>{1024, 2}), Error);   // not a multiple of 4
  const PackPlan padded(a, std::vector<int64_t>{2048, 4});           // rows 2 KiB apart
  EXPECT_EQ(padded.dense_span_bytes(), 15 * 2048 + 256 * 4);
  std::vector<uint8_t> dense(padded.dense_span_bytes()), physical(padded.index().byte_size());
  EXPECT_THROW(padded.pack(std::span(dense).first(dense.size() - 1), physical), Error);
  EXPECT_NO_THROW(padded.pack(dense, physical));
  const PackPlan broadcast(a, std::vector<int64_t>{0, 4});  // every row the same
  EXPECT_EQ(broadcast.dense_span_bytes(), 256 * 4);
  std::vector<uint8_t> row(1024);
  EXPECT_NO_THROW(broadcast.pack(row, physical));
  try {
    broadcast.unpack(physical, row);
    ADD_FAILURE() << "unpack into overlapping elements";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("may overlap"), std::string::npos) << e.what();
  }
  EXPECT_EQ(row_slice_granularity(a), 8);
  EXPECT_THROW(row_slice(a, 4, 16), Error);   // not on a tile row
  EXPECT_THROW(row_slice(a, 8, 17), Error);   // past the end
  EXPECT_THROW(row_slice(a, 8, 8), Error);    // empty
  const RowSlice second = row_slice(a, 8, 16);
  EXPECT_EQ(second.physical_offset, 8 * 256 * 4);
  EXPECT_EQ(second.dense_offset, 8 * 256 * 4);
  EXPECT_EQ(print_shape(second.shape), "f32[8,256]{1,0:T(8,128)}");
  // s4 (8,128)(8,1): a tile row of 8 x 128 nibbles is 512 bytes.
  EXPECT_EQ(row_slice(parse_shape("s4[24,128]{1,0:T(8,128)(8,1)E(4)}"), 8, 24).physical_offset, 512);
  // Ragged rows: the last slice may end anywhere; column-major: columns.
  EXPECT_EQ(row_slice(parse_shape("f32[3,5]{1,0:T(2,2)}"), 2, 3).physical_bytes, 3 * 4 * 4);
  EXPECT_EQ(row_slice(parse_shape("f32[3,5]{0,1:T(2,2)}"), 2, 4).dim, 1);
  EXPECT_THROW(row_slice_granularity(parse_shape("f32[]")), Error);
  EXPECT_THROW(row_slice_granularity(parse_shape("f32[8,128]{1,0:T(8,128)L(1024)}")), Error);
  // A tile of 2^62 + 1 rows of 3 combined columns: 3 is prime to t, so t
  // rows are the granularity, though t*3 exceeds int64; for s4 it would be
  // 2t rows, past int64: a clear error, not an overflow.
  const int64_t t = (int64_t{1} << 62) + 1;
  const std::string tile = "{1,0:T(*," + std::to_string(t) + ")}";
  EXPECT_EQ(row_slice_granularity(parse_shape("u8[1,3]" + tile)), t);
  EXPECT_THROW(row_slice_granularity(parse_shape("s4[1,3]" + tile)), Error);
}

// The TPU pairs a runtime relayouts go over the tiles or band by band; a
// change of the major dim goes block by block where both layouts are whole
// tiles, else through the whole array (all checked against the spec in
// Relayout.MatchesUnpackThenPack and the properties).
TEST(Relayout, TpuPairsMoveEachElementOnce) {
  const auto by_tiles = [](const char* a, const char* b) {
    return RelayoutPlan(parse_shape(a), parse_shape(b)).by_tiles();
  };
  const auto banded = [](const char* a, const char* b) {
    return RelayoutPlan(parse_shape(a), parse_shape(b)).banded();
  };
  EXPECT_TRUE(by_tiles("bf16[1024,1024]{1,0:T(8,128)}", "bf16[1024,1024]{1,0:T(8,128)(2,1)}"));
  EXPECT_TRUE(by_tiles("s8[1024,1024]{1,0:T(8,128)(4,1)}", "s8[1024,1024]{1,0:T(8,128)}"));
  // Ragged tiles, sub-byte elements, or sub-tiles on both sides: by bands.
  EXPECT_TRUE(banded("bf16[1000,1000]{1,0:T(8,128)}", "bf16[1000,1000]{1,0:T(8,128)(2,1)}"));
  EXPECT_TRUE(banded("s4[1024,1024]{1,0:T(8,128)(8,1)E(4)}", "s4[1024,1024]{1,0:T(8,128)E(4)}"));
  EXPECT_TRUE(banded("bf16[1024,1024]{1,0:T(8,128)(2,1)}", "bf16[1024,1024]{1,0:T(16,128)(2,1)}"));
  EXPECT_TRUE(by_tiles("f32[1024,1024]{1,0:T(8,128)}", "f32[1024,1024]{1,0}"));  // an unpack
  EXPECT_TRUE(banded("f32[1024,1024]{1,0:T(8,128)}", "f32[1024,1024]{1,0:T(4,128)}"));
  const auto by_blocks = [](const char* a, const char* b) {
    const RelayoutPlan plan(parse_shape(a), parse_shape(b));
    return plan.by_blocks() && !plan.by_tiles() && !plan.banded();
  };
  EXPECT_TRUE(by_blocks("f32[1024,1024]{1,0:T(8,128)}", "f32[1024,1024]{0,1:T(8,128)}"));
  EXPECT_TRUE(by_blocks("bf16[256,1024]{1,0:T(8,128)(2,1)}", "bf16[256,1024]{0,1:T(8,128)(2,1)}"));
  EXPECT_TRUE(by_blocks("s4[1024,1024]{1,0:T(8,128)(8,1)E(4)}", "s4[1024,1024]{0,1:T(8,128)E(4)}"));
  EXPECT_TRUE(by_blocks("f32[1024,1024]{0,1}", "f32[1024,1024]{1,0:T(8,128)}"));  // untiled: tiles of one element
  // Padding (a ragged tile) on either side: through the whole array.
  const RelayoutPlan ragged(parse_shape("f32[1000,1000]{1,0:T(8,128)}"), parse_shape("f32[1000,1000]{0,1:T(8,128)}"));
  EXPECT_FALSE(ragged.by_tiles() || ragged.banded() || ragged.by_blocks());
}

TEST(Errors, CheckedIndexAndBatchShapes) {
  const IndexPlan p(parse_shape("f32[3,5]{1,0:T(2,2)}"));
  EXPECT_THROW(p.linear_index_checked(std::vector<int64_t>{3, 0}), Error);
  EXPECT_THROW(p.linear_index_checked(std::vector<int64_t>{0, -1}), Error);
  EXPECT_THROW(p.linear_index_checked(std::vector<int64_t>{0}), Error);
  std::vector<int64_t> out(2);
  EXPECT_THROW(p.linear_index_batch(std::vector<int64_t>{0, 0, 1}, out), Error);
  std::vector<int64_t> e(1);
  EXPECT_THROW(p.delinearize(0, e), Error);
  // The checked batch names the bad element and writes nothing.
  std::vector<int64_t> two{7, 7};
  try {
    p.linear_index_batch_checked(std::vector<int64_t>{0, 0, 2, 5}, two);
    ADD_FAILURE() << "no error for a column of 5";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("element 1 of the batch: coordinate 1 is 5"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(two, (std::vector<int64_t>{7, 7}));
  // Padding positions give rows of -1; a position past the padded count throws.
  std::vector<int64_t> rows(4, 0);
  p.delinearize_batch(std::vector<int64_t>{0, 9}, rows);  // 9: a padding position
  EXPECT_EQ(rows, (std::vector<int64_t>{0, 0, -1, -1}));
  EXPECT_THROW(p.delinearize_batch(std::vector<int64_t>{24}, std::span<int64_t>(rows).first(2)), Error);
  EXPECT_THROW(p.delinearize_batch(std::vector<int64_t>{0}, rows), Error);  // room for two
}

TEST(FastDiv, MatchesHardwareDivision) {
  std::mt19937_64 rng(4);
  std::vector<int64_t> divisors;
  for (int64_t d = 1; d <= 300; ++d) divisors.push_back(d);
  for (int k = 1; k < 63; ++k) {
    divisors.push_back(int64_t{1} << k);
    divisors.push_back((int64_t{1} << k) + 1);
    divisors.push_back((int64_t{1} << k) - 1);
  }
  divisors.push_back(INT64_MAX);
  for (int i = 0; i < 200; ++i) divisors.push_back(1 + static_cast<int64_t>(rng() >> (1 + rng() % 62)));
  for (int64_t d : divisors) {
    const FastDiv f(d);
    auto check = [&](int64_t n) {
      if (n < 0) return;
      ASSERT_EQ(f.quotient(n), n / d) << n << " / " << d;
    };
    for (int64_t n = 0; n < 1000; ++n) check(n);
    for (int64_t m = 1; m < 64 && d <= INT64_MAX / m; ++m) check(d * m - 1), check(d * m);
    check(INT64_MAX);
    check(INT64_MAX - 1);
    check(INT64_MAX / d * d);
    check(INT64_MAX / d * d - 1);
    for (int i = 0; i < 200; ++i) check(static_cast<int64_t>(rng() >> 1));
  }
}

// The production thresholds (ExecOptions): the properties lower them to
// reach every path at small size; a change of the defaults is a change of
// production behaviour and must show up here and in docs/PERFORMANCE.md.
TEST(ExecOptions, ProductionThresholds) {
  const ExecOptions defaults;
  EXPECT_EQ(defaults.threads, 0);
  EXPECT_EQ(defaults.stream_bytes, int64_t{8} << 20);
  EXPECT_EQ(defaults.parallel_bytes, int64_t{8} << 20);
}

TEST(Examples, FigureOne) {
  const IndexPlan p(parse_shape("f32[3,5]{1,0:T(2,2)}"));
  EXPECT_EQ(p.linear_index(std::vector<int64_t>{2, 3}), 17);
  // (8,128): one step per tiled dim, division by powers of two.
  const IndexPlan q(parse_shape("f32[16,256]{1,0:T(8,128)}"));
  ASSERT_EQ(q.program().steps.size(), 2u);
  EXPECT_EQ(q.program().steps[0].divisor, 8);
  EXPECT_EQ(q.program().steps[1].divisor, 128);
}

}  // namespace
}  // namespace tilecheck::impl
