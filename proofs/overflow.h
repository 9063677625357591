// P5, no overflow: the domains that record every intermediate value of an
// int64 computation, so that "no step leaves int64" can be asked of Z3 and
// replayed concretely.
//
// Claim (Prover::prove_no_overflow). For a layout with its `?` dims symbolic
// (each an unknown >= 0) and its concrete dims as given, write V for the
// values spec::compute_validated_sizes computes (level bounds, final
// product, padded count, byte size, logical element count: exactly the
// steps of spec::validate). Hypothesis H: every value in V, computed in
// unbounded integers, lies in [-2^63, 2^63). Then, computed likewise,
//   - every add/mul of spec::linear_index_with_tile for every in-bounds element,
//   - every add/mul of spec::delinearize for every 0 <= p < final product
//     (the positions the oracle hands it; the L(n) tail never reaches it),
//   - every add/mul of spec::byte_size_of_count on the padded count,
//   - for concrete dims, every add/mul of the impl's IndexPlan::program()
//     (tilecheck/impl/plan.h, evaluated step by step as P4 does) for every in-bounds
//     element,
// lies in [-2^63, 2^63), and every dividend of a floor division is >= 0
// (the spec's div_mod and the impl's FastDiv assume it).
//
// Why the unbounded-integer query is sound (and equivalent to a 64-bit
// bit-vector query with overflow predicates): int64 evaluation follows the
// mathematical one step by step as long as each step's mathematical result
// is in range (operands equal by induction, and an in-range result is
// computed exactly; floor division by a constant >= 1 of an in-range value
// never overflows). So the first int64 step that overflows is the first step
// whose mathematical value leaves range, and "no recorded value leaves range"
// is exactly "no int64 step overflows". Likewise H is exactly "spec::validate
// accepts the concrete shape", since checked int64 throws at the first
// overflowing step and nowhere else. Recording is per operation of the
// domain: Z3Domain::ceil_div's internal x + t - 1 is not an int64 step (the
// int64 ceil_div adds 1 to a quotient only, which never overflows) and is
// not recorded; its result (<= x) is.
//
// How, for symbolic dims: compositionally (Prover::prove_no_overflow). The
// recorded steps after H fall into three computations (the impl's program
// exists for concrete dims only), and each gets its own query, with Def the
// division definitions and I a set of lemma instances:
//   index        H, Def, I, e in box(D)       =>  every step of linear_index_with_tile fits
//   delinearize  H, Def, I, 0 <= p < N        =>  every step of delinearize fits
//   bytes        H, Def, I                    =>  every step of the byte size fits
// The three goal lists are the whole query's goal list cut at the
// computations' boundaries, nothing dropped (a goal that is a value H
// states in range, e.g. a level bound recomputed, holds by H and is not
// restated; dividends are, H not saying they are >= 0), and each domain is
// implied by the whole query's, so three unsat answers prove the claim,
// provided every fact in I is valid. I holds only instances of lemmas Z3 proves, for
// symbolic x, y, X, t (no-overflow-core, once per run):
//   G0  x, y >= 0                =>  x*y >= 0
//   G1  x >= 0, y >= 1           =>  x <= x*y        (and with x, y swapped)
//   G2  x <= X, y >= 0           =>  x*y <= X*y
//   G3  x, y >= 0, x*y >= 1      =>  x >= 1, y >= 1
//   DIV t >= 1, x >= 0, (q, r) = div_mod(x, t)  =>  0 <= q <= x
// and of M3 of the mixed-radix lemma (proofs/obligations.h):
// 0 <= p < product(c) => row_major_coordinates(p, c) in box(c). The instances:
// G0, G1, G3 at every recorded product of two unknowns (H's product chains
// then order their partial products, and G3 gives every factor >= 1 once
// the final product is >= 1); DIV at every division by an unknown; for the
// final row-major step over bounds c and coordinates x, with strides
// s_i = c_{i+1}*...*c_{m-1}, their partial products s_{i,j} and the prefix
// products P_i = c_0*...*c_i of N: G1 at s_{i,j}*s_j = s_i and at
// s_i*P_i = N, and G2 at x_i <= c_i - 1 (so x_i*s_i <= s_{i-1} - s_i and the
// partial sums telescope below N); G2 at every Horner step of a merged group
// (u*d_j <= (g - 1)*d_j, g the group's partial bound); M3 for the final
// bounds. With these, each goal follows by linear reasoning in which a
// product is an atom (Z3 normalises a product of the same factors to one
// monomial, so s_{i,j}*s_j and s_i are one atom), which is why the queries
// take milliseconds (asked of Z3's plain SMT core, without the default
// solver's nonlinear preamble) where the whole nonlinear query takes seconds
// or does not finish. The parts are asked in order; at the first one not
// proved, the whole query (with I, default solver) is asked: it decides,
// and gives the counterexample. With concrete dims every size is a
// numeral and the whole query is linear; it is asked directly.
//
// A counterexample is replayed on Recording<Int128Domain>: the same
// templates on concrete __int128 values, stopping at the first value outside
// int64 (which is reached before __int128 itself could overflow, since a
// product of two int64 values fits in 126 bits). The shape must pass the
// validation computation (replayed likewise) and some step must escape.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include "proofs/z3_domain.h"
#include <tilecheck/spec/arith.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::proofs {

// Plain __int128 arithmetic (operands never overflow it, see above).
struct Int128Domain {
  using Value = __int128;
  using Bool = bool;
  Value constant(int64_t c) const { return c; }
  Value add(Value x, Value y) const { return x + y; }
  Value mul(Value x, Value y) const { return x * y; }
  spec::DivMod<Value> div_mod(Value x, Value t) const;
  Value ceil_div(Value x, Value t) const;
  Bool less(Value x, Value y) const { return x < y; }
  Bool both(Bool p, Bool q) const { return p && q; }
  Bool truth(bool b) const { return b; }
};

