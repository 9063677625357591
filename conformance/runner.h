// The conformance engine: checks another implementation of tiled layouts
// against the spec (`tilecheck gate --impl PATH.so` and `tilecheck gate
// --impl-cmd COMMAND` are its front ends).
//
// The implementation (conformance/impl_under_test.h) is a shared library
// with the functions of tilecheck/conformance_plugin.h or a program speaking
// docs/PROTOCOL.md; either runs in a process of its own. Every operation it
// offers is checked on each layout it claims, in this order:
//   1. the catalogue (tilecheck/spec/catalog.h: the document's and the TPU layouts),
//   2. the reach set (tilecheck/gen/reach.h): every element type and form of layout,
//      and index-only shapes past 2^31 and 2^32 positions,
//   3. options.property_cases layouts of the chosen profile (tilecheck/gen/profiles.h;
//      the layout recipe's make_layout with the exhaustive budget for
//      "general"), drawn from a stream seeded by options.seed, so a run is
//      deterministic;
// or only the given layouts. Per function and layout:
//   linear_index  every element (sampled above options.exhaustive_limit)
//                 against spec::linear_index; the answer for the first
//                 element decides whether the layout is supported, and a
//                 later element answered differently is a failure;
//   byte_size     against spec::byte_size;
//   delinearize   every position (sampled above options.exhaustive_limit)
//                 against spec::delinearize: the element, or padding;
//   pack          seeded random dense data against spec::pack, every byte
//                 (padding must be zero), no write outside dst, src unchanged.
// "Not supported" (a plugin's nonzero return, a command's `skipped` reply):
// the layout counts as skipped for that function. A crash, abort, exit, hang
// (the timeout) or an answer that breaks the protocol is a failure.
//
// The first failure of a function is asked again of a new process; if it
// passes there, it depends on earlier requests: it is not shrunk, and the
// report gives the shortest sequence of the cases asked before it (in the
// same process) after which it fails again in a new one. Otherwise it is
// shrunk: smaller dims, fewer dims, fewer
// tile levels and entries, no L/E/S, the default minor_to_major, smaller tile
// entries, f32 -- each candidate re-checked in the child and kept while it
// still fails -- and the report holds the minimal case with the element or
// buffer, expected vs actual, and a command reproducing it. Other functions
// go on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check/gate.h"
#include "conformance/impl_under_test.h"
#include <tilecheck/gen/profiles.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {

enum class ImplFunction { kLinearIndex, kPack, kByteSize, kDelinearize, kUnpack, kRelayout, kParse };
constexpr ImplFunction kFunctions[] = {ImplFunction::kLinearIndex, ImplFunction::kPack,
                                       ImplFunction::kByteSize,    ImplFunction::kDelinearize,
                                       ImplFunction::kUnpack,      ImplFunction::kRelayout,
                                       ImplFunction::kParse};

const char* function_name(ImplFunction f);  // "linear_index", "pack", "byte_size", ...
std::optional<ImplFunction> function_named(std::string_view name);  // the inverse, if a function has it
std::string function_names();                                       // all of them, ", "-separated
// pack, unpack and relayout: the operations that send or receive buffers.
bool is_buffer_function(ImplFunction f);
const char* case_unit(ImplFunction f);      // what one case is: "elements", "buffers", "sizes"

// Labelled values shown with a failure: what, value.
using Details = std::vector<std::pair<std::string, std::string>>;

// One function checked on one layout.
struct Verdict {
  // kNotSent: the gate did not ask (its own limit, or no case it can
  // build): neither the implementation's skip nor a failure.
  enum class Status { kPassed, kSkipped, kFailed, kNotSent };
  Status status = Status::kPassed;
  int64_t cases = 0;
  std::string problem;  // a failure in one line: "wrong index", "crashed: ..."; kNotSent: why
  Details details;
  std::string spec_command;  // a tilecheck command printing the expected value

