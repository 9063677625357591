// What the Prover's files share (proofs/obligations.cc, lemmas.cc,
// bijection.cc, impl_agreement.cc, no_overflow.cc): Z3 vector helpers, the
// level lemmas' facts, reading models back as int64. Internal to proofs/.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "proofs/obligations.h"

namespace tilecheck::proofs::support {

using ZVec = Vec<Z3Domain>;
using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

inline ZVec fresh_vec(Z3Domain& a, const std::string& name, size_t n) {
  ZVec v;
  for (size_t i = 0; i < n; ++i) v.push_back(a.fresh(name + std::to_string(i)));
  return v;
}

inline z3::expr all_of(z3::context& ctx, const std::vector<z3::expr>& facts) {
  z3::expr_vector v(ctx);
  for (const auto& f : facts) v.push_back(f);
  return z3::mk_and(v);
}

inline z3::expr nonnegative(z3::context& ctx, const ZVec& x) {
  std::vector<z3::expr> f;
  for (const auto& xi : x) f.push_back(xi >= 0);
  return all_of(ctx, f);
}

// 0 <= x < b elementwise (false when the ranks differ).
inline z3::expr in_box(z3::context& ctx, const ZVec& x, const ZVec& b) {
  if (x.size() != b.size()) return ctx.bool_val(false);
  std::vector<z3::expr> f;
  for (size_t i = 0; i < x.size(); ++i) f.push_back(x[i] >= 0 && x[i] < b[i]);
  return all_of(ctx, f);
}

inline z3::expr equal(z3::context& ctx, const ZVec& x, const ZVec& y) {
  if (x.size() != y.size()) return ctx.bool_val(false);
  std::vector<z3::expr> f;
  for (size_t i = 0; i < x.size(); ++i) f.push_back(x[i] == y[i]);
  return all_of(ctx, f);
}

inline bool identical(const ZVec& x, const ZVec& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!z3::eq(x[i], y[i])) return false;
  }
  return true;
}

inline std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

// The worse of two verdicts for a conjunction of facts.
inline Verdict worst(Verdict a, Verdict b) {
  if (a == Verdict::kRefuted || b == Verdict::kRefuted) return Verdict::kRefuted;
  if (a == Verdict::kUnknown || b == Verdict::kUnknown) return Verdict::kUnknown;
  return Verdict::kProved;
}

// Which level facts an obligation needs (obligations.h, "Composition").
struct LevelFacts {
  bool l2 = false;  // g(f(x)) = x
  bool l3 = false;  // onto
};

// Instances of the mixed-radix lemma for the merged groups of a level with
// '*' (D4), where the merged index u = group_index(x_g) multiplies unknown
// bounds. Each instance is valid because M1-M3 and the Horner identity
// group_index(x_g, d_g) = lin(x_g, d_g) (step lemma S4) are proved for the
// spec's functions; adding them only spares Z3 the nonlinear reasoning:
//   x_g in box(d_g)            =>  0 <= u < product(d_g), rmc(u, d_g) = x_g
//   0 <= v < product(d_g)      =>  rmc(v, d_g) in box(d_g), group_index(rmc(v, d_g)) = v
// for v = the value untile_index recomposes from the level's output y.
inline z3::expr merged_group_facts(Z3Domain& a, const spec::TileSizes<Z3Domain>& tile, const ZVec& b,
                            const ZVec& x, const std::optional<ZVec>& y) {
  z3::context& ctx = a.context();
  const spec::LevelStructure s = spec::level_structure<Z3Domain>(tile, b.size());
  const ZVec d = spec::extend(a, b, s.extension, 1);
  const ZVec xe = spec::extend(a, x, s.extension, 0);
  std::vector<z3::expr> facts;
  const size_t n = s.groups.size();
  for (size_t k = 0; k < n; ++k) {
    const spec::TileGroup& g = s.groups[k];
    if (g.last == g.first) continue;
    const ZVec dg(d.begin() + g.first, d.begin() + g.last + 1);
    const ZVec xg(xe.begin() + g.first, xe.begin() + g.last + 1);
    const z3::expr bound = spec::group_bound(a, d, g);
    const z3::expr u = spec::group_index(a, d, xe, g);
    facts.push_back(z3::implies(in_box(ctx, xg, dg),
                                u >= 0 && u < bound &&
                                    equal(ctx, spec::row_major_coordinates(a, u, dg), xg)));
    if (y) {
      const z3::expr v = a.add(a.mul((*y)[s.prefix + k], *tile[g.tile_pos]), (*y)[s.prefix + n + k]);
      const ZVec z = spec::row_major_coordinates(a, v, dg);
      ZVec ze(d.size(), a.constant(0));
      std::copy(z.begin(), z.end(), ze.begin() + g.first);
      facts.push_back(z3::implies(v >= 0 && v < bound,
                                  in_box(ctx, z, dg) && spec::group_index(a, d, ze, g) == v));
    }
  }
  return all_of(ctx, facts);
}

