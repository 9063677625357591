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
  require_modelled(shape);
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

}  // namespace tilecheck::proofs