  bool failed() const { return status == Status::kFailed; }
  static Verdict passed(int64_t cases) { return {Status::kPassed, cases, "", {}, ""}; }
  static Verdict skipped() { return {Status::kSkipped, 0, "", {}, ""}; }
  static Verdict not_sent(std::string why) { return {Status::kNotSent, 0, std::move(why), {}, ""}; }
  static Verdict failure(std::string problem, Details details = {},
                         std::string spec_command = "") {
    return {Status::kFailed, 0, std::move(problem), std::move(details), std::move(spec_command)};
  }
  static Verdict crashed(const WorkerFailure& f, Details details) {
    if (!f.output.empty()) details.emplace_back("it printed", f.output);
    return failure(f.what, std::move(details));
  }
};

// One case as a request sequence holds it: an operation on a layout. Its
// data is a function of the layout and the run's seed (the dense source of
// a pack, the physical source of an unpack, a relayout's target), so a
// case asked again is the same request.
struct RequestCase {
  ImplFunction function = ImplFunction::kLinearIndex;
  ShapeWithLayout shape;
  std::string id() const;  // "OPERATION:LAYOUT", as CaseOutcome::id
  bool operator==(const RequestCase&) const = default;
};
// "OPERATION:LAYOUT" back to a case; throws Error for an unknown operation
// or a layout that is not one.
RequestCase parse_case_id(const std::string& id);

// A failure after shrinking: the minimal layout and its verdict.
struct Shrunk {
  ShapeWithLayout shape;
  Verdict verdict;
  int steps = 0;
  bool out_of_time = false;  // stopped by --shrink-seconds: maybe not minimal
  // The case passes when asked first of a new process: the failure depends
  // on the requests before it (the implementation keeps state), so the
  // reproduce line, which asks it alone, may pass.
  bool depends_on_earlier_requests = false;
  // With depends_on_earlier_requests: the shortest sequence of earlier cases
  // found after which, asked in a new process, the case fails again
  // (earlier_found; false when none was found within --shrink-seconds).
  std::vector<RequestCase> earlier;
  bool earlier_found = false;
  // The request sequence that shows the failure in a new process: the
  // earlier cases, then the case itself.
  std::vector<RequestCase> sequence(ImplFunction f) const;
};

struct FailureReport {
  std::string origin;  // where the failing layout came from
  std::string original_layout;
  Shrunk minimal;
  std::string reproduce;
};

// One case: an operation on one layout, and how it went. Its id,
// "OPERATION:LAYOUT" (e.g. "pack:f32[3,5]{1,0:T(2,2)}"), is stable for a
// given seed and is what --skip patterns match.
struct CaseOutcome {
  // kNotSent: the gate did not send it (Verdict::Status::kNotSent).
  enum class Status { kPassed, kSkipped, kFailed, kNotRun, kNotSent };
  ImplFunction function = ImplFunction::kLinearIndex;
  std::string layout;
  ElementType type = ElementType::kF32;
  Status status = Status::kPassed;
  bool listed = false;  // matched by a --skip pattern: a known gap
  std::string problem;  // kFailed: the failure in one line; kNotSent: why
  std::string id() const;
};
const char* status_name(CaseOutcome::Status s);  // "passed", "skipped", "failed", "not run", "not sent"

// Known gaps, stated up front: cases whose failure or skip does not fail
// the gate (--skip PATTERN, --skip-file FILE). A pattern matches a case id
// equal to it, or one it matches as a shell glob (fnmatch: *, ?, [..]).
struct KnownGaps {
  std::vector<std::string> patterns;
  bool must_fail = false;  // --skips-must-fail: a listed case that passes fails the gate
  bool matches(const std::string& id) const;
};

// Which layouts the run draws after the catalogue (--profile), and which
// of them all it keeps (--max-rank, --types; both narrow the catalogue too).
struct LayoutStream {
  gen::Profile profile = gen::Profile::kGeneral;
  int64_t max_rank = -1;              // -1: any
  std::vector<ElementType> types;     // empty: any
  bool reach_set = true;              // --no-reach-set: false
  bool size_set = true;               // --no-size-set: false
  bool keeps(const ShapeWithLayout& shape) const;
};

