// Proof obligations for tiled layouts, for symbolic shapes, by Z3.
//
// The Prover's parts, one file each: obligations.cc (running a query:
// time limit, SMT-LIB2 files, verdicts), lemmas.cc (the mixed-radix lemma),
// bijection.cc (P1-P3 and their level lemmas, whole-layout queries and
// counterexample replay, `equiv`), impl_agreement.cc (P4), no_overflow.cc
// (P5); prover_support.h holds what they share.
//
// Notation. A layout of rank n with minor_to_major m and tiles T_1..T_L maps
// a logical element e of dims D (0 <= e < D, elementwise) to
//
//   F(e) = lin(f_L(... f_1(pi(e)) ...), B_L)        (spec::linear_index_with_tile)
//
// where pi permutes into physical order (D1), B_0 = pi(D),
// B_k = tile_bounds(T_k, B_{k-1}), f_k = tile_index(T_k, B_{k-1}, .) (D2-D4),
// lin = linear_index (row-major, D5). Its inverse on positions is
//
//   G(p) = pi^-1(g_1(... g_L(rmc(p, B_L)) ...)),  in bounds iff every g_k says so
//
// with g_k = untile_index(T_k, B_{k-1}, .) and rmc = row_major_coordinates
// (spec::delinearize). box(B) = {x : 0 <= x < B}; N = product(B_L);
// the padded count is N rounded up to a multiple of L(n).
//
// Obligations, for every D >= 0 (each `?` dim an independent unknown):
//   P1 injective   e, e' in box(D), F(e) = F(e')  =>  e = e'
//   P2 in range    e in box(D)  =>  0 <= F(e) < padded count
//   P3 onto        e in box(D)  =>  G(F(e)) = (e, in bounds); and
//                  0 <= p < N, G(p) in bounds  =>  G(p) in box(D), F(G(p)) = p
//                  (positions in [N, padded) are tail padding by D5; by the
//                  first half no element maps to a position G marks padding)
//
// A monolithic query for these is nonlinear (products of symbolic tile
// counts) and does not finish for rank-3 two-level layouts. The proof is
// compositional instead; every lemma below is a Z3 query over FRESH bounds
// b >= 0 (not the layout's), so it holds for whatever bounds the previous
// levels produce.
//
// Level lemma, per level (tile T, input rank r), with B' = tile_bounds(T, b):
//   L0  b >= 0  =>  B' >= 0
//   L1  x in box(b)  =>  f(x) in box(B')
//   L2  x in box(b)  =>  g(f(x)) = (x, in bounds)
//   L3  y in box(B'), g(y) in bounds  =>  g(y).index in box(b), f(g(y).index) = y
// With constant tile entries and no '*' these are linear. A '*' group merges
// dims d_g with the Horner index u = group_index(x_g, d_g), a product of
// unknown bounds; its level query is given the ground instances
//   x_g in box(d_g)        =>  0 <= u < product(d_g), rmc(u, d_g) = x_g
//   0 <= v < product(d_g)  =>  rmc(v, d_g) in box(d_g), group_index(rmc(v, d_g)) = v
// (v the merged value untile_index recomposes), valid by M1-M3 and S4 below,
// which leaves Z3 linear reasoning over those products as atoms.
//
// Mixed-radix lemma, per rank n: for c >= 0,
//   M1  x in box(c)  =>  0 <= lin(x, c) < product(c)
//   M2  x in box(c)  =>  rmc(lin(x, c), c) = x
//   M3  0 <= p < product(c)  =>  rmc(p, c) in box(c), lin(rmc(p, c), c) = p
// Proved directly this is nonlinear and times out from rank 4, so it is
// proved by induction on n, peeling the most minor dim c_n = b, c = (h, b):
//   core (Z3, once, symbolic a, b >= 0), the rank-2 case:
//     K1  0<=u<a, 0<=v<b  =>  0 <= u*b+v < a*b
//     K2  0<=u<a, 0<=v<b  =>  div_mod(u*b+v, b) = (u, v)
//     K3  0 <= p < a*b    =>  div_mod(p, b) = (q, r), 0<=q<a, 0<=r<b, q*b+r = p
//   step (Z3, per rank n >= 2), identities of the spec's own terms:
//     S1  lin(x, c) = lin(x_h, h)*b + x_n        S2  product(c) = product(h)*b
//     S3  rmc(p, c) = (rmc(q, h), r) with (q, r) = div_mod(p, b)
//         (checked as identical Z3 terms: div_mod is memoised)
//     S4  group_index(x, c) = lin(x, c)   (D4's Horner form is row-major)
//   Rank 1 is M1-M3 with lin(x,(b)) = x, checked directly. Induction: with
//   a = product(h), M1 follows from M1 for h, S1, S2 and K1; M2 from S1, K2,
//   S3 and M2 for h; M3 from S2, K3, S3, M3 for h and S1.
//
// Composition (why the lemmas give P1-P3). D >= 0 and pi is a permutation, so
// B_0 >= 0 and pi is a bijection box(D) <-> box(B_0); by L0, every B_k >= 0.
// Let e in box(D), x_0 = pi(e), x_k = f_k(x_{k-1}): by L1, x_k in box(B_k).
//   P1: F(e) = F(e') gives lin(x_L) = lin(x'_L), so x_L = x'_L by M2; then
//       x_{k-1} = g_k(x_k).index = x'_{k-1} by L2, down to e = e'.
//   P2: 0 <= F(e) < N by M1; N <= padded count (rounding lemma R:
//       c <= ceil(c/l)*l for c >= 0).
//   P3: G(F(e)) = e by M2 then L2 at every level (all in bounds). For p in
//       [0, N): y_L = rmc(p) in box(B_L) with lin(y_L) = p by M3; if every
//       g_k is in bounds, L3 from k = L down gives y_{k-1} in box(B_{k-1})
//       and f_k(y_{k-1}) = y_k, so G(p) = pi^-1(y_0) in box(D) and
//       F(G(p)) = lin(y_L) = p.
// The lemmas are about the spec's pieces; that F and G are exactly these
// compositions of them is checked per layout ("composition": the Z3 terms of
// spec::linear_index_with_tile, spec::delinearize and
// spec::padded_element_count equal those of the composition in
// proofs/mapping.h, term for term).
//
// When a lemma fails (only for a wrong mapping, see proofs/mapping.h) the
// lemma's counterexample is over arbitrary bounds, which the layout may never
// produce; the prover then asks the whole-layout query directly for the
// layout's dims and reports `refuted` only with a counterexample (concrete
// dims and elements / position) replayed on the int64 domain; if the direct
// query is unsat the obligation is proved, otherwise unknown.
//
// P4 (prove_impl_agrees, concrete dims only): the impl's compiled index
// program, registers and floor divisions by constants, evaluated in the same
// Z3 domain, equals the spec's term for a symbolic in-bounds element.
//
// P5 (prove_no_overflow): under the hypothesis that validation's sizes fit
// int64, no int64 step of the spec's index, delinearization and byte size,
// nor of the impl's index program (concrete dims), overflows; the claim, why
// an unbounded-integer query decides it, and its compositional proof (one
// query per computation, given instances of proved product and division
// lemmas) are in proofs/overflow.h.
//
// Symbolic tile sizes (prove_symbolic_tile): one level whose tile entries are
// unknowns t >= 1 on an untiled shape of the same rank; L0-L3 are then
// nonlinear, and P1-P3 follow by the same composition.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include "impl/fast_div.h"
#include "proofs/mapping.h"
#include "proofs/overflow.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::proofs {

