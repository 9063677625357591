// A conformance run: the phases of conformance/phases.h in order, each
// layout's cases asked of every operation the implementation offers.
#include "conformance/runner.h"

#include "conformance/phases.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::conformance {

ConformanceReport run(ImplUnderTest& impl, const std::vector<ShapeWithLayout>& given,
                      const check::GateOptions& options, const RunRules& rules) {
  ConformanceReport report = empty_report(impl, options, rules);
  Checker checker(impl, options);
  const VisitLayout ask_every_operation = [&](const OriginLayout& layout) {
    // Never sent: the implementation does not claim this kind of layout.
    if (impl.unclaimed(layout.shape)) {
      ++report.unclaimed_layouts;
      return;
    }
    for (FunctionReport& fr : report.functions) {
      if (!fr.exported) continue;
      if (layout.index_only && is_buffer_function(fr.function)) continue;
      if (fr.function == ImplFunction::kLinearIndex && spec::element_count(layout.shape) == 0)
        continue;
      ask(impl, checker, options, rules, report, fr, layout.origin, layout.shape, OnFailure::kShrink);
    }
  };
  if (!given.empty()) {  // --layout: those alone
    given_phase(given, report, ask_every_operation);
    return report;
  }
  const LayoutStream& stream = rules.stream;
  catalogue_phase(stream, report, ask_every_operation);
  if (stream.reach_set) reach_set_phase(stream, report, ask_every_operation);
  if (stream.size_set) size_set_phase(options, stream, report, ask_every_operation);
  generated_phase(options, stream, report, ask_every_operation);
  return report;
}

}  // namespace tilecheck::conformance
