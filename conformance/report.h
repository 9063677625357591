// The conformance report: what a run of the gate over another
// implementation found (the data model the runner fills in,
// conformance/runner.h), and its renderings -- the text report, the JSON
// report (`report_version` 1, a contract: docs/GATE.md), JUnit XML, the
// skips file and the coverage table -- which `tilecheck gate --impl` and
// `tilecheck.gate()` in Python print alike.
//
// The model's functions are in report.cc with the JSON report and the skips
// file; the text report and the coverage table in report_text.cc, JUnit XML
// in report_junit.cc.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// Counts of cases per operation and element type, operation by operation
// in the order of kFunctions.
struct TypeCounts {
  std::string function, type;
  std::map<CaseOutcome::Status, int64_t> count;
};
std::vector<TypeCounts> counts_by_type(const ConformanceReport& r);

// Whether `exports` offers `f`.
bool offers(const ImplExports& exports, ImplFunction f);

// The text report: the layouts sent, a row per operation, the cases skipped
// or failed by element type, the known gaps, each failure's minimal case and
// how to reproduce it, the verdict; with `with_coverage` the coverage table
// (print_coverage) before the verdict.
void print_text_report(std::ostream& out, const ConformanceReport& r, bool with_coverage);
// The JSON report, indented, on one document ending in a newline: the same
// facts for a program ("report_version": 1); with `with_coverage` a
// "coverage" object.
void print_json_report(std::ostream& out, const ConformanceReport& r, bool with_coverage);
// The coverage table: per form and dim order, per width class, the letters
// of the operations that answered a case there, and the holes.
void print_coverage(std::ostream& out, const ConformanceReport& r);
// JUnit XML: one test suite per operation, one test case per case id.
void print_junit(std::ostream& out, const ConformanceReport& r);
// The skips file: the ids of the cases that failed or were skipped, one a
// line, as --skip-file reads them.
void print_skips(std::ostream& out, const ConformanceReport& r);

}  // namespace tilecheck::conformance
