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

}  // namespace tilecheck::proofs