enum class Verdict { kProved, kRefuted, kUnknown };
const char* verdict_name(Verdict v);

// A counterexample replayed on the int64 domain: concrete dims (of the
// layout with every `?` given a value), the element(s) and / or position,
// and a sentence saying what goes wrong.
struct Counterexample {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> elements;
  std::vector<int64_t> positions;
  std::string explanation;
};

struct Outcome {
  std::string name;   // "P1", "P2", "P3", "equiv", a lemma name
  std::string title;  // "injective", ...
  Verdict verdict = Verdict::kUnknown;
  double ms = 0;
  std::string detail;  // why unknown / how proved when not by the lemmas
  std::optional<Counterexample> counterexample;
};

struct ProofOptions {
  unsigned timeout_ms = 10000;  // per Z3 query
  std::string smt2_dir;         // when set, every query is written there as SMT-LIB2
};

class Prover {
 public:
  explicit Prover(ProofOptions options, Mapping mapping = spec_mapping());

  // P1, P2, P3 for `shape` (dims may be kSymbolicDim). Throws Error for an
  // invalid layout.
  std::vector<Outcome> prove(const ShapeWithLayout& shape);

  // Everything `tilecheck prove LAYOUT` asks of one layout: P1-P3, P5, and
  // P4 when the dims are concrete (and spec and impl accept the shape alike).
  std::vector<Outcome> prove_layout(const ShapeWithLayout& shape);