// L0-L3 for one level over fresh bounds of rank `rank`; `tile` gives the
// tile sizes in the domain (constants, or unknowns constrained by
// `tile_hypothesis`).
inline z3::expr level_lemma_violation(Z3Domain& a, const MappingOps<Z3Domain>& ops,
                               const spec::TileSizes<Z3Domain>& tile,
                               const z3::expr& tile_hypothesis, size_t rank, LevelFacts facts,
                               size_t& rank_after, bool merged_group_instances) {
  z3::context& ctx = a.context();
  const ZVec b = fresh_vec(a, "b", rank);
  const ZVec after = ops.tile_bounds(a, tile, b);
  rank_after = after.size();
  std::vector<z3::expr> goals = {nonnegative(ctx, after)};  // L0
  const ZVec x = fresh_vec(a, "x", rank);
  const ZVec fx = ops.tile_index(a, tile, b, x);
  std::vector<z3::expr> forward = {in_box(ctx, fx, after)};  // L1
  if (facts.l2) {
    const spec::Untiled<Z3Domain> back = ops.untile_index(a, tile, b, fx);
    forward.push_back(back.in_bounds && equal(ctx, back.index, x));
  }
  goals.push_back(z3::implies(in_box(ctx, x, b), all_of(ctx, forward)));
  ZVec y_for_l3;
  if (facts.l3) {
    const ZVec y = fresh_vec(a, "y", after.size());
    y_for_l3 = y;
    const spec::Untiled<Z3Domain> gy = ops.untile_index(a, tile, b, y);
    const z3::expr onto = in_box(ctx, gy.index, b) &&
                          equal(ctx, ops.tile_index(a, tile, b, gy.index), y);
    goals.push_back(z3::implies(in_box(ctx, y, after) && gy.in_bounds, onto));
  }
  const z3::expr goal = all_of(ctx, goals);
  z3::expr instances = ctx.bool_val(true);
  if (merged_group_instances) {
    instances = merged_group_facts(a, tile, b, x, facts.l3 ? std::optional<ZVec>(y_for_l3) : std::nullopt);
  }
  return tile_hypothesis && nonnegative(ctx, b) && instances && a.all_definitions() && !goal;
}

// The logical dims as terms: numerals, or fresh unknowns >= 0 for `?`.
inline ZVec dims_terms(Z3Domain& a, const std::vector<int64_t>& dims, z3::expr& hypothesis) {
  ZVec d;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == kSymbolicDim) {
      d.push_back(a.fresh("d" + std::to_string(i)));
      hypothesis = hypothesis && d.back() >= 0;
    } else {
      d.push_back(a.constant(dims[i]));
    }
  }
  return d;
}

// A model value outside int64: the counterexample cannot be replayed.
struct ModelTooLarge {};

inline int64_t model_int(const z3::model& m, const z3::expr& e) {
  int64_t v = 0;
  if (!m.eval(e, true).is_numeral_i64(v)) throw ModelTooLarge{};
  return v;
}

inline std::vector<int64_t> model_ints(const z3::model& m, const ZVec& v) {
  std::vector<int64_t> out;
  for (const auto& e : v) out.push_back(model_int(m, e));
  return out;
}

inline bool in_box(const std::vector<int64_t>& x, const std::vector<int64_t>& b) {
  if (x.size() != b.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] < 0 || x[i] >= b[i]) return false;
  }
  return true;
}


}  // namespace tilecheck::proofs::support
