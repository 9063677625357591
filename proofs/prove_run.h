// A run of the proofs as `tilecheck prove` and `tilecheck equiv` make it,
// over the Prover (proofs/obligations.h): which obligations to ask, and
// printing their outcomes, as functions that tests call directly;
// cli/prove.cc parses the flags.
//
//   tilecheck prove LAYOUT       P1-P3 for LAYOUT (dims may be `?`)
//   tilecheck prove --catalog    P1-P3 for every catalogue layout, every dim `?`
//   tilecheck equiv A B          A and B put every element at the same position
//
// Output: one line per obligation, `NAME TITLE: proved|refuted|unknown (T ms)`,
// a refuted obligation followed by its counterexample (concrete dims and the
// elements / position, replayed on the int64 spec before printing).
// --json prints {"layout": ..., "obligations": [{"name", "result", "ms"}...]}.
// Exit status: 0 all proved, 1 some refuted, 3 some unknown (timeout) and
// none refuted, 2 bad input.
#pragma once

#include <iosfwd>
#include <string>


namespace tilecheck::proofs {

struct ProveOptions {
  std::string layout;       // empty with catalog
  bool catalog = false;
  bool json = false;
  std::string smt2_dir;     // write every query there as SMT-LIB2
  unsigned timeout_ms = 10000;
};

struct EquivOptions {
  std::string first, second;
  bool json = false;
  std::string smt2_dir;
  unsigned timeout_ms = 10000;
  bool any_types = false;  // compare layouts of different element types (with a warning)
};

// What a run ends in: the command's exit status (0-2 as every tilecheck
// command's, cli/common.h).
enum ProveStatus : int {
  kAllProved = 0,
  kSomeRefuted = 1,
  kBadInput = 2,
  kSomeUnknown = 3,  // some unknown (timeout), none refuted
};

int run_prove(const ProveOptions& options, std::ostream& out, std::ostream& err);
int run_equiv(const EquivOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecheck::proofs
