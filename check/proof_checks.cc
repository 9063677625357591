// The gate's `proofs` check: Z3 proofs (proofs/) of every catalogue layout
// with every dim symbolic, P5 with its own dims, and the impl's FastDiv.
#include <string>

#include "check/checks.h"
#include "proofs/obligations.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::check {

void add_proof_gate_checks(GateRegistry& registry) {
  registry.add_suite_check(
      "proofs",
      "Z3: P1-P3 and P5 for every catalogue layout with every dim symbolic, P5 with its dims; the impl's FastDiv",
      [](const GateOptions&) {
        proofs::Prover prover({10000, ""});
        int64_t proved = 0;
        std::string unknown, refuted;
        auto tally = [&](const std::string& name, const proofs::Outcome& o) {
          if (o.verdict == proofs::Verdict::kRefuted && refuted.empty()) {
            refuted = name + " " + o.name + " refuted" +
                      (o.counterexample ? ": " + o.counterexample->explanation : "");
          } else if (o.verdict == proofs::Verdict::kProved) {
            ++proved;
          } else if (o.verdict == proofs::Verdict::kUnknown) {
            unknown += (unknown.empty() ? "" : ", ") + name + " " + o.name;
          }
        };
        for (const CatalogEntry& entry : catalog()) {
          const std::string name(entry.name);
          ShapeWithLayout shape = parse_shape(entry.layout);
          // P5 with the catalogue's own dims covers the impl's index programs too.
          tally(name + " (its dims)", prover.prove_no_overflow(shape));
          for (int64_t& d : shape.dims) d = kSymbolicDim;
          for (const proofs::Outcome& o : prover.prove(shape)) tally(name, o);
          tally(name, prover.prove_no_overflow(shape));
          if (!refuted.empty()) return CheckResult::failed(refuted, proved);
        }
        for (const proofs::Outcome& o : prover.shared_lemmas()) {
          tally("lemma", o);
          if (!refuted.empty()) return CheckResult::failed(refuted, proved);
        }
        // The impl's division by constants (proofs/fast_div.cc).
        for (const proofs::Outcome& o : prover.prove_fast_div()) {
          tally("impl", o);
          if (!refuted.empty()) return CheckResult::failed(refuted, proved);
        }
        return CheckResult::passed(
            proved, std::to_string(proved) + " obligations proved" +
                        (unknown.empty() ? "" : "; unknown (timeout): " + unknown));
      });
}

}  // namespace tilecheck::check
