// The impl's division by a constant (impl/fast_div.h), proved.
//
// FastDiv(d) divides n (0 <= n < 2^63) by d >= 1 as floor(n * m / 2^s), with
// the shift s = FastDiv::shift_for(d) and the magic number m = ceil(2^s / d)
// (the constructor computes (2^s + d - 1) / d). Write c = 2^(s-63). The method
// rests on one algebraic condition on (d, s, m):
//
//   (B)  2^s <= m*d <= 2^s + c,   and 1 <= m < 2^64 (m fits a uint64),
//
// and on one lemma that turns (B) into exact division:
//
//   (Q)  for integers d >= 1, c >= 1, P = 2^63 * c, m with P <= m*d <= P + c,
//        and 0 <= n < 2^63 with n = q*d + r, 0 <= r < d:
//            q*P <= n*m < (q + 1)*P,   i.e. floor(n*m / P) = floor(n / d).
//
// (Why (Q) holds: with e = m*d - P in [0, c], n*m*d = n*P + n*e, and
// 0 <= n*e <= n*c < 2^63 * c = P <= (d - r) * P; divide by d.) (Q) is one
// query for every shift at once: c is any positive integer there, which
// covers every power of two the shifts give.
//
// (B) depends on which shift the code picks for which divisor, so it is
// proved per interval of divisors with one shift: [1, 1], (2^(l-1), 2^l] for
// l = 1..62, and (2^62, 2^63 - 1]. For each interval the shift is the one
// FastDiv::shift_for returns at its lower end, and shift_for must return the
// same at the upper end (a step function of the divisor that changes only at
// powers of two, as shift_for's loop does, is constant in between: the check
// is at the ends, the proof over the whole interval). The magic number the code computes is compared with
// ceil(2^s / d) at both ends too. Each interval's query is: d in the
// interval, m*d >= 2^s > (m - 1)*d (m = ceil(2^s/d)), and (B) false. Unsat
// proves (B) on the interval; sat gives a divisor where the bound fails,
// replayed in 128-bit arithmetic before it is reported.
//
// What is not proved here: that the 128-bit multiply and shift in
// FastDiv::quotient compute floor(n*m / 2^s) (they are exact: n*m < 2^127),
// and the chooser between the ends of an interval (see above). The property
// DelinearizeEveryDivisorMagnitude exercises the compiled code on every
// magnitude band.
#include <z3++.h>

#include <limits>
#include <string>
#include <vector>

#include "impl/fast_div.h"
#include "proofs/obligations.h"

