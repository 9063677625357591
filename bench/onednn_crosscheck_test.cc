// oneDNN's reorder and PackPlan::pack write the same bytes, padding
// included, for every benchmark case that oneDNN can express: at the
// benchmark's size, at the spec's smaller size, and for the rank-2 cases at a
// ragged size. oneDNN is an independent implementation of the same blocked
// formats, so this checks the impl against a peer, not only against the
// spec, and it keeps the benchmark's oneDNN figures meaningful.
//
// The dense arrays are random bytes, so every float bit pattern occurs:
// signalling and quiet NaNs, denormals, infinities. Every element that
// differs is classified. oneDNN is not a bit-exact copy everywhere: on a
// CPU (or an ISA limit) without AVX-512, its bf16 reorder runs the reference
// implementation, which converts each value through f32 and so quiets
// signalling NaNs, flushes denormals to a signed zero and writes -0 as +0
// (docs/PEERS.md, "What oneDNN changes"; peers::onednn_value_changes, by the
// implementation oneDNN picks). Those classes are allowed there and nowhere
// else; any other difference fails the test.
//
// ctest runs this program twice: with oneDNN's default ISA, and with
// ONEDNN_MAX_CPU_ISA=AVX2, so every machine sees both behaviours.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "bench/cases.h"
#include <tilecheck/testing/value_class.h>
#include "peers/onednn/onednn_layout.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>

