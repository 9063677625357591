// The gate: named checks run over a list of layouts (by default the shared
// catalogue, tilecheck/spec/catalog.h), with a table and a pass/fail exit code.
//
// Two kinds of checks:
//   a layout check   run(shape, options) -> CheckResult, once per layout;
//   a suite check    run(options) -> CheckResult, once per gate run (for work
//                    that is not per layout, e.g. a property or proof suite).
// A check reports ok/failed/skipped, a one-line detail (for a failure: the
// first counterexample) and how many cases it checked. A check that throws
// fails with the exception's message.
//
// Adding checks: write `void add_<area>_gate_checks(GateRegistry&)` in your
// own file and call it from standard_gate() in cli/gate_registry.cc (one line).
// Reusable check bodies (bijection, two index functions agreeing, pack
// round trip) are in check/checks.h. Running and the report model are here;
// printing a report is check/gate_report.h.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::check {

struct CheckResult {
  enum class Status { kPassed, kFailed, kSkipped };
  Status status = Status::kPassed;
  std::string detail;   // the first counterexample, what was sampled, or why skipped
  int64_t checked = 0;  // cases checked (elements, positions, bytes, ...)

  bool ok() const { return status != Status::kFailed; }
  static CheckResult passed(int64_t checked, std::string detail = "");
  static CheckResult failed(std::string detail, int64_t checked = 0);
  static CheckResult skipped(std::string reason);
};

// Sizes that bound the gate's work; part of every check's input so that the
// same check is exhaustive on small layouts and sampled on large ones.
struct GateOptions {
  int64_t exhaustive_limit = int64_t{1} << 16;  // positions/elements checked one by one up to this
  int64_t samples = 4096;                       // random elements/positions above it
  int64_t pack_limit = int64_t{1} << 20;        // largest element count pack/unpack runs on
  // With --impl/--impl-cmd: the largest buffer, dense or physical, the gate
  // sends or asks for (--max-array-bytes). A pack, unpack or relayout past
  // it is "not sent: gate limit", never the implementation's skip. 2 MiB:
  // the size set's layouts past 2^20 elements of every type up to 8 bits
  // wide (a dense buffer holds one element per byte) are within it.
  int64_t max_array_bytes = int64_t{2} << 20;
  // With --impl/--impl-cmd: the time the shrinker of a failure may take
  // (--shrink-seconds); past it the smallest failing case so far is reported.
  double shrink_seconds = 5;
  uint64_t seed = 1;                            // the sampling seed (deterministic)
  int64_t property_cases = 100;                 // RapidCheck cases per property (--cases)
  // The byte size an implementation under test must report: tilecheck's
  // exact size, or XLA's ShapeUtil::ArraySize (--size-model, docs/SIZES.md).
  enum class SizeModel { kExact, kXla };
  SizeModel size_model = SizeModel::kExact;
  // Whether an implementation under test must write zero padding (D8), or
  // may leave it undefined (--padding any: only the elements are compared).
  enum class Padding { kZero, kAny };
  Padding padding = Padding::kZero;
};

using LayoutCheckFn = std::function<CheckResult(const ShapeWithLayout&, const GateOptions&)>;
using SuiteCheckFn = std::function<CheckResult(const GateOptions&)>;

struct LayoutCheck {
  std::string name;  // short, [a-z0-9_], unique in the registry
  std::string what;  // one line for --list
  LayoutCheckFn run;
};

struct SuiteCheck {
  std::string name;
  std::string what;
  SuiteCheckFn run;
};

class GateRegistry {
 public:
  void add_layout_check(std::string name, std::string what, LayoutCheckFn run);
  void add_suite_check(std::string name, std::string what, SuiteCheckFn run);
  const std::vector<LayoutCheck>& layout_checks() const { return layout_checks_; }
  const std::vector<SuiteCheck>& suite_checks() const { return suite_checks_; }
  // The registry restricted to the named checks, in registration order.
  // Throws Error naming any name that is not registered.
  GateRegistry only(const std::vector<std::string>& names) const;

 private:
  void require_new_name(const std::string& name) const;
  std::vector<LayoutCheck> layout_checks_;
  std::vector<SuiteCheck> suite_checks_;
};

// --- running (check/gate.cc) ---

struct GateLayout {
  std::string name;  // catalogue name, or empty for a layout given on the command line
  ShapeWithLayout shape;
};

struct CheckOutcome {
  std::string check;
  CheckResult result;
  double seconds = 0;
};

struct LayoutOutcome {
  GateLayout layout;
  std::vector<CheckOutcome> checks;
  double seconds = 0;
};

struct GateReport {
  std::vector<LayoutOutcome> layouts;
  std::vector<CheckOutcome> suite;
  int64_t checks = 0, passed = 0, failed = 0, skipped = 0;
  bool ok() const { return failed == 0; }
};

// The catalogue's layouts, parsed. An entry that does not parse is a bug in
// the catalogue and throws Error.
std::vector<GateLayout> catalog_layouts();

GateReport run_gate(const GateRegistry& registry, const std::vector<GateLayout>& layouts,
                    const GateOptions& options);

// The summary line "gate: N layouts, C checks, P passed, F failed".
std::string gate_summary_line(const GateReport& report);

// "1,2,3" and "(1,2,3)": how checks show elements and dims in their details.

}  // namespace tilecheck::check
