#include "proofs/obligations.h"


#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>
#include "proofs/prover_support.h"

namespace tilecheck::proofs {

using namespace support;

// ---------------------------------------------------------------------------
// The mixed-radix lemma (obligations.h), shared by every layout.

Outcome Prover::mixed_radix(size_t rank) {
  Outcome total{"mixed-radix", "row-major is a bijection box <-> [0, product), ranks 1.." +
                                   std::to_string(rank),
                Verdict::kProved, 0, "", std::nullopt};
  const MappingOps<Z3Domain>& ops = mapping_.symbolic;
  auto shared = [&](const std::string& name, const std::string& title,
                    const std::function<Verdict(double&, std::string&)>& prove_it) {
    auto it = shared_verdicts_.find(name);
    Verdict v;
    if (it != shared_verdicts_.end()) {
      v = it->second;
    } else {
      Outcome o{name, title, Verdict::kUnknown, 0, "", std::nullopt};
      o.verdict = prove_it(o.ms, o.detail);
      shared_.push_back(o);
      shared_verdicts_[name] = o.verdict;
      v = o.verdict;
      total.ms += o.ms;
    }
    if (v != Verdict::kProved && total.detail.empty()) total.detail = name + " " + verdict_name(v);
    total.verdict = worst(total.verdict, v);
  };

  // K1-K3: the rank-2 core, nonlinear, pure arithmetic.
  shared("mixed-radix-core", "K1-K3 for symbolic a, b", [&](double& ms, std::string& detail) {
    z3::context ctx;
    Z3Domain a(ctx);
    const z3::expr A = a.fresh("a"), B = a.fresh("b"), u = a.fresh("u"), v = a.fresh("v"),
                   p = a.fresh("p");
    const z3::expr uv = a.add(a.mul(u, B), v), ab = a.mul(A, B);
    const spec::DivMod<z3::expr> k2 = a.div_mod(uv, B), k3 = a.div_mod(p, B);
    const z3::expr hyp_uv = u >= 0 && u < A && v >= 0 && v < B;
    const z3::expr goal =
        z3::implies(hyp_uv, uv >= 0 && uv < ab && k2.quotient == u && k2.remainder == v) &&
        z3::implies(p >= 0 && p < ab, k3.quotient >= 0 && k3.quotient < A &&
                                          k3.remainder >= 0 && k3.remainder < B &&
                                          a.add(a.mul(k3.quotient, B), k3.remainder) == p);
    return run({"mixed-radix-core", A >= 0 && B >= 0 && a.all_definitions() && !goal}, ms,
               nullptr, detail);
  });
  // Rank 1 directly.
  shared("mixed-radix-rank1", "M1-M3 for rank 1", [&](double& ms, std::string& detail) {
    z3::context ctx;
    Z3Domain a(ctx);
    const ZVec c = fresh_vec(a, "c", 1), x = fresh_vec(a, "x", 1);
    const z3::expr p = a.fresh("p");
    const z3::expr lx = ops.linear_index(a, x, c), n = spec::product(a, c);
    const ZVec rp = ops.row_major_coordinates(a, p, c);
    const z3::expr goal =
        z3::implies(in_box(ctx, x, c),
                    lx >= 0 && lx < n && equal(ctx, ops.row_major_coordinates(a, lx, c), x)) &&
        z3::implies(p >= 0 && p < n, in_box(ctx, rp, c) && ops.linear_index(a, rp, c) == p);
    return run({"mixed-radix-rank1", c[0] >= 0 && a.all_definitions() && !goal}, ms, nullptr,
               detail);
  });
  // S1-S4 for every rank 2..rank.
  for (size_t n = 2; n <= rank; ++n) {
    const std::string name = "mixed-radix-step" + std::to_string(n);
    shared(name, "S1-S4 for rank " + std::to_string(n), [&](double& ms, std::string& detail) {
      z3::context ctx;
      Z3Domain a(ctx);
      const auto t0 = Clock::now();
      const ZVec c = fresh_vec(a, "c", n), x = fresh_vec(a, "x", n);
      const ZVec h(c.begin(), c.end() - 1), xh(x.begin(), x.end() - 1);
      const z3::expr p = a.fresh("p");
      // S3 first, as identical terms.
      const spec::DivMod<z3::expr> qr = a.div_mod(p, c.back());
      ZVec expected = ops.row_major_coordinates(a, qr.quotient, h);
      expected.push_back(qr.remainder);
      const bool s3 = identical(ops.row_major_coordinates(a, p, c), expected);
      const z3::expr s1 = ops.linear_index(a, x, c) ==
                          a.add(a.mul(ops.linear_index(a, xh, h), c.back()), x.back());
      const z3::expr s2 = spec::product(a, c) == a.mul(spec::product(a, h), c.back());
      // S4: the merged index of D4 (Horner form) is the row-major index.
      const z3::expr s4 = spec::group_index(a, c, x, spec::TileGroup{0, n - 1, 0}) ==
                          spec::linear_index(a, x, c);
      ms += ms_since(t0);
      const Verdict v =
          run({name, a.all_definitions() && !(s1 && s2 && s4)}, ms, nullptr, detail);
      if (v == Verdict::kProved && !s3) {
        detail = "S3: row_major_coordinates does not peel the most minor dim first";
        return Verdict::kUnknown;
      }
      return v;
    });
  }
  return total;
}

}  // namespace tilecheck::proofs
