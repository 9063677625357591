// The phases of a conformance run, one file each; runner.cc puts them in
// order (run) and replay.cc asks replay files' sequences (replay):
//   catalogue.cc  the given layouts (--layout), or else the catalogue
//   reach_set.cc  the reach set, then the size set
//   generated.cc  the generated layouts of the profile
//   ask.cc        each layout's case per operation, asked and recorded
//   shrink.cc     a case's failure asked alone, shrunk, or its earlier
//                 requests found
// What a case asks and how its answer is judged is checker.h.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "check/gate.h"
#include "conformance/checker.h"
#include "conformance/impl_under_test.h"
#include "conformance/report.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {

// A layout of the run and where it came from, as a failure's report says.
struct OriginLayout {
  std::string origin;
  ShapeWithLayout shape;
  // For the index operations only: the reach set's shapes past 2^31
  // positions, whose buffers no run sends (pack, unpack and relayout are
  // not cases of them at all).
  bool index_only = false;
};
using VisitLayout = std::function<void(const OriginLayout&)>;

// The layout phases: each calls `visit` on its layouts in order, counting
// them in `report` (and those --max-rank or --types leave out).
void given_phase(const std::vector<ShapeWithLayout>& given, ConformanceReport& report, const VisitLayout& visit);
void catalogue_phase(const LayoutStream& stream, ConformanceReport& report, const VisitLayout& visit);
void reach_set_phase(const LayoutStream& stream, ConformanceReport& report, const VisitLayout& visit);
void size_set_phase(const check::GateOptions& options, const LayoutStream& stream, ConformanceReport& report,
                    const VisitLayout& visit);
// Throws Error when no layout of the profile in 10,000 draws is one the
// narrowing keeps.
void generated_phase(const check::GateOptions& options, const LayoutStream& stream, ConformanceReport& report,
                     const VisitLayout& visit);

// A report with a row per function, before any case.
ConformanceReport empty_report(ImplUnderTest& impl, const check::GateOptions& options, const RunRules& rules);

// How a failure found by ask() is reported: `shrink` asks it alone and
// shrinks it (run); otherwise it is reported as found, after the cases
// before it in the process (replay).
enum class OnFailure { kShrink, kAsFound };

// Asks one case of `fr`'s function on `shape` and records it: the case's
// outcome, the function's counts and its first failure not listed.
void ask(ImplUnderTest& impl, Checker& checker, const check::GateOptions& options, const RunRules& rules,
         ConformanceReport& report, FunctionReport& fr, const std::string& origin, const ShapeWithLayout& shape,
         OnFailure on_failure);

// A failing case as found, or after `steps` steps of shrinking.
Shrunk shrunk(ShapeWithLayout shape, Verdict verdict, int steps = 0);

// A failure as the report gives it: asked again of a new process first.
// When it passes there, it depends on the requests before it (`earlier`,
// asked of the same process): shrinking, whose checks follow one another in
// one process, would then chase state, so it is reported as found, with the
// shortest sequence of earlier cases that makes it fail again. Otherwise it
// is shrunk, and the minimal case is asked alone again: if it passes alone
// (shrinking went astray on state), the failure as found is reported
// instead.
Shrunk shrink_alone(ImplUnderTest& impl, Checker& checker, ImplFunction f, const ShapeWithLayout& failing,
                    Verdict verdict, const std::vector<RequestCase>& earlier, const check::GateOptions& options);

}  // namespace tilecheck::conformance