namespace tilecheck::proofs {
namespace {

using u128 = unsigned __int128;

std::string u128_string(u128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return s;
}

z3::expr power_of_two(z3::context& ctx, int k) {
  return ctx.int_val(u128_string(u128{1} << k).c_str());
}

u128 ceil_magic(int64_t d, int s) {
  const u128 p = u128{1} << s;
  return (p + static_cast<u128>(d) - 1) / static_cast<u128>(d);
}

}  // namespace

std::vector<Outcome> Prover::prove_fast_div(const ShiftChooser& shift_for) {
  std::vector<Outcome> outcomes = prove_fast_div_lemma();
  for (Outcome& o : prove_fast_div_bounds(shift_for)) outcomes.push_back(std::move(o));
  return outcomes;
}

std::vector<Outcome> Prover::prove_fast_div_lemma() {
  std::vector<Outcome> outcomes;
  z3::context ctx;

  // (Q), in three parts: the lower bound of n*m; the upper bound multiplied
  // by d (Z3's nonlinear arithmetic finds that form much faster); and the
  // cancellation that turns it into the upper bound (x*d < y*d, d >= 1 =>
  // x < y, instantiated at x = n*m, y = (q+1)*P).
  {
    const z3::expr n = ctx.int_const("n"), d = ctx.int_const("d"), m = ctx.int_const("m"),
                   c = ctx.int_const("c"), q = ctx.int_const("q"), r = ctx.int_const("r"),
                   e = ctx.int_const("e"), x = ctx.int_const("x"), y = ctx.int_const("y");
    const z3::expr p = power_of_two(ctx, 63) * c;
    const z3::expr common = d >= 1 && c >= 1 && n >= 0 && n < power_of_two(ctx, 63) && n == q * d + r &&
                            r >= 0 && r < d;
    // (B) as stated, and the same with e = m*d - P: each part is asked in the
    // form Z3 settles faster.
    const z3::expr bound = common && p <= m * d && m * d <= p + c;
    const z3::expr bound_e = common && m * d == p + e && e >= 0 && e <= c;
    const struct {
      const char* name;
      const char* title;
      z3::expr violation;
    } parts[] = {
        {"fast-div-Q-lower", "FastDiv (Q): the bound gives floor(n*m/2^s) >= floor(n/d)",
         bound && !(q * p <= n * m)},
        {"fast-div-Q-upper", "FastDiv (Q): the bound gives n*m*d < (floor(n/d)+1)*2^s*d",
         bound_e && !(n * m * d < (q + 1) * p * d)},
        {"fast-div-Q-cancel", "FastDiv (Q): x*d < y*d with d >= 1 gives x < y, so floor(n*m/2^s) <= floor(n/d)",
         d >= 1 && x * d < y * d && !(x < y)},
    };
    for (const auto& part : parts) {
      Outcome o;
      o.name = part.name;
      o.title = part.title;
      o.verdict = run(Query{part.name, part.violation, false, "QF_NIA"}, o.ms, nullptr, o.detail);
      outcomes.push_back(o);
    }
  }

  return outcomes;
}

std::vector<Outcome> Prover::prove_fast_div_bounds(const ShiftChooser& shift_for) {
  std::vector<Outcome> outcomes;
  z3::context ctx;
  // (B) on every interval of divisors.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  for (int l = 0; l <= 63; ++l) {
    const int64_t lo = l == 0 ? 1 : (int64_t{1} << (l - 1)) + 1;
    const int64_t hi = l == 0 ? 1 : l == 63 ? kMax : int64_t{1} << l;
    const int s = shift_for(lo);
    Outcome o;
    o.name = "fast-div-B-" + std::to_string(l);
    o.title = "FastDiv (B) for divisors " + std::to_string(lo) + ".." + std::to_string(hi);
    o.detail = "shift " + std::to_string(s);
    if (s < 63 || s > 126) {
      o.verdict = Verdict::kRefuted;
      o.counterexample = Counterexample{{lo}, {}, {}, "shift " + std::to_string(s) + " out of 63..126 for divisor " +
                                                       std::to_string(lo)};
      outcomes.push_back(o);
      continue;
    }
    if (shift_for(hi) != s) {
      o.verdict = Verdict::kRefuted;
      o.counterexample = Counterexample{{hi}, {}, {}, "the shift is not constant on the interval: " +
                                                          std::to_string(s) + " at " + std::to_string(lo) + ", " +
                                                          std::to_string(shift_for(hi)) + " at " +
                                                          std::to_string(hi)};
      outcomes.push_back(o);
      continue;
    }
    for (int64_t end : {lo, hi}) {
      const impl::FastDiv f(end);
      if (f.shift() == s && u128{f.magic()} != ceil_magic(end, s) && !o.counterexample) {
        o.verdict = Verdict::kRefuted;
        o.counterexample = Counterexample{{end}, {}, {}, "FastDiv(" + std::to_string(end) + ") has magic " +
                                                             u128_string(f.magic()) + ", not ceil(2^" +
                                                             std::to_string(s) + " / d) = " +
                                                             u128_string(ceil_magic(end, s))};
      }
    }
    if (o.counterexample) {
      outcomes.push_back(o);
      continue;
    }
    const z3::expr d = ctx.int_const("d"), m = ctx.int_const("m");
    const z3::expr p = power_of_two(ctx, s);
    const z3::expr c = power_of_two(ctx, s - 63);
    const z3::expr magic = m * d >= p && (m - 1) * d < p;
    const z3::expr bound = m >= 1 && m < power_of_two(ctx, 64) && m * d <= p + c;
    const z3::expr in_interval = d >= ctx.int_val(lo) && d <= ctx.int_val(hi);
    z3::model model(ctx);
    o.verdict = run(Query{o.name, in_interval && magic && !bound, false, "QF_NIA"}, o.ms, &model, o.detail);
    if (o.verdict == Verdict::kProved) o.detail = "shift " + std::to_string(s);
    if (o.verdict == Verdict::kRefuted) {
      // Replay: the divisor Z3 found, its magic number in 128-bit arithmetic.
      const int64_t dv = model.eval(d, true).get_numeral_int64();
      const u128 mv = ceil_magic(dv, s);
      const u128 pv = u128{1} << s;
      const bool fits = mv < (u128{1} << 64);
      const bool violated = !fits || mv * static_cast<u128>(dv) - pv > (u128{1} << (s - 63));
      if (!violated) {
        o.verdict = Verdict::kUnknown;
        o.detail = "Z3's counterexample d = " + std::to_string(dv) + " does not replay";
      } else {
        o.counterexample = Counterexample{
            {dv}, {}, {}, "divisor " + std::to_string(dv) + ", shift " + std::to_string(s) + ": magic " +
                              u128_string(mv) + " gives m*d - 2^s = " +
                              (fits ? u128_string(mv * static_cast<u128>(dv) - pv) : std::string("(m >= 2^64)")) +
                              " > 2^(s-63) = " + u128_string(u128{1} << (s - 63))};
      }
    }
    outcomes.push_back(o);
  }
  return outcomes;
}

}  // namespace tilecheck::proofs
