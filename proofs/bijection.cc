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
  require_modelled(shape);
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

namespace {

// The first element, row-major, that `x` and `y` (of the same concrete dims)
// put at different positions, among the first `budget` elements.
std::optional<std::vector<int64_t>> first_difference(const ShapeWithLayout& x,
                                                     const ShapeWithLayout& y, int64_t budget) {
  std::optional<std::vector<int64_t>> found;
  int64_t looked = 0;
  for_each_element(x.dims, [&](const std::vector<int64_t>& e) {
    if (spec::linear_index(x, e) != spec::linear_index(y, e)) found = e;
    return !found && ++looked < budget;
  });
  return found;
}

// A counterexample a person can read: the '?' dims made as small as they
// can be while some element still differs (greedily, each tried at 1, half
// and one less), then the first differing element in row-major order. Z3's
// model is kept where the search finds nothing smaller within its budget.
void shrink_difference(const ShapeWithLayout& x, const ShapeWithLayout& y, Counterexample& c) {
  constexpr int64_t kBudget = int64_t{1} << 16;  // elements looked at per candidate
  ShapeWithLayout cx = x, cy = y;
  const auto differs = [&](const std::vector<int64_t>& dims) -> std::optional<std::vector<int64_t>> {
    cx.dims = cy.dims = dims;
    try {
      return first_difference(cx, cy, kBudget);
    } catch (const Error&) {  // a size past int64: not a candidate
      return std::nullopt;
    }
  };
  bool progress = true;
  while (progress) {
    progress = false;
    for (size_t i = 0; i < c.dims.size() && !progress; ++i) {
      if (x.dims[i] != kSymbolicDim) continue;
      const int64_t d = c.dims[i];
      for (int64_t smaller : {int64_t{1}, d / 2, d - 1}) {
        if (smaller < 1 || smaller >= d) continue;
        std::vector<int64_t> dims = c.dims;
        dims[i] = smaller;
        if (differs(dims)) {
          c.dims = dims;
          progress = true;
          break;
        }
      }
    }
  }
  if (const auto e = differs(c.dims)) c.elements = {*e};
}

}  // namespace

Outcome Prover::equivalent(const ShapeWithLayout& x, const ShapeWithLayout& y) {
  validate_structure(x);
  validate_structure(y);
  require_modelled(x);
  require_modelled(y);
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
    shrink_difference(x, y, c);
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
      tile.push_back(a.fresh(std::string("t").append(std::to_string(i))));
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
