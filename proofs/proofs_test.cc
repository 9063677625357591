// Tests of the Z3 proofs: the catalogue is proved for symbolic dims, the
// equiv examples of docs/PROOFS.md come out right, and deliberately wrong mappings,
// built from the same symbolic machinery, are refuted with counterexamples
// that this file replays on int64 itself.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "proofs/obligations.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::proofs {
namespace {

ShapeWithLayout symbolic(std::string_view text) {
  ShapeWithLayout s = parse_shape(text);
  for (int64_t& d : s.dims) d = kSymbolicDim;
  return s;
}

// Every catalogue layout, all dims symbolic: P1-P3 proved, and P5 proved by
// the compositional queries (not the whole-query fallback).
TEST(Catalog, EveryLayoutIsProvedForSymbolicDims) {
  Prover prover({10000, ""});
  for (const CatalogEntry& entry : catalog()) {
    const ShapeWithLayout shape = symbolic(entry.layout);
    for (const Outcome& o : prover.prove(shape)) {
      EXPECT_EQ(o.verdict, Verdict::kProved) << entry.name << " " << o.name << ": " << o.detail;
    }
    const Outcome p5 = prover.prove_no_overflow(shape);
    EXPECT_EQ(p5.verdict, Verdict::kProved) << entry.name << " P5: " << p5.detail;
    if (shape.has_symbolic_dims()) {  // (f32[]{:T(128)} has none: one linear query)
      EXPECT_EQ(p5.detail.rfind("compositional: ", 0), 0u) << entry.name << " P5: " << p5.detail;
    }
  }
  for (const Outcome& o : prover.shared_lemmas()) {
    EXPECT_EQ(o.verdict, Verdict::kProved) << o.name << ": " << o.detail;
  }
}

// '*' after a rank-3 shape, and a '*' group reaching into D3's extension.
TEST(Catalog, CombinedDimsAreProved) {
  Prover prover({10000, ""});
  for (const char* layout : {"f32[?,?,?]{2,1,0:T(*,4)}", "f32[?]{0:T(*,4)}"}) {
    for (const Outcome& o : prover.prove(symbolic(layout))) {
      EXPECT_EQ(o.verdict, Verdict::kProved) << layout << " " << o.name << ": " << o.detail;
    }
  }
}

TEST(Catalog, ConcreteDimsAreProvedToo) {
  Prover prover({10000, ""});
  for (const Outcome& o : prover.prove(parse_shape("bf16[17,333]{1,0:T(8,128)(2,1)}"))) {
    EXPECT_EQ(o.verdict, Verdict::kProved) << o.name;
  }
}

// ---------------------------------------------------------------------------
// equiv, the examples of docs/PROOFS.md.

TEST(Equiv, TrivialTileIsTheIdentity) {
  Prover prover({10000, ""});
  const Outcome o =
      prover.equivalent(parse_shape("f32[?,128]{1,0:T(1,128)}"), parse_shape("f32[?,128]{1,0}"));
  EXPECT_EQ(o.verdict, Verdict::kProved) << o.detail;
}

TEST(Equiv, TiledIsNotRowMajorAndTheCounterexampleIsReal) {
  Prover prover({10000, ""});
  const ShapeWithLayout a = parse_shape("f32[?,?]{1,0:T(8,128)}"), b = parse_shape("f32[?,?]{1,0}");
  const Outcome o = prover.equivalent(a, b);
  ASSERT_EQ(o.verdict, Verdict::kRefuted) << o.detail;
  ASSERT_TRUE(o.counterexample);
  ShapeWithLayout ca = a, cb = b;
  ca.dims = cb.dims = o.counterexample->dims;
  const auto& e = o.counterexample->elements.at(0);
  EXPECT_NE(spec::linear_index(ca, e), spec::linear_index(cb, e));
}

// ---------------------------------------------------------------------------
// The proofs bite: wrong mappings are refuted, with real counterexamples.

// floor(d/t) tiles instead of ceil(d/t): the ragged last tile has no room.
struct FloorTileCount : SpecPieces {
  template <class A>
  static Vec<A> tile_bounds(A& a, const spec::TileSizes<A>& t, const Vec<A>& b) {
    Vec<A> out = spec::tile_bounds(a, t, b);
    // Recompute the outer (tile-count) dims with floor division.
    const spec::LevelStructure s = spec::level_structure<A>(t, b.size());
    const Vec<A> d = spec::extend(a, b, s.extension, 1);
    for (size_t k = 0; k < s.groups.size(); ++k) {
      out[s.prefix + k] = a.div_mod(spec::group_bound(a, d, s.groups[k]), *t[s.groups[k].tile_pos]).quotient;
    }
    return out;
  }
};

// The within-tile coordinates in reverse order (bounds unchanged).
struct SwappedInnerOrder : SpecPieces {
  template <class A>
  static Vec<A> tile_index(A& a, const spec::TileSizes<A>& t, const Vec<A>& b, const Vec<A>& e) {
    Vec<A> out = spec::tile_index(a, t, b, e);
    const size_t n = spec::level_structure<A>(t, b.size()).groups.size();
    std::reverse(out.end() - n, out.end());
    return out;
  }
};

// The tile applied to the most major dims instead of the minor suffix (the
// last dim is carried along untiled) in tile_index only.
struct WrongSuffix : SpecPieces {
  template <class A>
  static Vec<A> tile_index(A& a, const spec::TileSizes<A>& t, const Vec<A>& b, const Vec<A>& e) {
    if (b.size() <= t.size()) return spec::tile_index(a, t, b, e);
    Vec<A> out = spec::tile_index(a, t, Vec<A>(b.begin(), b.end() - 1), Vec<A>(e.begin(), e.end() - 1));
    out.push_back(e.back());
    return out;
  }
};

// Column-major linearization with the spec's row-major inverse.
struct ColumnMajorLinear : SpecPieces {
  template <class A>
  static typename A::Value linear_index(A& a, const Vec<A>& x, const Vec<A>& d) {
    return spec::linear_index(a, Vec<A>(x.rbegin(), x.rend()), Vec<A>(d.rbegin(), d.rend()));
  }
};

// An inverse that never reports padding.
struct NoPaddingCheck : SpecPieces {
  template <class A>
  static spec::Untiled<A> untile_index(A& a, const spec::TileSizes<A>& t, const Vec<A>& b,
                                       const Vec<A>& y) {
    spec::Untiled<A> u = spec::untile_index(a, t, b, y);
    u.in_bounds = a.truth(true);
    return u;
  }
};

// Replays a counterexample on int64 with the wrong mapping's own pieces,
// independently of the prover's replay.
void expect_real(const Mapping& m, const ShapeWithLayout& shape, const Outcome& o) {
  ASSERT_TRUE(o.counterexample) << o.name;
  const Counterexample& c = *o.counterexample;
  SCOPED_TRACE(m.name + " " + o.name + ": " + c.explanation);
  spec::Int64Domain a;
  const Layout& l = shape.layout;
  auto in_box = [&](const std::vector<int64_t>& e) {
    for (size_t i = 0; i < e.size(); ++i) {
      if (e[i] < 0 || e[i] >= c.dims[i]) return false;
    }
    return e.size() == c.dims.size();
  };
  for (size_t i = 0; i < shape.dims.size(); ++i) {
    if (shape.dims[i] != kSymbolicDim) {
      EXPECT_EQ(c.dims[i], shape.dims[i]);
    }
  }
  const int64_t n = mapped_final_count(a, m.concrete, c.dims, l);
  if (o.name == "P1") {
    ASSERT_EQ(c.elements.size(), 2u);
    EXPECT_NE(c.elements[0], c.elements[1]);
    EXPECT_TRUE(in_box(c.elements[0]) && in_box(c.elements[1]));
    EXPECT_EQ(mapped_linear_index(a, m.concrete, c.dims, l, c.elements[0]),
              mapped_linear_index(a, m.concrete, c.dims, l, c.elements[1]));
  } else if (o.name == "P2") {
    ASSERT_TRUE(in_box(c.elements.at(0)));
    const int64_t p = mapped_linear_index(a, m.concrete, c.dims, l, c.elements[0]);
    EXPECT_TRUE(p < 0 || p >= mapped_padded_count(a, m.concrete, c.dims, l));
  } else if (!c.elements.empty()) {
    ASSERT_TRUE(in_box(c.elements[0]));
    const int64_t p = mapped_linear_index(a, m.concrete, c.dims, l, c.elements[0]);
    if (p >= 0 && p < n) {
      const auto u = mapped_delinearize(a, m.concrete, c.dims, l, p);
      EXPECT_FALSE(u.in_bounds && u.index == c.elements[0]);
    }
  } else {
    const int64_t p = c.positions.at(0);
    ASSERT_TRUE(p >= 0 && p < n);
    const auto u = mapped_delinearize(a, m.concrete, c.dims, l, p);
    ASSERT_TRUE(u.in_bounds);
    EXPECT_FALSE(in_box(u.index) && mapped_linear_index(a, m.concrete, c.dims, l, u.index) == p);
  }
}

void expect_refuted(const Mapping& m, std::string_view layout) {
  const ShapeWithLayout shape = parse_shape(layout);
  // A wrong mapping's whole-layout queries can be nonlinear: some may time
  // out (unknown), but none may be proved wrong, at least one must be refuted,
  // and every refutation must replay.
  Prover prover({10000, ""}, m);
  int refuted = 0;
  for (const Outcome& o : prover.prove(shape)) {
    if (o.verdict == Verdict::kRefuted) {
      ++refuted;
      expect_real(m, shape, o);
    }
  }
  EXPECT_GT(refuted, 0) << m.name << " was not refuted on " << layout;
  // The same layout with the spec's mapping is proved: the failure is the mutant's.
  Prover control({10000, ""});
  for (const Outcome& o : control.prove(shape)) EXPECT_EQ(o.verdict, Verdict::kProved) << o.name;
}

TEST(Bite, FloorInsteadOfCeilForTheTileCount) {
  expect_refuted(make_mapping<FloorTileCount>("floor tile count"), "f32[?,?]{1,0:T(8,128)}");
}
TEST(Bite, SwappedInnerOrder) {
  expect_refuted(make_mapping<SwappedInnerOrder>("swapped inner order"), "f32[?,?]{1,0:T(8,128)}");
}
TEST(Bite, TileAppliedToTheWrongSuffix) {
  expect_refuted(make_mapping<WrongSuffix>("wrong suffix"), "f32[?,9,300]{2,1,0:T(8,128)}");
}
TEST(Bite, ColumnMajorLinearization) {
  expect_refuted(make_mapping<ColumnMajorLinear>("column-major linearization"), "f32[?,?]{1,0}");
}
TEST(Bite, InverseThatNeverReportsPadding) {
  expect_refuted(make_mapping<NoPaddingCheck>("no padding check"), "f32[?,?]{1,0:T(2,2)}");
}
TEST(Bite, ConcreteDimsAreKeptInTheCounterexample) {
  expect_refuted(make_mapping<FloorTileCount>("floor tile count"), "f32[?,300]{1,0:T(8,128)}");
}

// ---------------------------------------------------------------------------
// P4: the impl's index program equals the spec, and a wrong program is refuted.

TEST(ImplAgrees, ProgramsOfConcreteLayoutsAreProved) {
  Prover prover({10000, ""});
  for (const char* layout : {"bf16[17,333]{1,0:T(8,128)(2,1)}", "f32[1048576,1048576]{1,0:T(8,128)}",
                             "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "f32[3,4,5,6]{1,3,0,2:T(4,8)}"}) {
    const Outcome o = prover.prove_impl_agrees(parse_shape(layout));
    EXPECT_EQ(o.verdict, Verdict::kProved) << layout << ": " << o.detail;
  }
}

TEST(ImplAgrees, AWrongProgramIsRefutedWithARealCounterexample) {
  const ShapeWithLayout shape = parse_shape("f32[13,300]{1,0:T(8,128)}");
  impl::IndexProgram program = impl::IndexPlan(shape).program();
  ASSERT_FALSE(program.steps.empty());
  program.steps[0].divisor += 1;  // an off-by-one tile size in the first division
  Prover prover({10000, ""});
  const Outcome o = prover.prove_program_agrees(
      shape, program, [&](std::span<const int64_t> e) { return impl::evaluate_index_program(program, e); });
  ASSERT_EQ(o.verdict, Verdict::kRefuted) << o.detail;
  const auto& e = o.counterexample->elements.at(0);
  EXPECT_NE(impl::evaluate_index_program(program, e), spec::linear_index(shape, e));
}

// ---------------------------------------------------------------------------
// P5: no int64 overflow (proofs/overflow.h).

// Every catalogue layout with its dims as written (this covers the impl's
// index program too), and a shape near the int64 limit.
TEST(NoOverflow, CatalogueWithItsDimsIsProved) {
  Prover prover({10000, ""});
  std::vector<std::string> layouts = {"f32[1048576,1048576]{1,0:T(8,128)}",
                                      "u8[3,2305843009213693952]{1,0}"};
  for (const CatalogEntry& entry : catalog()) layouts.emplace_back(entry.layout);
  for (const std::string& layout : layouts) {
    const Outcome o = prover.prove_no_overflow(parse_shape(layout));
    EXPECT_EQ(o.verdict, Verdict::kProved) << layout << ": " << o.detail;
  }
}

// A shape the spec rejects is proved when the impl rejects it too.
TEST(NoOverflow, RejectedShapesAreRejectedByBoth) {
  Prover prover({10000, ""});
  const Outcome o = prover.prove_no_overflow(parse_shape("f32[2,4611686018427387904]{1,0}"));
  EXPECT_EQ(o.verdict, Verdict::kProved);
  EXPECT_NE(o.detail.find("rejects"), std::string::npos);
}

constexpr __int128 kInt64Limit = static_cast<__int128>(1) << 63;

// The byte size as ceil(count*bits/8): overflows while the byte size fits.
struct ByteSizeBeforeDividing {
  template <class A>
  static typename A::Value byte_size(A& a, const typename A::Value& count, int64_t bits) {
    return a.ceil_div(a.mul(count, a.constant(bits)), a.constant(8));
  }
};

TEST(NoOverflow, ByteSizeFormedBeforeDividingIsRefuted) {
  Prover prover({10000, ""});
  const ShapeWithLayout shape = symbolic("f32[5,7]{1,0:T(2,4)}");
  const Outcome o =
      prover.prove_no_overflow(shape, make_byte_size<ByteSizeBeforeDividing>("count*bits first"));
  ASSERT_EQ(o.verdict, Verdict::kRefuted) << o.detail;
  // Replay here: the concrete shape validates, count*bits does not fit int64.
  ShapeWithLayout concrete = shape;
  concrete.dims = o.counterexample->dims;
  ASSERT_NO_THROW(spec::validate(concrete));
  const __int128 count_bits =
      static_cast<__int128>(spec::padded_element_count(concrete)) * concrete.element_bits();
  EXPECT_GE(count_bits, kInt64Limit);
  EXPECT_LT(spec::byte_size(concrete), std::numeric_limits<int64_t>::max());
  // The spec's own byte size is proved for the same layout.
  EXPECT_EQ(prover.prove_no_overflow(shape).verdict, Verdict::kProved);
}

// An impl program whose stride is rounded up past the final product
// (2^62 instead of 2^61) overflows for the last row.
TEST(NoOverflow, OversizedStrideInAProgramIsRefuted) {
  const ShapeWithLayout shape = parse_shape("u8[3,2305843009213693952]{1,0}");
  impl::IndexProgram program;
  program.input_count = 2;
  program.result = {{0, int64_t{1} << 62}, {1, 1}};
  Prover prover({10000, ""});
  const Outcome o = prover.prove_no_overflow(shape, spec_byte_size(), &program);
  ASSERT_EQ(o.verdict, Verdict::kRefuted) << o.detail;
  const std::vector<int64_t>& e = o.counterexample->elements.at(0);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_TRUE(e[0] >= 0 && e[0] < 3 && e[1] >= 0 && e[1] < shape.dims[1]);
  const __int128 index = static_cast<__int128>(e[0]) * (int64_t{1} << 62) + e[1];
  EXPECT_GE(index, kInt64Limit);
  // The impl's real program for the same shape is proved.
  EXPECT_EQ(prover.prove_no_overflow(shape).verdict, Verdict::kProved);
}

// Validations that forget a bound, as the hypothesis of P5: each is refuted
// with dims that the weakened validation accepts, spec::validate rejects,
// and on which a step the oracle performs leaves int64 (replayed here).
struct ValidationWithoutByteSize {
  template <class A>
  static void sizes(A& a, const std::vector<typename A::Value>& dims, const Layout& layout,
                    int64_t) {
    spec::padded_element_count(a, dims, layout);
    spec::product(a, dims);
  }
};

struct ValidationOfTheLogicalBytesOnly {  // forgets the tiles' padding
  template <class A>
  static void sizes(A& a, const std::vector<typename A::Value>& dims, const Layout&,
                    int64_t bits) {
    spec::byte_size_of_count(a, spec::product(a, dims), bits);
  }
};

template <class Validation>
Counterexample refuted_with_weakened_validation(const ShapeWithLayout& shape,
                                                std::string* detail = nullptr) {
  Prover prover({10000, ""});
  const Outcome o = prover.prove_no_overflow(shape, spec_byte_size(), nullptr,
                                             make_validation<Validation>("weakened"));
  EXPECT_EQ(o.verdict, Verdict::kRefuted) << o.detail;
  if (detail) *detail = o.detail;
  if (!o.counterexample) return {};
  ShapeWithLayout concrete = shape;
  concrete.dims = o.counterexample->dims;
  EXPECT_THROW(spec::validate(concrete), Error) << print_shape(concrete);
  // The spec's own validation is proved to be enough for the same layout.
  EXPECT_EQ(prover.prove_no_overflow(shape).verdict, Verdict::kProved);
  return *o.counterexample;
}

__int128 product128(const std::vector<int64_t>& v) {
  __int128 p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

TEST(NoOverflow, ValidationWithoutTheByteSizeIsRefuted) {
  const ShapeWithLayout shape = symbolic("f32[5,7]{1,0:T(2,4)}");
  std::string detail;
  const Counterexample c =
      refuted_with_weakened_validation<ValidationWithoutByteSize>(shape, &detail);
  ASSERT_FALSE(c.dims.empty());
  ShapeWithLayout concrete = shape;
  concrete.dims = c.dims;
  // The padded count fits int64 (the weakened validation's bound), its
  // bytes (4 per element) do not.
  const __int128 count = product128(spec::tiled_shape(concrete));
  EXPECT_LT(count, kInt64Limit);
  EXPECT_GE(count * 4, kInt64Limit);
  EXPECT_NE(c.explanation.find("byte size"), std::string::npos) << c.explanation;
  EXPECT_NE(detail.find("index"), std::string::npos) << detail;
  EXPECT_NE(detail.find("delinearize"), std::string::npos) << detail;
  EXPECT_EQ(detail.find("index refuted"), std::string::npos) << detail;
  EXPECT_NE(detail.find("bytes refuted"), std::string::npos) << detail;
}

TEST(NoOverflow, ValidationThatForgetsThePaddingIsRefuted) {
  const ShapeWithLayout shape = symbolic("f32[5,7]{1,0:T(8,128)}");
  std::string detail;
  const Counterexample c =
      refuted_with_weakened_validation<ValidationOfTheLogicalBytesOnly>(shape, &detail);
  // The index part is refuted on its own (the byte-size test shows the
  // bytes part does, after index and delinearize are proved); the whole
  // query then supplies the counterexample.
  EXPECT_NE(detail.find("index refuted"), std::string::npos) << detail;
  ASSERT_EQ(c.dims.size(), 2u);
  // The logical bytes fit, the tiled (padded) bytes do not.
  EXPECT_LT(product128(c.dims) * 4, kInt64Limit);
  const __int128 padded = static_cast<__int128>((c.dims[0] + 7) / 8) * 8 * ((c.dims[1] + 127) / 128) * 128;
  EXPECT_GE(padded * 4, kInt64Limit);
}

// ---------------------------------------------------------------------------
// Symbolic tile sizes: one level, unknown tile entries t >= 1.

// FastDiv: the bound (B) on all 64 intervals of divisors and the three parts
// of the lemma (Q) are proved.
TEST(FastDiv, EveryShiftTheCodeChoosesIsProved) {
  Prover prover({60000, ""});
  const std::vector<Outcome> outcomes = prover.prove_fast_div();
  ASSERT_EQ(outcomes.size(), 3u + 64u);
  for (const Outcome& o : outcomes) {
    EXPECT_EQ(o.verdict, Verdict::kProved) << o.name << " (" << o.title << "): " << o.detail;
  }
  EXPECT_EQ(outcomes.back().detail, "shift 126");
}

// The bite: a shift one bit short for divisors above 2^62 (l stays 62, the
// shift 125) is refuted on the last interval, with a divisor that this test
// checks in 128-bit arithmetic, and there is a dividend below 2^63 that such
// a FastDiv divides wrongly.
TEST(FastDiv, ShiftOneBitShortAbove2To62IsRefuted) {
  Prover prover({60000, ""});
  const auto short_shift = [](int64_t d) {
    return d > (int64_t{1} << 62) ? 125 : impl::FastDiv::shift_for(d);
  };
  const std::vector<Outcome> outcomes = prover.prove_fast_div_bounds(short_shift);
  ASSERT_EQ(outcomes.size(), 64u);
  for (size_t i = 0; i + 1 < outcomes.size(); ++i) EXPECT_EQ(outcomes[i].verdict, Verdict::kProved) << outcomes[i].name;
  const Outcome& last = outcomes.back();
  ASSERT_EQ(last.verdict, Verdict::kRefuted) << last.detail;
  ASSERT_TRUE(last.counterexample.has_value());
  const int64_t d = last.counterexample->dims.at(0);
  ASSERT_GT(d, int64_t{1} << 62);
  using u128 = unsigned __int128;
  const u128 p = u128{1} << 125;
  const u128 m = (p + static_cast<u128>(d) - 1) / static_cast<u128>(d);
  EXPECT_GT(m * static_cast<u128>(d) - p, u128{1} << 62) << last.counterexample->explanation;
  // The divisors where (B) fails are where such a division goes wrong: the
  // dividend d - 1 whenever m*d - 2^125 >= m. Search near Z3's divisor.
  int wrong = 0;
  for (int64_t dd = d; dd > d - 4096 && dd > (int64_t{1} << 62); --dd) {
    const u128 mm = (p + static_cast<u128>(dd) - 1) / static_cast<u128>(dd);
    if (static_cast<u128>(dd - 1) * mm >> 125 != 0) ++wrong;
  }
  EXPECT_GT(wrong, 0);
}

TEST(SymbolicTile, RanksOneToThreeAreProved) {
  Prover prover({30000, ""});
  for (size_t rank = 1; rank <= 3; ++rank) {
    for (const Outcome& o : prover.prove_symbolic_tile(rank)) {
      EXPECT_EQ(o.verdict, Verdict::kProved) << "rank " << rank << " " << o.name << ": " << o.detail;
    }
  }
}

}  // namespace
}  // namespace tilecheck::proofs
