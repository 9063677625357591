// `tilecheck gate --impl PATH.so` and `tilecheck gate --impl-cmd 'COMMAND'`
// [--timeout S]: flags and printing over the conformance engine
// (conformance/gate_run.h runs it, conformance/runner.h says what is checked
// and how, conformance/report.h renders the report).
//
// Exit: 0 when every checked case passed (the table gives checked and
// skipped counts per function), 1 on a failure, 2 when the library cannot be
// loaded or does not export tilecheck_impl_linear_index, the command does
// not answer `start` as docs/PROTOCOL.md says, or the implementation
// supports none of the layouts.
#pragma once

#include <string>
#include <vector>

#include "cli/gate.h"
#include "conformance/gate_run.h"

namespace CLI {
class App;
}  // namespace CLI

namespace tilecheck::cli {

struct ConformanceOptions {
  conformance::GateRun run;  // --impl or --impl-cmd (both empty: the ordinary gate) and the run's flags
  std::string write_skips;   // --write-skips
  std::string junit;         // --junit
  bool coverage = false;     // --coverage
};

// Adds --impl, --impl-cmd and the flags of a run over an implementation to
// the gate subcommand.
void add_conformance_options(CLI::App* gate, ConformanceOptions& options);

// Whether --impl or --impl-cmd was given.
inline bool checks_an_implementation(const ConformanceOptions& o) {
  return !o.run.impl_path.empty() || !o.run.impl_command.empty();
}

// Runs the conformance check and prints its report (table, or JSON with
// `json`). `layouts` replaces the catalogue and generated layouts when not
// empty. Throws ChecksFailed after a failure, Error for exit 2.
void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json);

}  // namespace tilecheck::cli
