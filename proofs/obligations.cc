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

namespace tilecheck::proofs {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kProved: return "proved";
    case Verdict::kRefuted: return "refuted";
    case Verdict::kUnknown: return "unknown";
  }
  return "unknown";
}

namespace {

using ZVec = Vec<Z3Domain>;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

ZVec fresh_vec(Z3Domain& a, const std::string& name, size_t n) {
  ZVec v;
  for (size_t i = 0; i < n; ++i) v.push_back(a.fresh(name + std::to_string(i)));
  return v;
}

z3::expr all_of(z3::context& ctx, const std::vector<z3::expr>& facts) {
  z3::expr_vector v(ctx);
  for (const auto& f : facts) v.push_back(f);
  return z3::mk_and(v);
}

z3::expr nonnegative(z3::context& ctx, const ZVec& x) {
  std::vector<z3::expr> f;
  for (const auto& xi : x) f.push_back(xi >= 0);
  return all_of(ctx, f);
}

// 0 <= x < b elementwise (false when the ranks differ).
z3::expr in_box(z3::context& ctx, const ZVec& x, const ZVec& b) {
  if (x.size() != b.size()) return ctx.bool_val(false);
  std::vector<z3::expr> f;
  for (size_t i = 0; i < x.size(); ++i) f.push_back(x[i] >= 0 && x[i] < b[i]);
  return all_of(ctx, f);
}

z3::expr equal(z3::context& ctx, const ZVec& x, const ZVec& y) {
  if (x.size() != y.size()) return ctx.bool_val(false);
  std::vector<z3::expr> f;
  for (size_t i = 0; i < x.size(); ++i) f.push_back(x[i] == y[i]);
  return all_of(ctx, f);
}

bool identical(const ZVec& x, const ZVec& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!z3::eq(x[i], y[i])) return false;
  }
  return true;
}

