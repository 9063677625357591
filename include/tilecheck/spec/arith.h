// The integer domain the spec's arithmetic is written over.
//
// The semantics in tilecheck/spec/semantics.h are templates over a domain `A`, so that
// the very same code runs on checked int64 (the oracle) and on Z3 terms (the
// proofs), as Alive2 does with its smt::expr. A domain provides:
//
//   typename A::Value, typename A::Bool
//   Value a.constant(int64_t c)
//   Value a.add(Value x, Value y)          x + y
//   Value a.mul(Value x, Value y)          x * y
//   DivMod a.div_mod(Value x, Value t)     {floor(x / t), x mod t}, for x >= 0, t >= 1
//   Value a.ceil_div(Value x, Value t)     ceil(x / t), for x >= 0, t >= 1
//   Bool  a.less(Value x, Value y)         x < y
//   Bool  a.both(Bool p, Bool q)           p and q
//   Bool  a.truth(bool b)
//
// A symbolic domain is free to introduce a fresh quotient/remainder pair with
// its defining constraints (x = t*q + r, 0 <= r < t) for each div_mod, which
// keeps queries linear when t is a constant.
#pragma once

#include <cstdint>
#include <string>

#include <tilecheck/spec/model.h>

namespace tilecheck::spec {

template <class Value>
struct DivMod {
  Value quotient;
  Value remainder;
};

// Checked int64: every operation that would leave int64 throws Error instead
// of wrapping (D9).
struct Int64Domain {
  using Value = int64_t;
  using Bool = bool;

  Value constant(int64_t c) const { return c; }
  Value add(Value x, Value y) const {
    Value r;
    if (__builtin_add_overflow(x, y, &r)) overflow(x, "+", y);
    return r;
  }
  Value mul(Value x, Value y) const {
    Value r;
    if (__builtin_mul_overflow(x, y, &r)) overflow(x, "*", y);
    return r;
  }
  DivMod<Value> div_mod(Value x, Value t) const {
    require_divisor(t);
    // Floor division; x >= 0 in every use, but stay exact for x < 0 too.
    Value q = x / t, r = x % t;
    if (r < 0) {
      q -= 1;
      r += t;
    }
    return {q, r};
  }
  Value ceil_div(Value x, Value t) const {
    require_divisor(t);
    const DivMod<Value> qr = div_mod(x, t);
    return qr.remainder == 0 ? qr.quotient : add(qr.quotient, 1);
  }
  Bool less(Value x, Value y) const { return x < y; }
  Bool both(Bool p, Bool q) const { return p && q; }
  Bool truth(bool b) const { return b; }

 private:
  [[noreturn]] static void overflow(Value x, const char* op, Value y) {
    throw Error("int64 overflow computing " + std::to_string(x) + " " + op + " " +
                std::to_string(y) + "; the shape is too large");
  }
  static void require_divisor(Value t) {
    if (t <= 0) throw Error("division by " + std::to_string(t) + " (internal error)");
  }
};

}  // namespace tilecheck::spec
