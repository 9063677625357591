// A run of the gate over another implementation as its front ends ask for
// it: the flags of `tilecheck gate --impl PATH.so | --impl-cmd COMMAND`
// (cli/conformance.cc) and the arguments of `tilecheck.gate()` in Python
// (python/bindings.cc) as one description, and the run it asks for: the
// implementation started in a process of its own, the runner's phases or a
// replay file's sequences, the replay file written after a failure. The
// report's renderings are conformance/report.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/gate.h"
#include "conformance/report.h"

namespace tilecheck::conformance {

struct GateRun {
  std::string impl_path;     // --impl: a shared library (tilecheck/conformance_plugin.h)
  std::string impl_command;  // --impl-cmd: a shell command speaking docs/PROTOCOL.md
  std::vector<std::string> layouts;        // --layout: these instead of the phases
  std::vector<std::string> skip_patterns;  // --skip
  std::string skip_file;                   // --skip-file
  bool skips_must_fail = false;            // --skips-must-fail
  std::vector<std::string> required;       // --require
  check::GateOptions::Padding padding = check::GateOptions::Padding::kZero;  // --padding
  std::string profile = "general";  // --profile (tilecheck/gen/profiles.h)
  int64_t max_rank = -1;            // --max-rank; -1: any
  std::vector<std::string> types;   // --types
  std::vector<std::string> limits;  // --limit KEY=VALUE
  std::string max_array_bytes = "2M";  // --max-array-bytes (K/M/G suffixes)
  double shrink_seconds = 5;            // --shrink-seconds
  bool no_reach_set = false;            // --no-reach-set
  bool no_size_set = false;             // --no-size-set
  std::string write_replay;             // --write-replay FILE
  std::string replay;                   // --replay FILE
  double timeout_seconds = 10;  // --timeout: longest wait for one answer of the child
                                // (loading the library: at least 30 s)
};

// Bad input: a layout, a skip or replay file, a limit or a name the run
// cannot take. Thrown before the implementation is started.
struct GateInputError : Error {
  using Error::Error;
};

// Runs the gate as `run` asks, with `options` (--seed, --cases, --samples,
// --exhaustive-limit, --size-model) under its own. Throws GateInputError for
// bad input, Error when the implementation cannot be checked at all (the
// library does not load or exports nothing, the command does not answer
// `start`), the report otherwise.
ConformanceReport run_gate(const GateRun& run, const check::GateOptions& options);

// Why nothing was checked: the implementation answered "not supported" to
// every layout it was asked about; nullopt when something was checked.
std::optional<std::string> nothing_checked(const ConformanceReport& report);

}  // namespace tilecheck::conformance