// One recorded step: its value, and whether it is a dividend (must be >= 0)
// or an add/mul result (must fit int64).
template <class Value>
struct RecordedStep {
  Value value;
  const char* what;  // "+", "*", "dividend"
};

// `Base` with every add/mul result and every div_mod dividend recorded.
// Spec templates called with A = Recording<Base> see these members.
template <class Base>
class Recording : public Base {
 public:
  using Value = typename Base::Value;
  using Base::Base;

  Value add(const Value& x, const Value& y) { return note(Base::add(x, y), "+"); }
  Value mul(const Value& x, const Value& y) { return note(Base::mul(x, y), "*"); }
  spec::DivMod<Value> div_mod(const Value& x, const Value& t) {
    note(x, "dividend");
    return Base::div_mod(x, t);
  }
  Value ceil_div(const Value& x, const Value& t) {
    note(x, "dividend");
    return Base::ceil_div(x, t);
  }

  std::vector<RecordedStep<Value>> steps;

 private:
  Value note(const Value& v, const char* what) {
    steps.push_back({v, what});
    return v;
  }
};

// The impl's index program on coordinates `e` in any domain: step k divides
// a linear combination of earlier registers by its constant divisor (the
// reading of impl::IndexProgram that P4 proves and P5 bounds).
template <class A>
typename A::Value evaluate_program(A& a, const impl::IndexProgram& program,
                                   const std::vector<typename A::Value>& e) {
  if (program.input_count != static_cast<int64_t>(e.size())) {
    throw Error("impl program reads " + std::to_string(program.input_count) +
                " coordinates, the shape has rank " + std::to_string(e.size()));
  }
  std::vector<typename A::Value> reg = e;
  auto combination = [&](const std::vector<impl::IndexProgram::Term>& terms) {
    typename A::Value sum = a.constant(0);
    for (const auto& t : terms) {
      if (t.reg < 0 || t.reg >= static_cast<int64_t>(reg.size())) {
        throw Error("impl program reads register " + std::to_string(t.reg) +
                    " before it is written");
      }
      sum = a.add(sum, a.mul(a.constant(t.coeff), reg[t.reg]));
    }
    return sum;
  };
  for (const auto& step : program.steps) {
    const spec::DivMod<typename A::Value> qr =
        a.div_mod(combination(step.terms), a.constant(step.divisor));
    reg.push_back(qr.quotient);
    reg.push_back(qr.remainder);
  }
  return combination(program.result);
}

// The int64 byte-size computation P5 bounds, in both domains: the spec's
// (spec::byte_size_of_count) by default; a test substitutes an
// overflow-prone one (count*bits before dividing by 8) to see P5 bite.
struct ByteSizeComputation {
  std::string name;
  std::function<z3::expr(Recording<Z3Domain>&, const z3::expr&, int64_t)> symbolic;
  std::function<__int128(Recording<Int128Domain>&, const __int128&, int64_t)> concrete;
};

// `Pieces::byte_size<A>(a, count, bits)` in both domains.
template <class Pieces>
ByteSizeComputation make_byte_size(std::string name) {
  return {std::move(name),
          [](Recording<Z3Domain>& a, const z3::expr& count, int64_t bits) {
            return Pieces::template byte_size<Recording<Z3Domain>>(a, count, bits);
          },
          [](Recording<Int128Domain>& a, const __int128& count, int64_t bits) {
            return Pieces::template byte_size<Recording<Int128Domain>>(a, count, bits);
          }};
}

struct SpecByteSize {
  template <class A>
  static typename A::Value byte_size(A& a, const typename A::Value& count, int64_t bits) {
    return spec::byte_size_of_count(a, count, bits);
  }
};

inline ByteSizeComputation spec_byte_size() { return make_byte_size<SpecByteSize>("spec"); }

// The size computation whose steps form the hypothesis H, in both domains:
// the spec's (spec::compute_validated_sizes, which spec::validate runs on
// checked int64) by default; a test drops a step (a validation that forgets
// the byte size, or the padding) to see P5 bite. A concrete shape passes it
// when no replayed step leaves int64.
struct ValidationComputation {
  std::string name;
  std::function<void(Recording<Z3Domain>&, const std::vector<z3::expr>&, const Layout&, int64_t)>
      symbolic;
  std::function<void(Recording<Int128Domain>&, const std::vector<__int128>&, const Layout&,
                     int64_t)>
      concrete;
};

// `Pieces::sizes<A>(a, dims, layout, bits)` in both domains.
template <class Pieces>
ValidationComputation make_validation(std::string name) {
  return {std::move(name),
          [](Recording<Z3Domain>& a, const std::vector<z3::expr>& dims, const Layout& layout,
             int64_t bits) { Pieces::template sizes<Recording<Z3Domain>>(a, dims, layout, bits); },
          [](Recording<Int128Domain>& a, const std::vector<__int128>& dims, const Layout& layout,
             int64_t bits) { Pieces::template sizes<Recording<Int128Domain>>(a, dims, layout, bits); }};
}

struct SpecValidation {
  template <class A>
  static void sizes(A& a, const std::vector<typename A::Value>& dims, const Layout& layout,
                    int64_t bits) {
    spec::compute_validated_sizes(a, dims, layout, bits);
  }
};

inline ValidationComputation spec_validation() { return make_validation<SpecValidation>("spec"); }

// The first replayed step outside int64 (or a negative dividend), described.
std::optional<std::string> first_escape(const std::vector<RecordedStep<__int128>>& steps);

std::string to_string(__int128 v);

}  // namespace tilecheck::proofs