  // P4: for concrete dims, the impl's index program (impl::IndexPlan::program)
  // computes spec::linear_index_with_tile for every in-bounds element (one
  // symbolic element; linear, since all sizes are constants).
  Outcome prove_impl_agrees(const ShapeWithLayout& shape);
  // The same for a given program; a counterexample is replayed with `run`
  // (the impl's linear_index, or evaluate_index_program for a test's program).
  Outcome prove_program_agrees(const ShapeWithLayout& shape, const impl::IndexProgram& program,
                               const std::function<int64_t(std::span<const int64_t>)>& run);

  // P5: see proofs/overflow.h. For concrete dims the impl's program is
  // covered too (`program`, or IndexPlan(shape).program() when null); a
  // concrete shape that spec::validate rejects is proved when the impl
  // rejects it too. `bytes` is the byte-size computation bounded.
  // `validation` is the size computation whose steps form the hypothesis.
  Outcome prove_no_overflow(const ShapeWithLayout& shape,
                            const ByteSizeComputation& bytes = spec_byte_size(),
                            const impl::IndexProgram* program = nullptr,
                            const ValidationComputation& validation = spec_validation());

  // Mixed-radix lemma for ranks 1..n (proved once per Prover and reused).
  Outcome mixed_radix(size_t rank);
  // The product and division lemmas P5's instances come from (proofs/overflow.h).
  Outcome overflow_core_lemma();
  // Lemma outcomes proved so far (the shared mixed-radix pieces), in order.
  const std::vector<Outcome>& shared_lemmas() const { return shared_; }

  // Same logical dims (`?` shared by position): F_a(e) = F_b(e) for every e.
  Outcome equivalent(const ShapeWithLayout& a, const ShapeWithLayout& b);

  // P1-P3 for one level with symbolic tile entries of the given rank.
  std::vector<Outcome> prove_symbolic_tile(size_t rank);

  // The impl's division by a constant (impl/fast_div.h): the bound (B) on
  // every interval of divisors with the shift `shift_for` gives it, and the
  // lemma (Q) that (B) makes floor(n*m/2^s) == floor(n/d); the claim and the
  // argument are at the top of proofs/fast_div.cc. A test passes a wrong
  // chooser to see it refuted.
  using ShiftChooser = std::function<int(int64_t divisor)>;
  std::vector<Outcome> prove_fast_div(const ShiftChooser& shift_for = &impl::FastDiv::shift_for);
  // The two halves: (Q) (3 outcomes), and (B) on the 64 intervals.
  std::vector<Outcome> prove_fast_div_lemma();
  std::vector<Outcome> prove_fast_div_bounds(const ShiftChooser& shift_for);

 private:
  struct Query {
    std::string name;
    z3::expr violation;
    // Ask Z3's plain SMT core (tactic "smt") instead of its default solver,
    // whose preamble for nonlinear integer problems costs ~0.1 s per query;
    // for queries whose instances leave only linear reasoning (P5's parts).
    bool plain_smt = false;
    // Or a solver for a logic: "QF_NIA" runs Z3's nonlinear integer tactic
    // (nlsat), as the z3 command does for such a file, where the default
    // incremental solver can take minutes (FastDiv's lemma).
    const char* logic = nullptr;
  };
  Verdict run(const Query& q, double& ms, z3::model* model, std::string& detail);

  ProofOptions options_;
  Mapping mapping_;
  std::vector<Outcome> shared_;
  std::map<std::string, Verdict> shared_verdicts_;
  int query_count_ = 0;
};

}  // namespace tilecheck::proofs