namespace {

using tilecheck::ElementType;
using tilecheck::ShapeWithLayout;
using tilecheck::bench::Case;
using tilecheck::peers::OneDnnFormat;

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// How one element of oneDNN's output differs from the impl's: the gate's
// classes (tilecheck/testing/value_class.h).
using Difference = tilecheck::check::ValueClass;
const char* name(Difference d) { return tilecheck::check::value_class_name(d); }

struct Comparison {
  std::map<Difference, int64_t> counts;
  int64_t first_undocumented = -1;  // the byte offset of the first undocumented difference
  int64_t undocumented = 0;
  std::string report() const {
    std::string s;
    for (const auto& [d, n] : counts) s += std::string(s.empty() ? "" : ", ") + std::to_string(n) + " " + name(d);
    return s.empty() ? "no element differs" : s;
  }
};

// Compares the two physical buffers element by element (both are whole
// elements: the cases' types are 1, 2 or 4 bytes) and classifies each
// differing element; an integer type's differences are all "other".
Comparison compare(ElementType type, const std::vector<Difference>& allowed, const std::vector<uint8_t>& ours,
                   const std::vector<uint8_t>& theirs) {
  const std::optional<tilecheck::check::FloatFormat> f = tilecheck::check::float_format(type);
  const size_t width = f ? static_cast<size_t>(f->bits / 8) : 1;
  Comparison c;
  for (size_t i = 0; i + width <= ours.size(); i += width) {
    if (std::memcmp(&ours[i], &theirs[i], width) == 0) continue;
    uint64_t a = 0, b = 0;
    std::memcpy(&a, &ours[i], width);  // little-endian: the element's value
    std::memcpy(&b, &theirs[i], width);
    const Difference d = tilecheck::check::classify_element(type, a, b);
    ++c.counts[d];
    if (std::find(allowed.begin(), allowed.end(), d) == allowed.end()) {
      if (c.first_undocumented < 0) c.first_undocumented = static_cast<int64_t>(i);
      ++c.undocumented;
    }
  }
  return c;
}

struct Outputs {
  std::vector<uint8_t> ours, theirs;
};

// Packs the same random dense array with PackPlan and with oneDNN.
Outputs pack_both(const ShapeWithLayout& shape) {
  const auto format_or = tilecheck::peers::onednn_format(shape);
  if (const auto* why = std::get_if<std::string>(&format_or)) {
    ADD_FAILURE() << "oneDNN cannot express " << tilecheck::print_shape(shape) << ": " << *why;
    return {};
  }
  const OneDnnFormat* format = &std::get<OneDnnFormat>(format_or);
  const tilecheck::impl::PackPlan plan(shape);
  if (static_cast<int64_t>(format->blocked.get_size()) != plan.index().byte_size()) {
    ADD_FAILURE() << "oneDNN's buffer has " << format->blocked.get_size() << " bytes, the layout "
                  << plan.index().byte_size();
    return {};
  }
  const auto dense = random_bytes(plan.index().dense_byte_size(), 7);
  // Different fill bytes, so neither side's padding is zero by accident.
  Outputs o{std::vector<uint8_t>(plan.index().byte_size(), 0xAB), std::vector<uint8_t>(plan.index().byte_size(), 0xCD)};
  plan.pack(dense, o.ours, {1});
  tilecheck::peers::onednn_pack(*format, dense, o.theirs);
  return o;
}

void expect_same_values(const ShapeWithLayout& shape) {
  const std::string text = tilecheck::print_shape(shape);
  SCOPED_TRACE(text);
  const Outputs o = pack_both(shape);
  if (o.ours.empty()) return;
  const auto format = std::get<OneDnnFormat>(tilecheck::peers::onednn_format(shape));
  const auto allowed = tilecheck::peers::onednn_value_changes(
      shape.type, tilecheck::peers::onednn_reorder_impl(format.plain, format.blocked));
  const Comparison cmp = compare(shape.type, allowed, o.ours, o.theirs);
  std::printf("%-45s %s\n", text.c_str(), cmp.report().c_str());
  EXPECT_EQ(cmp.undocumented, 0) << cmp.undocumented << " of " << o.ours.size()
                                 << " bytes' elements differ in a way not documented for this type and ISA ("
                                 << cmp.report() << "), the first at byte " << cmp.first_undocumented;
}

TEST(OneDnnCrossCheck, EveryExpressibleCaseWritesTheSameValues) {
  ASSERT_TRUE(tilecheck::peers::limit_onednn_to_one_thread());
  // The run ctest starts with ONEDNN_MAX_CPU_ISA=AVX2 really runs oneDNN
  // without AVX-512, so its reference bf16 reorder is checked on every machine.
  const auto isa = static_cast<int>(dnnl::get_effective_cpu_isa());
  if (const char* limit = std::getenv("ONEDNN_MAX_CPU_ISA"); limit != nullptr && std::string(limit) == "AVX2") {
    ASSERT_EQ(isa & ~static_cast<int>(dnnl::cpu_isa::avx2), 0) << "oneDNN ignored its ISA limit: 0x" << std::hex << isa;
  }
  std::printf("oneDNN's effective ISA 0x%x %s AVX-512\n", isa, tilecheck::peers::onednn_isa_has(dnnl::cpu_isa::avx512_core) ? "has" : "lacks");
  int checked = 0;
  for (const Case& c : tilecheck::bench::cases()) {
    if (!std::holds_alternative<OneDnnFormat>(tilecheck::peers::onednn_format(tilecheck::parse_shape(c.layout)))) {
      continue;
    }
    SCOPED_TRACE(c.name);
    expect_same_values(tilecheck::parse_shape(c.layout));
    expect_same_values(tilecheck::parse_shape(c.small_layout));
    ShapeWithLayout ragged = tilecheck::parse_shape(c.small_layout);
    if (ragged.rank() == 2) {
      ragged.dims = {1001, 333};
      expect_same_values(ragged);
    }
    ++checked;
  }
  // Thirteen of the sixteen cases have a oneDNN format (not s4, pred or
  // f64): none may drop out unnoticed.
  EXPECT_EQ(checked, 13);
}

// The comparison fails on what a broken reorder would write: one flipped
// mantissa bit of a normal bf16 value (even where quieted NaNs and flushed
// denormals are allowed), and a quieted NaN in f32 under the jit kernels,
// where nothing is.
TEST(OneDnnCrossCheck, AnUndocumentedDifferenceFails) {
  ASSERT_TRUE(tilecheck::peers::limit_onednn_to_one_thread());
  for (const Case& c : tilecheck::bench::cases()) {
    const std::string n = c.name;
    if (n != "bf16_8x128_2x1" && n != "f32_8x128") continue;
    const ShapeWithLayout shape = tilecheck::parse_shape(c.small_layout);
    SCOPED_TRACE(c.small_layout);
    Outputs o = pack_both(shape);
    ASSERT_FALSE(o.ours.empty());
    const bool bf16 = shape.type == ElementType::kBF16;
    // bf16 under the most lenient implementation, the simple reorder; f32
    // under the jit kernels, which change no f32 value.
    const auto allowed = tilecheck::peers::onednn_value_changes(shape.type, bf16 ? "simple:any" : "jit:uni");
    // Make the outputs equal where they may differ in documented ways, then break one element.
    o.theirs = o.ours;
    ASSERT_EQ(compare(shape.type, allowed, o.ours, o.theirs).undocumented, 0);
    for (size_t i = 0; i < o.ours.size(); i += bf16 ? 2 : 4) {
      if (bf16) {
        uint16_t v;
        std::memcpy(&v, &o.ours[i], 2);
        const int exp = (v >> 7) & 0xff;
        if (exp == 0 || exp == 0xff) continue;  // not a normal value
        v ^= 1;                                 // the lowest mantissa bit
        std::memcpy(&o.theirs[i], &v, 2);
      } else {
        const uint32_t snan = 0x7f800001, qnan = snan | 0x00400000;
        std::memcpy(&o.ours[i], &snan, 4);
        std::memcpy(&o.theirs[i], &qnan, 4);
      }
      break;
    }
    Comparison cmp = compare(shape.type, allowed, o.ours, o.theirs);
    EXPECT_EQ(cmp.undocumented, 1) << cmp.report();
    EXPECT_EQ(cmp.counts[bf16 ? Difference::kOther : Difference::kSignallingNanQuieted], 1) << cmp.report();
  }
}

}  // namespace