// The size set's layouts (gen::size_layouts, tilecheck/gen/reach.h) whose
// dense and physical buffers are all within `max_array_bytes`: the ones a
// run sends. `over_limit`, when given, counts the others.
std::vector<ShapeWithLayout> size_set_within(int64_t max_array_bytes, int64_t* over_limit = nullptr);

// What the run must show besides the checks passing.
struct RunRules {
  KnownGaps gaps;
  std::vector<ImplFunction> required;  // --require: offered and answered on some layout
  LayoutStream stream;
};

struct FunctionReport {
  ImplFunction function = ImplFunction::kLinearIndex;
  bool exported = false;
  int64_t layouts_checked = 0, layouts_skipped = 0, layouts_failed = 0, cases = 0;
  int64_t layouts_not_sent = 0;  // the gate's own limits (CaseOutcome::Status::kNotSent)
  bool stopped = false;  // a hang: its remaining layouts were not run
  std::optional<FailureReport> failure;  // the first failure not listed, shrunk

  std::string result() const {
    if (!exported) return "not exported";
    if (failure) return "FAILED";
    return layouts_checked ? "passed" : "skipped";
  }
};

struct ConformanceReport {
  std::string impl;  // ImplUnderTest::description()
  ImplExports exports;
  int64_t catalogue_layouts = 0, generated_layouts = 0, given_layouts = 0;
  int64_t reach_layouts = 0;  // the reach set (tilecheck/gen/reach.h), after the catalogue
  int64_t size_layouts = 0;   // the size set (tilecheck/gen/reach.h), after the reach set
  int64_t size_over_limit = 0;  // the size set's layouts past --max-array-bytes, not sent
  int64_t max_array_bytes = 0;  // GateOptions::max_array_bytes of the run
  int64_t replayed_sequences = 0;  // replay(): the request sequences asked
  std::string gate_flag;  // ImplUnderTest::gate_flag(), for commands in the report
  // Layouts the implementation does not claim (ImplUnderTest::unclaimed):
  // counted among the above, never sent.
  int64_t unclaimed_layouts = 0;
  // Catalogue layouts left out by --max-rank or --types (not counted above).
  int64_t narrowed_layouts = 0;
  uint64_t seed = 0;
  std::vector<FunctionReport> functions;
  std::vector<CaseOutcome> cases;  // every case sent, in order
  RunRules rules;
  bool padding_any = false;  // --padding any: padding contents not compared

  // Some operation answered on at least one layout.
  // Whether some case got a verdict: it passed or it failed. False when the
  // implementation answered "not supported" to everything it was asked.
  bool checked_anything() const {
    return std::any_of(functions.begin(), functions.end(), [](const FunctionReport& f) {
      return f.layouts_checked > 0 || f.layouts_failed > 0;
    });
  }
  // The cases with `status`, listed or not.
  std::vector<const CaseOutcome*> cases_with(CaseOutcome::Status status, bool listed) const;
  // The operations --require names that were not offered or never answered.
  std::vector<ImplFunction> missing_required() const;
  // What fails the gate, in words ("pack", "3 cases skipped although
  // claimed", ...); empty when it passes.
  std::vector<std::string> failures() const;
  bool ok() const { return failures().empty(); }
};

// Runs the check of `impl`.
ConformanceReport run(ImplUnderTest& impl, const std::vector<ShapeWithLayout>& given,
                      const check::GateOptions& options, const RunRules& rules = {});

// Asks each sequence's cases in order of one new process (`tilecheck gate
// --replay FILE`), checking every answer as run() does; a failure is
// reported as found, with the cases asked before it in its sequence, and is
// neither asked alone nor shrunk.
ConformanceReport replay(ImplUnderTest& impl, const std::vector<std::vector<RequestCase>>& sequences,
                         const check::GateOptions& options, const RunRules& rules = {});

}  // namespace tilecheck::conformance
