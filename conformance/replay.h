// Replay files: request sequences that show a failure in a new process
// (`tilecheck gate --impl-cmd ... --write-replay FILE` writes them,
// `--replay FILE` asks them again; docs/PROTOCOL.md, "Replay files").
//
// JSON Lines. The first line holds what makes the cases' data the same as
// in the run that wrote it; each further line is one case, in order, with
// the number of its sequence; each sequence is asked of a new process:
//   {"tilecheck_replay": 1, "seed": 1, "padding": "zero", "size_model": "exact"}
//   {"sequence": 1, "case": "byte_size:f32[3,5]{1,0:T(2,2)}"}
//   {"sequence": 1, "case": "byte_size:f32[3,5]{0,1}", "failed": "wrong byte size"}
// "failed" (the problem the writing run saw) is for the reader; replaying
// judges every answer afresh.
#pragma once

#include <string>
#include <vector>

#include "check/gate.h"
#include "conformance/runner.h"

namespace tilecheck::conformance {

struct ReplayFile {
  uint64_t seed = 1;
  check::GateOptions::Padding padding = check::GateOptions::Padding::kZero;
  check::GateOptions::SizeModel size_model = check::GateOptions::SizeModel::kExact;
  std::vector<std::vector<RequestCase>> sequences;
};

// The sequence of every failure `report` gives: the case alone, or after
// the earlier cases it depends on. Throws Error when the file cannot be
// written.
void write_replay(const std::string& path, const ConformanceReport& report, const check::GateOptions& options);

// Throws Error, naming the line, when the file cannot be read or a line is
// not what the format says.
ReplayFile read_replay(const std::string& path);

}  // namespace tilecheck::conformance
