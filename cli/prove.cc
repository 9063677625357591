// tilecheck prove LAYOUT | --catalog, tilecheck equiv A B: the Z3 proofs of
// proofs/ (what to prove and the output are proofs/prove_run.h; this file
// only parses flags). The gate's suite check running the catalogue proofs is
// check/proof_checks.cc.
//
// Exit codes: 0 proved, 1 refuted, 2 bad input,
// 3 unknown (timeout). run_main knows 0-2 only, so a non-zero status is
// returned with std::exit after flushing the output.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "proofs/prove_run.h"
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
  command->add_flag("--any-types", args->any_types,
                    "compare layouts of different element types (their positions, not their bytes)");
  add_proof_flags(command, args->json, args->smt2_dir, args->timeout_ms);
  command->callback([args] {
    const int status = proofs::run_equiv(*args, std::cout, std::cerr);
    if (status != 0) exit_with(status);
  });
}

}  // namespace tilecheck::cli
