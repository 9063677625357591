// `tilecheck gate --impl PATH.so` and `tilecheck gate --impl-cmd 'COMMAND'`
// [--timeout S]: flags and printing over the conformance engine
// (conformance/runner.h says what is checked and how).
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

namespace CLI {
class App;
}  // namespace CLI

namespace tilecheck::cli {

struct ConformanceOptions {
  std::string impl_path;        // --impl
  std::string impl_command;     // --impl-cmd; both empty: the ordinary gate
  std::vector<std::string> skip_patterns;  // --skip
  std::string skip_file;                   // --skip-file
  std::string write_skips;                 // --write-skips
  std::string junit;                       // --junit
  bool skips_must_fail = false;            // --skips-must-fail
  std::vector<std::string> required;       // --require
  GateOptions::Padding padding = GateOptions::Padding::kZero;  // --padding
  std::string profile = "general";  // --profile (tilecheck/gen/profiles.h)
  int64_t max_rank = -1;            // --max-rank; -1: any
  std::vector<std::string> types;   // --types
  std::vector<std::string> limits;  // --limit KEY=VALUE
  std::string max_array_bytes = "2M";  // --max-array-bytes (K/M/G suffixes)
  double shrink_seconds = 5;            // --shrink-seconds
  bool coverage = false;                // --coverage
  bool no_reach_set = false;            // --no-reach-set
  bool no_size_set = false;             // --no-size-set
  std::string write_replay;             // --write-replay FILE
  std::string replay;                   // --replay FILE
  double timeout_seconds = 10;  // --timeout: longest wait for one answer of the child
                                // (loading the library: at least 30 s)
};

// Adds --impl, --impl-cmd and --timeout to the gate subcommand.
void add_conformance_options(CLI::App* gate, ConformanceOptions& options);

// Runs the conformance check and prints its report (table, or JSON with
// `json`). `layouts` replaces the catalogue and generated layouts when not
// empty. Throws ChecksFailed after a failure, Error for exit 2.
// Whether --impl or --impl-cmd was given.
inline bool checks_an_implementation(const ConformanceOptions& o) {
  return !o.impl_path.empty() || !o.impl_command.empty();
}

void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json);

}  // namespace tilecheck::cli
