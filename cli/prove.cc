// tilecheck prove LAYOUT | --catalog, tilecheck equiv A B: the Z3 proofs of
// proofs/ (the logic and the output are proofs/prove_command.h; this file only
// parses flags), and the gate's suite check running the catalogue proofs.
//
// Exit codes as issue 6 specifies: 0 proved, 1 refuted, 2 bad input,
// 3 unknown (timeout). run_main knows 0-2 only, so a non-zero status is
// returned with std::exit after flushing the output.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/gate.h"
#include "proofs/obligations.h"
#include "proofs/prove_command.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {

namespace {

[[noreturn]] void exit_with(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::exit(status);
}

void add_proof_flags(CLI::App* command, bool& json, std::string& smt2_dir, unsigned& timeout_ms) {
  add_json_flag(command, json);
  command->add_option("--smt2", smt2_dir, "write every Z3 query as SMT-LIB2 into this directory");
  command->add_option("--timeout", timeout_ms, "time limit per Z3 query, in ms")
      ->capture_default_str();
}

}  // namespace

void add_prove_command(CLI::App& app) {
  auto args = std::make_shared<proofs::ProveOptions>();
  CLI::App* command = app.add_subcommand(
      "prove", "prove P1-P3 (injective, in range, onto non-padding) and P5 (no int64 overflow) for "
      "symbolic dims ('?'), P4 (impl = spec) for concrete dims");
  command->add_option("LAYOUT", args->layout, "the layout; dims may be '?'");
  command->add_flag("--catalog", args->catalog, "every catalogue layout, every dim '?'");
  add_proof_flags(command, args->json, args->smt2_dir, args->timeout_ms);
  command->callback([args] {
    const int status = proofs::run_prove(*args, std::cout, std::cerr);
    if (status != 0) exit_with(status);
  });
}

void add_equiv_command(CLI::App& app) {
  auto args = std::make_shared<proofs::EquivOptions>();
  CLI::App* command = app.add_subcommand(
      "equiv", "prove two layouts of the same dims put every element at the same position");
  command->add_option("A", args->first, "first layout; dims may be '?'")->required();
  command->add_option("B", args->second, "second layout; '?' dims shared by position")->required();
  add_proof_flags(command, args->json, args->smt2_dir, args->timeout_ms);
  command->callback([args] {
    const int status = proofs::run_equiv(*args, std::cout, std::cerr);
    if (status != 0) exit_with(status);
  });
}

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

}  // namespace tilecheck::cli
