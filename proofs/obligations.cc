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

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kProved: return "proved";
    case Verdict::kRefuted: return "refuted";
    case Verdict::kUnknown: return "unknown";
  }
  return "unknown";
}

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

std::vector<Outcome> Prover::prove_layout(const ShapeWithLayout& shape) {
  std::vector<Outcome> outcomes = prove(shape);
  outcomes.push_back(prove_no_overflow(shape));
  // P4 needs concrete dims (the impl compiles a plan for one shape) that
  // spec and impl both accept; P5 has reported a shape they disagree on.
  const bool acceptance_differs =
      outcomes.back().counterexample && outcomes.back().counterexample->elements.empty();
  if (!shape.has_symbolic_dims() && !acceptance_differs) outcomes.push_back(prove_impl_agrees(shape));
  return outcomes;
}

}  // namespace tilecheck::proofs
