// `tilecheck gate --impl PATH.so [--timeout S]`: flags and printing over the
// conformance engine (conformance/runner.h says what is checked and how).
//
// Exit: 0 when every checked case passed (the table gives checked and
// skipped counts per function), 1 on a failure, 2 when the library cannot be
// loaded, does not export tilecheck_impl_linear_index, or supports none of
// the layouts.
#pragma once

#include <string>
#include <vector>

#include "cli/gate.h"

namespace CLI {
class App;
}  // namespace CLI

namespace tilecheck::cli {

struct ConformanceOptions {
  std::string impl_path;        // --impl; empty: the ordinary gate
  double timeout_seconds = 10;  // --timeout: longest wait for one answer of the child
                                // (loading the library: at least 30 s)
};

// Adds --impl and --timeout to the gate subcommand.
void add_conformance_options(CLI::App* gate, ConformanceOptions& options);

// Runs the conformance check and prints its report (table, or JSON with
// `json`). `layouts` replaces the catalogue and generated layouts when not
// empty. Throws ChecksFailed after a failure, Error for exit 2.
void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json);

}  // namespace tilecheck::cli
