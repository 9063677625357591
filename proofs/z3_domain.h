// The spec's integer domain (tilecheck/spec/arith.h) over Z3 terms: the very templates
// of tilecheck/spec/semantics.h, instantiated on this domain, produce the Z3 terms the
// proofs reason about, so the code that is proved is the code that runs as
// the int64 oracle.
//
// Values are mathematical integers (Z3 Int). Division is the only operation
// that needs care:
//
//   div_mod(x, t)  = (q, r)  with fresh q, r and the defining constraint
//                    t >= 1  ->  x = t*q + r  and  0 <= r < t
//   ceil_div(x, t) = the quotient of div_mod(x + t - 1, t)
//
// The constraint is guarded by the spec's precondition t >= 1, so for every
// value of x and t there are q, r satisfying it: adding the collected
// constraints to a query never makes it vacuously unsatisfiable. (Unguarded,
// a division by a bound that happens to be 0 would make every query "proved".)
// When t is a constant the constraint is linear, which is what keeps the
// per-level queries of proofs/obligations.h fast.
//
// One rewrite keeps untile(tile(x)) from turning into arithmetic: for a
// constant t >= 1 and (q, r) = div_mod(x, t), add(mul(q, t), r) returns x
// itself (x = t*q + r is the defining equation, so this is exact).
//
// Terms are hash-consed by Z3, and div_mod is memoised on the ids of its
// operands, so evaluating the same spec expression twice yields the same term
// (identical quotient variables): proofs/bijection.cc relies on this to
// check that the spec's whole-layout functions are exactly the composition of
// its per-level functions. Operations on two numerals are folded to a numeral
// (with int64 semantics; on int64 overflow the term is kept symbolic, which
// is exact since Z3 integers are unbounded).
#pragma once

#include <z3++.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <tilecheck/spec/arith.h>

namespace tilecheck::proofs {

class Z3Domain {
 public:
  using Value = z3::expr;
  using Bool = z3::expr;

  explicit Z3Domain(z3::context& ctx) : ctx_(ctx) {}

  z3::context& context() const { return ctx_; }

  Value constant(int64_t c) const { return ctx_.int_val(c); }
  Value add(const Value& x, const Value& y) const;
  Value mul(const Value& x, const Value& y) const;
  spec::DivMod<Value> div_mod(const Value& x, const Value& t);
  Value ceil_div(const Value& x, const Value& t);
  Bool less(const Value& x, const Value& y) const;
  Bool both(const Bool& p, const Bool& q) const;
  Bool truth(bool b) const { return ctx_.bool_val(b); }

  // A fresh integer unknown named `name` (Z3 makes names unique per sort).
  Value fresh(const std::string& name);
  // The defining constraints of every quotient/remainder introduced so far.
  const std::vector<Bool>& definitions() const { return definitions_; }
  z3::expr all_definitions() const;
  // Every division introduced so far (constant or not): x = t*q + r.
  struct Division {
    Value dividend, quotient, divisor;
  };
  const std::vector<Division>& divisions() const { return divisions_; }

 private:
  z3::context& ctx_;
  std::vector<Bool> definitions_;
  std::map<std::pair<unsigned, unsigned>, spec::DivMod<Value>> memo_;
  std::vector<Division> divisions_;
  std::map<unsigned, Division> division_by_remainder_;  // for the rewrite above
  int fresh_count_ = 0;
};

// The int64 value of a numeral term, if it is one and fits.
bool numeral_value(const z3::expr& e, int64_t& out);

}  // namespace tilecheck::proofs