std::string join(const std::vector<int64_t>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out;
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

// The worse of two verdicts for a conjunction of facts.
Verdict worst(Verdict a, Verdict b) {
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
z3::expr merged_group_facts(Z3Domain& a, const spec::TileSizes<Z3Domain>& tile, const ZVec& b,
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
z3::expr level_lemma_violation(Z3Domain& a, const MappingOps<Z3Domain>& ops,
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
ZVec dims_terms(Z3Domain& a, const std::vector<int64_t>& dims, z3::expr& hypothesis) {
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

int64_t model_int(const z3::model& m, const z3::expr& e) {
  int64_t v = 0;
  if (!m.eval(e, true).is_numeral_i64(v)) throw ModelTooLarge{};
  return v;
}

std::vector<int64_t> model_ints(const z3::model& m, const ZVec& v) {
  std::vector<int64_t> out;
  for (const auto& e : v) out.push_back(model_int(m, e));
  return out;
}

bool in_box(const std::vector<int64_t>& x, const std::vector<int64_t>& b) {
  if (x.size() != b.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] < 0 || x[i] >= b[i]) return false;
  }
  return true;
}

std::string tuple(const std::vector<int64_t>& v) { return "(" + join(v) + ")"; }

}  // namespace

// A query: `violation` satisfiable means the fact fails.

Prover::Prover(ProofOptions options, Mapping mapping)
    : options_(std::move(options)), mapping_(std::move(mapping)) {}

Verdict Prover::run(const Query& q, double& ms, z3::model* model, std::string& detail) {
  const auto t0 = Clock::now();
  z3::context& ctx = q.violation.ctx();
  z3::solver s = q.plain_smt ? z3::tactic(ctx, "smt").mk_solver()
                 : q.logic   ? z3::solver(ctx, q.logic)
                             : z3::solver(ctx);
  s.add(q.violation);
  if (!options_.smt2_dir.empty()) {
    std::ofstream out(options_.smt2_dir + "/" + sanitize(q.name) + ".smt2");
    out << "; tilecheck: " << q.name << "\n; unsat means the fact holds\n"
        << s.to_smt2();
    if (!out) throw Error("cannot write SMT-LIB2 file in " + options_.smt2_dir);
  }
  Verdict v = Verdict::kUnknown;
  // Z3 4.8.12's own "timeout" parameter can deadlock in its timer thread, so
  // the time limit is a watchdog of ours that interrupts the context.
  z3::check_result result;
  {
    std::mutex m;
    std::condition_variable done_cv;
    bool done = false;
    std::thread watchdog([&] {
      std::unique_lock<std::mutex> lock(m);
      if (!done_cv.wait_for(lock, std::chrono::milliseconds(options_.timeout_ms),
                            [&] { return done; })) {
        ctx.interrupt();
      }
    });
    result = s.check();
    {
      std::lock_guard<std::mutex> lock(m);
      done = true;
    }
    done_cv.notify_one();
    watchdog.join();
  }
  switch (result) {
    case z3::unsat: v = Verdict::kProved; break;
    case z3::sat:
      v = Verdict::kRefuted;
      if (model) *model = s.get_model();
      break;
    case z3::unknown:
      detail = q.name + ": " + s.reason_unknown();
      break;
  }
  ms += ms_since(t0);
  ++query_count_;
  return v;
}

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

// ---------------------------------------------------------------------------
// Whole-layout queries (the fallback when a lemma fails, and equiv).

namespace {

// The terms of one whole-layout obligation and how to replay its model.
struct Direct {
  std::unique_ptr<z3::context> ctx = std::make_unique<z3::context>();
  std::unique_ptr<Z3Domain> a = std::make_unique<Z3Domain>(*ctx);
  ZVec dims, e1, e2;
  std::optional<z3::expr> p;
  std::optional<z3::expr> violation;
};

}  // namespace

namespace {

// Replays a whole-layout counterexample on checked int64 with the mapping's
// own pieces. Returns the explanation, or nullopt when the model does not
// reproduce (the caller then reports unknown, never an unchecked claim).
std::optional<std::string> replay(const MappingOps<spec::Int64Domain>& ops, const Layout& layout,
                                  const std::string& obligation, const Counterexample& c) {
  spec::Int64Domain a;
  auto index = [&](const std::vector<int64_t>& e) {
    return mapped_linear_index(a, ops, c.dims, layout, e);
  };
  try {
    const int64_t n = mapped_final_count(a, ops, c.dims, layout);
    if (obligation == "P1") {
      const auto &e1 = c.elements[0], &e2 = c.elements[1];
      if (e1 == e2 || !in_box(e1, c.dims) || !in_box(e2, c.dims)) return std::nullopt;
      const int64_t p1 = index(e1), p2 = index(e2);
      if (p1 != p2) return std::nullopt;
      return "elements " + tuple(e1) + " and " + tuple(e2) + " both map to position " +
             std::to_string(p1);
    }
    if (obligation == "P2") {
      const auto& e = c.elements[0];
      if (!in_box(e, c.dims)) return std::nullopt;
      const int64_t p = index(e), padded = mapped_padded_count(a, ops, c.dims, layout);
      if (p >= 0 && p < padded) return std::nullopt;
      return "element " + tuple(e) + " maps to position " + std::to_string(p) +
             ", outside [0, " + std::to_string(padded) + ")";
    }
    // P3
    if (!c.elements.empty()) {
      const auto& e = c.elements[0];
      if (!in_box(e, c.dims)) return std::nullopt;
      const int64_t p = index(e);
      if (p < 0 || p >= n) {
        return "element " + tuple(e) + " maps to position " + std::to_string(p) +
               ", which delinearize does not accept (outside [0, " + std::to_string(n) + "))";
      }
      const spec::Untiled<spec::Int64Domain> u = mapped_delinearize(a, ops, c.dims, layout, p);
      if (u.in_bounds && u.index == e) return std::nullopt;
      return "element " + tuple(e) + " maps to position " + std::to_string(p) +
             " but delinearize(" + std::to_string(p) + ") is " +
             (u.in_bounds ? tuple(u.index) : std::string("padding"));
    }
    const int64_t p = c.positions[0];
    if (p < 0 || p >= n) return std::nullopt;
    const spec::Untiled<spec::Int64Domain> u = mapped_delinearize(a, ops, c.dims, layout, p);
    if (!u.in_bounds) return std::nullopt;
    if (!in_box(u.index, c.dims)) {
      return "position " + std::to_string(p) + " delinearizes to " + tuple(u.index) +
             ", marked in bounds but outside the dims";
    }
    const int64_t back = index(u.index);
    if (back == p) return std::nullopt;
    return "position " + std::to_string(p) + " delinearizes to " + tuple(u.index) +
           ", which maps to position " + std::to_string(back);
  } catch (const Error&) {
    return std::nullopt;  // the int64 domain rejected the model (overflow, ...)
  }
}

// P1-P3 and the per-level facts each one rests on.
struct LevelObligation {
  const char* name;
  const char* title;
  LevelFacts facts;
};
const LevelObligation kLevelObligations[] = {{"P1", "injective", {true, false}},
                                             {"P2", "in range", {false, false}},
                                             {"P3", "onto non-padding", {true, true}}};

}  // namespace

std::vector<Outcome> Prover::prove(const ShapeWithLayout& shape) {
  validate_structure(shape);
  const Layout& layout = shape.layout;
  const std::string label = print_shape(shape);
  const MappingOps<Z3Domain>& ops = mapping_.symbolic;
  const size_t rank = shape.dims.size();

  // The composition check and the final rank, once for the layout.
  double composition_ms = 0;
  bool composition_ok = true;
  size_t final_rank = 0, radix_rank = 1;
  {
    const auto t0 = Clock::now();
    z3::context ctx;
    Z3Domain a(ctx);
    z3::expr hyp = ctx.bool_val(true);
    const ZVec d = dims_terms(a, shape.dims, hyp);
    const ZVec e = fresh_vec(a, "e", rank);
    const z3::expr p = a.fresh("p");
    const auto bounds = mapped_level_bounds(a, ops, d, layout);
    final_rank = bounds.back().size();
    // The merged-group instances rest on the mixed-radix lemma at the
    // group's rank, which may exceed the final rank.
    for (size_t k = 0; k < layout.tiles.size(); ++k) {
      const spec::TileSizes<Z3Domain> tile = spec::tile_sizes(a, layout.tiles[k]);
      for (const spec::TileGroup& g : spec::level_structure<Z3Domain>(tile, bounds[k].size()).groups) {
        radix_rank = std::max(radix_rank, g.last - g.first + 1);
      }
    }
    radix_rank = std::max(radix_rank, final_rank);
    if (mapping_.is_spec) {
      const spec::Untiled<Z3Domain> g1 = spec::delinearize(a, d, layout, p),
                                    g2 = mapped_delinearize(a, ops, d, layout, p);
      composition_ok =
          z3::eq(spec::linear_index_with_tile(a, d, layout, e),
                 mapped_linear_index(a, ops, d, layout, e)) &&
          identical(g1.index, g2.index) && z3::eq(g1.in_bounds, g2.in_bounds) &&
          z3::eq(spec::padded_element_count(a, d, layout), mapped_padded_count(a, ops, d, layout));
    }
    composition_ms = ms_since(t0);
  }
  const Outcome radix = mixed_radix(radix_rank);

  std::vector<Outcome> results;
  for (const LevelObligation& sp : kLevelObligations) {
    Outcome o{sp.name, sp.title, Verdict::kProved, composition_ms, "", std::nullopt};
    if (!composition_ok) {
      o.verdict = Verdict::kUnknown;
      o.detail = "the spec's whole-layout functions are not the composition the proof assumes";
    }
    o.verdict = worst(o.verdict, radix.verdict);
    if (radix.verdict != Verdict::kProved) o.detail = radix.detail;
    // Level lemmas, over fresh bounds of each level's input rank.
    size_t r = rank;
    for (size_t k = 0; k < layout.tiles.size() && o.verdict == Verdict::kProved; ++k) {
      z3::context ctx;
      Z3Domain a(ctx);
      const auto t0 = Clock::now();
      const spec::TileSizes<Z3Domain> tile = spec::tile_sizes(a, layout.tiles[k]);
      const z3::expr violation =
          level_lemma_violation(a, ops, tile, ctx.bool_val(true), r, sp.facts, r, mapping_.is_spec);
      o.ms += ms_since(t0);
      const std::string qname = label + "." + sp.name + ".level" + std::to_string(k + 1);
      o.verdict = worst(o.verdict, run({qname, violation}, o.ms, nullptr, o.detail));
    }
    // R: the L(n) rounding never shrinks the count.
    if (sp.name == std::string("P2") && layout.tail_padding_alignment &&
        o.verdict == Verdict::kProved) {
      z3::context ctx;
      Z3Domain a(ctx);
      const z3::expr c = a.fresh("c");
      const z3::expr rounded = round_up_to_alignment(a, c, layout);
      o.verdict = run({label + ".P2.rounding", c >= 0 && a.all_definitions() && !(c <= rounded)},
                      o.ms, nullptr, o.detail);
    }
    if (o.verdict != Verdict::kProved) {
      // Some lemma does not hold for general bounds: ask the layout directly.
      Direct q;
      Z3Domain& a = *q.a;
      z3::context& ctx = *q.ctx;
      const auto t0 = Clock::now();
      z3::expr hyp = ctx.bool_val(true);
      q.dims = dims_terms(a, shape.dims, hyp);
      q.e1 = fresh_vec(a, "e", rank);
      const z3::expr f1 = mapped_linear_index(a, ops, q.dims, layout, q.e1);
      const z3::expr n = mapped_final_count(a, ops, q.dims, layout);
      z3::expr bad = ctx.bool_val(false);
      z3::expr element_case = ctx.bool_val(false), position_case = ctx.bool_val(false);
      if (sp.name == std::string("P1")) {
        q.e2 = fresh_vec(a, "f", rank);
        bad = in_box(ctx, q.e1, q.dims) && in_box(ctx, q.e2, q.dims) &&
              !equal(ctx, q.e1, q.e2) && f1 == mapped_linear_index(a, ops, q.dims, layout, q.e2);
      } else if (sp.name == std::string("P2")) {
        bad = in_box(ctx, q.e1, q.dims) &&
              !(f1 >= 0 && f1 < mapped_padded_count(a, ops, q.dims, layout));
      } else {
        q.p = a.fresh("p");
        const spec::Untiled<Z3Domain> back = mapped_delinearize(a, ops, q.dims, layout, f1);
        const spec::Untiled<Z3Domain> gp = mapped_delinearize(a, ops, q.dims, layout, *q.p);
        element_case =
            in_box(ctx, q.e1, q.dims) &&
            !(f1 >= 0 && f1 < n && back.in_bounds && equal(ctx, back.index, q.e1));
        position_case =
            *q.p >= 0 && *q.p < n && gp.in_bounds &&
            !(in_box(ctx, gp.index, q.dims) &&
              mapped_linear_index(a, ops, q.dims, layout, gp.index) == *q.p);
        bad = element_case || position_case;
      }
      o.ms += ms_since(t0);
      z3::model model(ctx);
      std::string why;
      const Verdict direct = run({label + "." + sp.name + ".direct", hyp && a.all_definitions() && bad},
                                 o.ms, &model, why);
      const std::string lemma_note = o.detail.empty() ? "" : " (" + o.detail + ")";
      if (direct == Verdict::kProved) {
        o.verdict = Verdict::kProved;
        o.detail = "by the whole-layout query; a lemma does not hold for general bounds" +
                   lemma_note;
      } else if (direct == Verdict::kUnknown) {
        o.verdict = Verdict::kUnknown;
        o.detail = "a lemma is not proved" + lemma_note + " and the whole-layout query: " + why;
      } else {
        Counterexample c;
        try {
          c.dims = model_ints(model, q.dims);
          std::optional<std::string> why_concrete;
          if (sp.name == std::string("P3")) {
            // Try whichever half (element, position) the model violates.
            if (model.eval(element_case, true).is_true()) {
              c.elements.push_back(model_ints(model, q.e1));
              why_concrete = replay(mapping_.concrete, layout, sp.name, c);
            }
            if (!why_concrete && model.eval(position_case, true).is_true()) {
              c.elements.clear();
              c.positions.push_back(model_int(model, *q.p));
              why_concrete = replay(mapping_.concrete, layout, sp.name, c);
            }
          } else {
            c.elements.push_back(model_ints(model, q.e1));
            if (!q.e2.empty()) c.elements.push_back(model_ints(model, q.e2));
            why_concrete = replay(mapping_.concrete, layout, sp.name, c);
          }
          if (why_concrete) {
            o.verdict = Verdict::kRefuted;
            c.explanation = *why_concrete;
            o.counterexample = c;
            o.detail.clear();
          } else {
            o.verdict = Verdict::kUnknown;
            o.detail = "Z3 found a model that int64 replay does not confirm (dims " +
                       tuple(c.dims) + ")";
          }
        } catch (const ModelTooLarge&) {
          o.verdict = Verdict::kUnknown;
          o.detail = "Z3 found a model with values outside int64; not replayed";
        }
      }
    }
    results.push_back(o);
  }
  return results;
}

// ---------------------------------------------------------------------------

Outcome Prover::equivalent(const ShapeWithLayout& x, const ShapeWithLayout& y) {
  validate_structure(x);
  validate_structure(y);
  if (x.dims != y.dims) {
    throw Error("equiv needs two layouts of the same logical shape; dims [" + join(x.dims) +
                "] and [" + join(y.dims) + "] differ");
  }
  Outcome o{"equiv", "same position for every element", Verdict::kUnknown, 0, "", std::nullopt};
  z3::context ctx;
  Z3Domain a(ctx);
  const auto t0 = Clock::now();
  z3::expr hyp = ctx.bool_val(true);
  const ZVec d = dims_terms(a, x.dims, hyp);
  const ZVec e = fresh_vec(a, "e", d.size());
  const MappingOps<Z3Domain>& ops = mapping_.symbolic;
  const z3::expr fx = mapped_linear_index(a, ops, d, x.layout, e);
  const z3::expr fy = mapped_linear_index(a, ops, d, y.layout, e);
  o.ms += ms_since(t0);
  z3::model model(ctx);
  o.verdict = run({print_shape(x) + ".equiv." + print_shape(y),
                   hyp && a.all_definitions() && in_box(ctx, e, d) && fx != fy},
                  o.ms, &model, o.detail);
  if (o.verdict != Verdict::kRefuted) return o;
  Counterexample c;
  try {
    c.dims = model_ints(model, d);
    c.elements.push_back(model_ints(model, e));
    ShapeWithLayout cx = x, cy = y;
    cx.dims = cy.dims = c.dims;
    const int64_t px = spec::linear_index(cx, c.elements[0]);
    const int64_t py = spec::linear_index(cy, c.elements[0]);
    if (px != py) {
      c.positions = {px, py};
      c.explanation = "element " + tuple(c.elements[0]) + " is at position " +
                      std::to_string(px) + " in " + print_shape(cx) + " but " +
                      std::to_string(py) + " in " + print_shape(cy);
      o.counterexample = c;
      return o;
    }
  } catch (const Error&) {
  } catch (const ModelTooLarge&) {
  }
  o.verdict = Verdict::kUnknown;
  o.detail = "Z3 found a model that the int64 spec does not confirm (dims " + tuple(c.dims) + ")";
  return o;
}

// ---------------------------------------------------------------------------

Outcome Prover::prove_impl_agrees(const ShapeWithLayout& shape) {
  spec::validate(shape);  // concrete dims, sizes in int64
  const impl::IndexPlan plan(shape);
  return prove_program_agrees(shape, plan.program(), [&plan](std::span<const int64_t> e) {
    return plan.linear_index(e);
  });
}

Outcome Prover::prove_program_agrees(const ShapeWithLayout& shape,
                                     const impl::IndexProgram& program,
                                     const std::function<int64_t(std::span<const int64_t>)>& run_program) {
  spec::validate(shape);
  Outcome o{"P4", "impl = spec", Verdict::kUnknown, 0, "", std::nullopt};
  z3::context ctx;
  Z3Domain a(ctx);
  const auto t0 = Clock::now();
  ZVec dims;
  for (int64_t d : shape.dims) dims.push_back(a.constant(d));
  const ZVec e = fresh_vec(a, "e", dims.size());
  const z3::expr impl_index = evaluate_program(a, program, e);
  const z3::expr spec_index = spec::linear_index_with_tile(a, dims, shape.layout, e);
  o.ms += ms_since(t0);
  z3::model model(ctx);
  o.verdict = run({print_shape(shape) + ".P4",
                   a.all_definitions() && in_box(ctx, e, dims) && impl_index != spec_index},
                  o.ms, &model, o.detail);
  if (o.verdict != Verdict::kRefuted) return o;
  Counterexample c{shape.dims, {}, {}, ""};
  try {
    c.elements.push_back(model_ints(model, e));
  } catch (const ModelTooLarge&) {
    o.verdict = Verdict::kUnknown;  // cannot happen for in-bounds coordinates of a valid shape
    return o;
  }
  const int64_t by_impl = run_program(c.elements[0]);
  const int64_t by_spec = spec::linear_index(shape, c.elements[0]);
  if (by_impl == by_spec) {
    o.verdict = Verdict::kUnknown;
    o.detail = "Z3 found a model that int64 replay does not confirm";
    return o;
  }
  c.positions = {by_impl, by_spec};
  c.explanation = "element " + tuple(c.elements[0]) + ": impl gives " + std::to_string(by_impl) +
                  ", spec " + std::to_string(by_spec);
  o.counterexample = c;
  return o;
}

// ---------------------------------------------------------------------------
// P5, proofs/overflow.h.

namespace {

// The recorded steps [from, to), one fact each: it fits int64, and a
// dividend is >= 0 when `dividends_nonnegative` (the goals; the hypothesis
// mirrors validate, which checks overflow only). `seen` holds (by term id)
// the facts already stated: a value recorded again (terms are hash-consed)
// adds nothing, and a goal that is a value of the hypothesis holds by it.
std::vector<z3::expr> step_facts(z3::context& ctx, const std::vector<RecordedStep<z3::expr>>& steps,
                                 size_t from, size_t to, bool dividends_nonnegative,
                                 std::vector<bool>& seen) {
  const z3::expr lo = ctx.int_val("-9223372036854775808"), hi = ctx.int_val("9223372036854775808");
  std::vector<z3::expr> facts;
  for (size_t i = from; i < to; ++i) {
    const z3::expr& v = steps[i].value;
    if (v.is_numeral()) {  // folded by the domain: constants of the layout
      int64_t c;
      if (v.is_numeral_i64(c) &&
          (!dividends_nonnegative || std::string(steps[i].what) != "dividend" || c >= 0)) {
        continue;
      }
    }
    const bool dividend = dividends_nonnegative && std::string(steps[i].what) == "dividend";
    const unsigned id = Z3_get_ast_id(ctx, v) * 2 + dividend;
    if (id >= seen.size()) seen.resize(id + 1, false);
    if (seen[id]) continue;
    seen[id] = true;
    facts.push_back(dividend ? v >= 0 && v < hi : v >= lo && v < hi);
  }
  return facts;
}

// The lemmas P5's queries are given instances of (proofs/overflow.h), as
// formulas over any terms: z = x*y, and (q, r) = div_mod(x, t).
z3::expr product_lemma(const z3::expr& x, const z3::expr& y, const z3::expr& z) {
  return z3::implies(x >= 0 && y >= 0, z >= 0) &&                        // G0
         z3::implies(x >= 0 && y >= 1, x <= z) &&                        // G1
         z3::implies(x >= 1 && y >= 0, y <= z) &&
         z3::implies(x >= 0 && y >= 0 && z >= 1, x >= 1 && y >= 1);     // G3
}
// G2, monotonicity: x <= X, y >= 0  =>  x*y <= X*y.
z3::expr monotone_lemma(const z3::expr& x, const z3::expr& big_x, const z3::expr& y) {
  return z3::implies(x <= big_x && y >= 0, x * y <= big_x * y);
}
// DIV: t >= 1, x >= 0  =>  0 <= q <= x.
z3::expr quotient_lemma(const z3::expr& x, const z3::expr& t, const z3::expr& q) {
  return z3::implies(t >= 1 && x >= 0, q >= 0 && q <= x);
}

bool is_product_of_unknowns(const z3::expr& z) {
  return z.is_app() && z.decl().decl_kind() == Z3_OP_MUL && z.num_args() == 2 &&
         !z.arg(0).is_numeral() && !z.arg(1).is_numeral();
}

// Valid instances for one layout's P5 queries (proofs/overflow.h, "How"):
// the product lemma at every recorded product of two unknowns, DIV at every
// division by an unknown, and, for the index's row-major step over the final
// bounds c and coordinates x (the terms spec::linear_index builds), with
// s_i = c_{i+1}*...*c_{m-1} (its partial products s_{i,j}) and P_i = c_0*...*c_i:
//   G1  s_{i,j} <= s_{i,j}*s_j = s_i,   s_i <= s_i*P_i = N
//   G2  x_i*s_i <= (c_i - 1)*s_i = c_i*s_i - s_i
// for each merged group's Horner steps u_j = u_{j-1}*d_j + x_j, with the
// partial group bounds g_j = g_{j-1}*d_j:
//   G2  u_{j-1}*d_j <= (g_{j-1} - 1)*d_j = g_j - d_j
// and M3 for the final bounds: 0 <= p < N  =>  rmc(p, c) in box(c).
std::vector<z3::expr> overflow_instances(Z3Domain& a, const std::vector<RecordedStep<z3::expr>>& steps,
                                         const ZVec& dims, const Layout& layout, const ZVec& e,
                                         const z3::expr& p, const z3::expr& final_count) {
  z3::context& ctx = a.context();
  std::vector<z3::expr> facts;
  std::vector<bool> seen;
  for (const RecordedStep<z3::expr>& step : steps) {
    if (!is_product_of_unknowns(step.value)) continue;
    const unsigned id = Z3_get_ast_id(ctx, step.value);
    if (id >= seen.size()) seen.resize(id + 1, false);
    if (seen[id]) continue;
    seen[id] = true;
    facts.push_back(product_lemma(step.value.arg(0), step.value.arg(1), step.value));
  }
  // The forward index, level by level, with the Horner instances.
  const auto bounds = spec::level_bounds(a, dims, layout);
  ZVec x = spec::to_physical_order(e, layout.minor_to_major);
  for (size_t k = 0; k < layout.tiles.size(); ++k) {
    const spec::TileSizes<Z3Domain> tile = spec::tile_sizes(a, layout.tiles[k]);
    const spec::LevelStructure s = spec::level_structure<Z3Domain>(tile, bounds[k].size());
    const ZVec db = spec::extend(a, bounds[k], s.extension, 1);
    const ZVec xe = spec::extend(a, x, s.extension, 0);
    for (const spec::TileGroup& g : s.groups) {
      z3::expr u = xe[g.first], bound = db[g.first];
      for (size_t j = g.first + 1; j <= g.last; ++j) {
        facts.push_back(monotone_lemma(u, bound - 1, db[j]));
        u = a.add(a.mul(u, db[j]), xe[j]);
        bound = a.mul(bound, db[j]);
      }
    }
    x = spec::tile_index(a, tile, bounds[k], x);
  }
  const ZVec& c = bounds.back();
  const size_t m = c.size();
  std::vector<z3::expr> prefix, stride;  // P_i, s_i
  z3::expr running = a.constant(1);
  for (size_t i = 0; i < m; ++i) prefix.push_back(running = a.mul(running, c[i]));
  for (size_t i = 0; i < m; ++i) {
    z3::expr s_ij = a.constant(1);
    for (size_t j = i + 1; j < m; ++j) s_ij = a.mul(s_ij, c[j]);
    stride.push_back(s_ij);
  }
  for (size_t i = 0; i < m; ++i) {
    z3::expr s_ij = a.constant(1);
    for (size_t j = i + 1; j + 1 < m; ++j) {
      s_ij = a.mul(s_ij, c[j]);
      facts.push_back(product_lemma(s_ij, stride[j], s_ij * stride[j]));
    }
    facts.push_back(product_lemma(stride[i], prefix[i], stride[i] * prefix[i]));
    facts.push_back(monotone_lemma(x[i], c[i] - 1, stride[i]));
  }
  facts.push_back(z3::implies(nonnegative(ctx, c) && p >= 0 && p < final_count,
                              in_box(ctx, spec::row_major_coordinates(a, p, c), c)));
  // DIV at every division by an unknown (after the terms above, which may add some).
  for (const Z3Domain::Division& div : a.divisions()) {
    if (!div.divisor.is_numeral()) facts.push_back(quotient_lemma(div.dividend, div.divisor, div.quotient));
  }
  return facts;
}

template <class A>
std::vector<typename A::Value> as_values(const std::vector<int64_t>& v) {
  return std::vector<typename A::Value>(v.begin(), v.end());
}

}  // namespace

Outcome Prover::overflow_core_lemma() {
  const std::string name = "no-overflow-core";
  if (auto it = shared_verdicts_.find(name); it != shared_verdicts_.end()) {
    for (const Outcome& o : shared_) {
      if (o.name == name) return o;
    }
  }
  Outcome o{name, "G0-G3 and DIV for symbolic x, y, X, t", Verdict::kUnknown, 0, "", std::nullopt};
  z3::context ctx;
  Z3Domain a(ctx);
  const z3::expr x = a.fresh("x"), y = a.fresh("y"), big_x = a.fresh("X"), t = a.fresh("t");
  const spec::DivMod<z3::expr> qr = a.div_mod(x, t);
  const z3::expr goal = product_lemma(x, y, x * y) && monotone_lemma(x, big_x, y) &&
                        quotient_lemma(x, t, qr.quotient);
  o.verdict = run({name, a.all_definitions() && !goal}, o.ms, nullptr, o.detail);
  shared_.push_back(o);
  shared_verdicts_[name] = o.verdict;
  return o;
}

Outcome Prover::prove_no_overflow(const ShapeWithLayout& shape, const ByteSizeComputation& bytes,
                                  const impl::IndexProgram* program,
                                  const ValidationComputation& validation) {
  validate_structure(shape);
  Outcome o{"P5", "no int64 overflow", Verdict::kUnknown, 0, "", std::nullopt};
  const Layout& layout = shape.layout;
  const int64_t bits = shape.element_bits();
  const size_t rank = shape.dims.size();
  const auto t0 = Clock::now();
  // The impl's program, for concrete dims; a shape the spec rejects must be
  // rejected by the impl too, and then there is nothing to compute.
  std::optional<impl::IndexProgram> impl_program;
  if (!shape.has_symbolic_dims()) {
    bool spec_accepts = true;
    try {
      spec::validate(shape);
    } catch (const Error&) {
      spec_accepts = false;
    }
    if (!spec_accepts) {
      try {
        const impl::IndexPlan plan(shape);
      } catch (const Error&) {
        o.verdict = Verdict::kProved;
        o.ms = ms_since(t0);
        o.detail = "validation rejects the shape (spec and impl)";
        return o;
      }
      o.verdict = Verdict::kRefuted;
      o.ms = ms_since(t0);
      o.counterexample = Counterexample{shape.dims, {}, {},
                                        "spec::validate rejects the shape but impl::IndexPlan "
                                        "accepts it"};
      return o;
    }
    if (program) {
      impl_program = *program;
    } else {
      try {
        impl_program = impl::IndexPlan(shape).program();
      } catch (const Error& e) {
        o.verdict = Verdict::kRefuted;
        o.ms = ms_since(t0);
        o.counterexample = Counterexample{
            shape.dims, {}, {},
            "spec::validate accepts the shape but impl::IndexPlan rejects it: " +
                std::string(e.what())};
        return o;
      }
    }
  }

  z3::context ctx;
  Recording<Z3Domain> a(ctx);
  Z3Domain& plain = a;  // the same terms, not recorded
  z3::expr hyp = ctx.bool_val(true);
  const ZVec d = dims_terms(a, shape.dims, hyp);
  // H: validation's own steps fit. N and the padded count are not
  // recorded here: for the spec's validation they are among its steps.
  validation.symbolic(a, d, layout, bits);
  const z3::expr final_count = spec::product(plain, spec::level_bounds(plain, d, layout).back());
  const z3::expr padded = spec::padded_element_count(plain, d, layout);
  const size_t hypothesis_end = a.steps.size();
  const ZVec e = fresh_vec(a, "e", rank);
  const z3::expr p = a.fresh("p");
  spec::linear_index_with_tile(a, d, layout, e);
  const size_t index_end = a.steps.size();
  spec::delinearize(a, d, layout, p);
  const size_t delinearize_end = a.steps.size();
  bytes.symbolic(a, padded, bits);
  const size_t bytes_end = a.steps.size();
  if (impl_program) evaluate_program(a, *impl_program, e);  // concrete dims only
  // Computed before the definitions are collected: they may divide again
  // (memoised, so normally not). Concrete dims need none (linear query).
  const z3::expr facts =
      shape.has_symbolic_dims()
          ? all_of(ctx, overflow_instances(plain, a.steps, d, layout, e, p, final_count))
          : ctx.bool_val(true);
  const z3::expr in_bounds_element = in_box(ctx, e, d);
  const z3::expr position_below_count = p >= 0 && p < final_count;
  std::vector<bool> hypothesis_ids;  // the values H states in range
  const z3::expr hypothesis =
      hyp && all_of(ctx, step_facts(ctx, a.steps, 0, hypothesis_end, false, hypothesis_ids)) &&
      a.all_definitions();
  // The goals of a range of steps, less those H states.
  auto goal_facts = [&](size_t from, size_t to) {
    std::vector<bool> seen = hypothesis_ids;
    return step_facts(ctx, a.steps, from, to, true, seen);
  };
  const z3::expr given = hypothesis && in_bounds_element && position_below_count;
  o.ms += ms_since(t0);

  // The compositional proof (proofs/overflow.h): one query per computation,
  // each given valid instances of the product and division lemmas. With
  // concrete dims every size is a numeral and the whole query is linear:
  // it is asked directly. (The M3 instance rests on the mixed-radix lemma
  // for the spec's pieces, which a test's wrong mapping replaces.)
  const size_t final_rank = spec::level_bounds(plain, d, layout).back().size();
  if (shape.has_symbolic_dims() && mapping_.is_spec &&
      overflow_core_lemma().verdict == Verdict::kProved &&
      mixed_radix(final_rank).verdict == Verdict::kProved) {
    struct Part {
      const char* name;
      size_t from, to;
      z3::expr domain;
    };
    // (No impl part: the impl's program exists for concrete dims only.)
    const Part parts[] = {{"index", hypothesis_end, index_end, in_bounds_element},
                          {"delinearize", index_end, delinearize_end, position_below_count},
                          {"bytes", delinearize_end, bytes_end, ctx.bool_val(true)}};
    // The parts in order, up to the first one not proved (the whole query
    // then decides); the detail lists each part's verdict and time.
    std::string parts_detail;
    bool all_proved = true;
    for (const Part& part : parts) {
      if (!all_proved) break;
      const std::vector<z3::expr> goals = goal_facts(part.from, part.to);
      if (goals.empty()) continue;
      double part_ms = 0;
      std::string why;
      const Verdict v = run({print_shape(shape) + ".P5." + part.name,
                             hypothesis && part.domain && facts && !all_of(ctx, goals), true},
                            part_ms, nullptr, why);
      o.ms += part_ms;
      all_proved = all_proved && v == Verdict::kProved;
      parts_detail += std::string(parts_detail.empty() ? "" : ", ") + part.name +
                      (v == Verdict::kProved ? "" : std::string(" ") + verdict_name(v)) + " " +
                      std::to_string(static_cast<int>(std::lround(part_ms))) + " ms";
    }
    o.detail = "compositional: " + parts_detail;
    if (all_proved) {
      o.verdict = Verdict::kProved;
      return o;
    }
    o.detail += "; ";
  }
  // Some part is not proved (or a lemma is not): the whole query, with the
  // same valid instances, decides and gives a counterexample to replay.
  const std::vector<z3::expr> goals = goal_facts(hypothesis_end, a.steps.size());
  z3::model model(ctx);
  std::string why;
  o.verdict = run({print_shape(shape) + ".P5", given && facts && !all_of(ctx, goals)}, o.ms, &model,
                  why);
  if (o.verdict == Verdict::kProved) o.detail += "proved by the whole query";
  if (o.verdict == Verdict::kUnknown) o.detail += "whole query: " + why;
  if (o.verdict != Verdict::kRefuted) return o;

  // Replay on __int128: the shape must validate, and some step must escape.
  Counterexample c;
  try {
    c.dims = model_ints(model, d);
    c.elements.push_back(model_ints(model, e));
    c.positions.push_back(model_int(model, p));
  } catch (const ModelTooLarge&) {
    o.verdict = Verdict::kUnknown;
    o.detail = "Z3 found a model with values outside int64; not replayed";
    return o;
  }
  ShapeWithLayout concrete = shape;
  concrete.dims = c.dims;
  std::optional<std::string> escape;
  try {
    using R = Recording<Int128Domain>;
    const auto dims = as_values<R>(c.dims), element = as_values<R>(c.elements[0]);
    R validated;
    validation.concrete(validated, dims, layout, bits);
    if (first_escape(validated.steps)) throw Error("validation rejects the model");
    auto check = [&](const std::string& what, const std::function<void(R&)>& compute) {
      if (escape) return;
      R r;
      compute(r);
      if (auto why = first_escape(r.steps)) escape = what + ": " + *why;
    };
    if (in_box(c.elements[0], c.dims)) {
      check("linear_index_with_tile of element " + tuple(c.elements[0]),
            [&](R& r) { spec::linear_index_with_tile(r, dims, layout, element); });
      if (impl_program) {
        check("the impl's index program on element " + tuple(c.elements[0]),
              [&](R& r) { evaluate_program(r, *impl_program, element); });
      }
    }
    Int128Domain plain;
    const __int128 n = spec::product(plain, spec::level_bounds(plain, dims, layout).back());
    if (c.positions[0] >= 0 && c.positions[0] < n) {
      check("delinearize of position " + std::to_string(c.positions[0]),
            [&](R& r) { spec::delinearize(r, dims, layout, static_cast<__int128>(c.positions[0])); });
    }
    check("byte size (" + bytes.name + ")", [&](R& r) {
      bytes.concrete(r, spec::padded_element_count(plain, dims, layout), bits);
    });
  } catch (const Error&) {
    escape.reset();  // validation rejects the model: not a counterexample
  }
  if (!escape) {
    o.verdict = Verdict::kUnknown;
    o.detail = "Z3 found a model that the __int128 replay does not confirm (dims " +
               tuple(c.dims) + ")";
    return o;
  }
  c.explanation = "the shape passes validation (" + validation.name + "), but " + *escape;
  o.counterexample = c;
  return o;
}

std::vector<Outcome> Prover::prove_symbolic_tile(size_t rank) {
  const MappingOps<Z3Domain>& ops = mapping_.symbolic;
  const Outcome radix = mixed_radix(2 * rank);
  const std::string label = "symbolic-tile-rank" + std::to_string(rank);
  std::vector<Outcome> results;
  for (const LevelObligation& sp : kLevelObligations) {
    Outcome o{sp.name, sp.title, radix.verdict, 0, radix.detail, std::nullopt};
    z3::context ctx;
    Z3Domain a(ctx);
    const auto t0 = Clock::now();
    spec::TileSizes<Z3Domain> tile;
    z3::expr hyp = ctx.bool_val(true);
    for (size_t i = 0; i < rank; ++i) {
      tile.push_back(a.fresh("t" + std::to_string(i)));
      hyp = hyp && *tile.back() >= 1;
    }
    size_t rank_after = 0;
    const z3::expr violation =
        level_lemma_violation(a, ops, tile, hyp, rank, sp.facts, rank_after, mapping_.is_spec);
    o.ms += ms_since(t0);
    std::string detail;
    const Verdict v = run({label + "." + sp.name + ".level1", violation}, o.ms, nullptr, detail);
    if (v != Verdict::kProved && o.detail.empty()) {
      o.detail = v == Verdict::kRefuted ? "the level lemma has a counterexample" : detail;
    }
    o.verdict = worst(o.verdict, v);
    results.push_back(o);
  }
  return results;
}

}  // namespace tilecheck::proofs
