#include "proofs/z3_domain.h"

namespace tilecheck::proofs {

bool numeral_value(const z3::expr& e, int64_t& out) {
  return e.is_numeral() && e.is_numeral_i64(out);
}

Z3Domain::Value Z3Domain::add(const Value& x, const Value& y) const {
  int64_t a, b, r;
  const bool ka = numeral_value(x, a), kb = numeral_value(y, b);
  if (ka && kb && !__builtin_add_overflow(a, b, &r)) return constant(r);
  if (ka && a == 0) return y;
  if (kb && b == 0) return x;
  // t*q + r with (q, r) = div_mod(x, t), t a constant >= 1, is x.
  if (auto it = division_by_remainder_.find(Z3_get_ast_id(ctx_, y));
      it != division_by_remainder_.end()) {
    const Division& d = it->second;
    if (z3::eq(x, d.quotient * d.divisor) || z3::eq(x, d.divisor * d.quotient)) return d.dividend;
  }
  return x + y;
}

Z3Domain::Value Z3Domain::mul(const Value& x, const Value& y) const {
  int64_t a, b, r;
  const bool ka = numeral_value(x, a), kb = numeral_value(y, b);
  if (ka && kb && !__builtin_mul_overflow(a, b, &r)) return constant(r);
  if ((ka && a == 0) || (kb && b == 0)) return constant(0);
  if (ka && a == 1) return y;
  if (kb && b == 1) return x;
  return x * y;
}

spec::DivMod<Z3Domain::Value> Z3Domain::div_mod(const Value& x, const Value& t) {
  int64_t a, b;
  const bool ka = numeral_value(x, a), kb = numeral_value(t, b);
  if (kb && b == 1) return {x, constant(0)};
  if (ka && kb && b >= 1) {
    const spec::DivMod<int64_t> qr = spec::Int64Domain().div_mod(a, b);
    return {constant(qr.quotient), constant(qr.remainder)};
  }
  const auto key = std::make_pair(Z3_get_ast_id(ctx_, x), Z3_get_ast_id(ctx_, t));
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  const Value q = fresh("q"), r = fresh("r");
  definitions_.push_back(z3::implies(t >= 1, x == t * q + r && r >= 0 && r < t));
  const spec::DivMod<Value> qr{q, r};
  memo_.emplace(key, qr);
  divisions_.push_back({x, q, t});
  if (kb && b >= 1) division_by_remainder_.emplace(Z3_get_ast_id(ctx_, r), Division{x, q, t});
  return qr;
}

Z3Domain::Value Z3Domain::ceil_div(const Value& x, const Value& t) {
  return div_mod(add(x, add(t, constant(-1))), t).quotient;
}

Z3Domain::Bool Z3Domain::less(const Value& x, const Value& y) const {
  int64_t a, b;
  if (numeral_value(x, a) && numeral_value(y, b)) return truth(a < b);
  return x < y;
}

Z3Domain::Bool Z3Domain::both(const Bool& p, const Bool& q) const {
  if (p.is_true()) return q;
  if (q.is_true()) return p;
  return p && q;
}

Z3Domain::Value Z3Domain::fresh(const std::string& name) {
  return ctx_.int_const((name + "!" + std::to_string(fresh_count_++)).c_str());
}

z3::expr Z3Domain::all_definitions() const {
  z3::expr_vector v(ctx_);
  for (const auto& d : definitions_) v.push_back(d);
  return z3::mk_and(v);
}

}  // namespace tilecheck::proofs
