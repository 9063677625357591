// The text report and the coverage table (conformance/report.h).
#include <iomanip>
#include <map>
#include <ostream>

#include "conformance/coverage.h"
#include "conformance/report.h"

namespace tilecheck::conformance {

using Status = CaseOutcome::Status;

namespace {

std::string layouts_line(const ConformanceReport& r) {
  if (r.replayed_sequences) {
    return std::to_string(r.replayed_sequences) + " request sequence" + (r.replayed_sequences == 1 ? "" : "s") +
           " from --replay, each asked of a new process (seed " + std::to_string(r.seed) + ")";
  }
  if (r.given_layouts) return std::to_string(r.given_layouts) + " given with --layout";
  const LayoutStream& stream = r.rules.stream;
  const std::string profile = stream.profile == gen::Profile::kGeneral
                                  ? ""
                                  : "profile " + std::string(gen::profile_name(stream.profile)) + ", ";
  return std::to_string(r.catalogue_layouts) + " from the catalogue, " + std::to_string(r.reach_layouts) +
         " from the reach set" +
         (stream.size_set ? ", " + std::to_string(r.size_layouts) + " at size" +
                                (r.size_over_limit ? " (" + std::to_string(r.size_over_limit) +
                                                         " more past --max-array-bytes)"
                                                   : std::string())
                          : std::string()) +
         (r.narrowed_layouts ? " (" + std::to_string(r.narrowed_layouts) +
                                   " more left out by --max-rank or --types)"
                             : std::string()) +
         ", then " + std::to_string(r.generated_layouts) + " generated (" + profile + "seed " +
         std::to_string(r.seed) + ")";
}

// Skips and failures by operation and element type, the cases skipped
// although claimed, and the known gaps (--skip) and how they went.
void print_case_summary(std::ostream& out, const ConformanceReport& r) {
  bool header = false;
  for (const TypeCounts& k : counts_by_type(r)) {
    const auto n = [&](Status s) {
      const auto it = k.count.find(s);
      return it == k.count.end() ? int64_t{0} : it->second;
    };
    if (n(Status::kSkipped) + n(Status::kFailed) + n(Status::kNotRun) + n(Status::kNotSent) == 0) continue;
    if (!header) {
      out << "\nby element type, where cases were skipped or failed:\n"
          << "  " << std::setw(14) << "function" << std::setw(12) << "type" << std::setw(9)
          << "passed" << std::setw(9) << "skipped" << std::setw(8) << "failed" << std::setw(9)
          << "not run" << "not sent\n";
      header = true;
    }
    out << "  " << std::setw(14) << k.function << std::setw(12) << k.type << std::setw(9)
        << n(Status::kPassed) << std::setw(9) << n(Status::kSkipped) << std::setw(8)
        << n(Status::kFailed) << std::setw(9) << n(Status::kNotRun) << n(Status::kNotSent) << "\n";
  }
  const auto list = [&](const std::vector<const CaseOutcome*>& cases, const std::string& what) {
    if (cases.empty()) return;
    out << "\n" << what << ": " << cases.size() << " case" << (cases.size() == 1 ? "" : "s")
        << "\n";
    constexpr size_t kShown = 5;
    for (size_t i = 0; i < cases.size() && i < kShown; ++i) out << "  " << cases[i]->id() << "\n";
    if (cases.size() > kShown) out << "  ... and " << cases.size() - kShown << " more\n";
  };
  list(r.cases_with(Status::kSkipped, false),
       "skipped although claimed (this fails the gate; --skip or --skip-file accepts them "
       "as known gaps, --write-skips FILE writes them all)");
  std::vector<const CaseOutcome*> not_sent = r.cases_with(Status::kNotSent, false);
  for (const CaseOutcome* c : r.cases_with(Status::kNotSent, true)) not_sent.push_back(c);
  if (!not_sent.empty()) {
    out << "\nnot sent by the gate (its own limits, not the implementation's skips; they do not fail "
           "the gate): "
        << not_sent.size() << " case" << (not_sent.size() == 1 ? "" : "s") << "\n";
    constexpr size_t kShown = 5;
    for (size_t i = 0; i < not_sent.size() && i < kShown; ++i) {
      out << "  " << not_sent[i]->id() << "  (" << not_sent[i]->problem << ")\n";
    }
    if (not_sent.size() > kShown) out << "  ... and " << not_sent.size() - kShown << " more\n";
  }
  if (!r.rules.gaps.patterns.empty()) {
    size_t listed = 0;
    for (const CaseOutcome& c : r.cases) listed += c.listed;
    out << "\nknown gaps (--skip): " << listed << " cases matched, "
        << r.cases_with(Status::kFailed, true).size() << " failed, "
        << r.cases_with(Status::kSkipped, true).size() << " skipped, "
        << r.cases_with(Status::kPassed, true).size() << " passed\n";
    list(r.cases_with(Status::kPassed, true),
         std::string("listed as known gaps but passing") +
             (r.rules.gaps.must_fail ? " (this fails the gate: --skips-must-fail)"
                                     : " (remove them from the list)"));
  }
  const std::vector<ImplFunction> missing = r.missing_required();
  for (ImplFunction f : missing) {
    out << "\nrequired (--require) but " << (r.functions[static_cast<int>(f)].exported ? "answered on no layout" : "not offered") << ": " << function_name(f) << "\n";
  }
}

// One letter per operation in the coverage table.
char function_letter(ImplFunction f) {
  static const char letters[] = "ipbduro";  // in kFunctions order
  return letters[static_cast<int>(f)];
}

std::string cell_name(const CoverageCell& c) {
  return c.feature + ", " + c.order + " order, " + c.width + ", " + function_name(c.function);
}

}  // namespace

// --coverage: per form and dim order, per width class, the letters of the
// operations that answered a case there ('.': required, not reached; '-':
// not required).
void print_coverage(std::ostream& out, const ConformanceReport& r) {
  const Coverage cov = coverage_of(r);
  std::string legend;
  for (const FunctionReport& f : r.functions) {
    if (f.exported) legend += std::string(legend.empty() ? "" : " ") + function_letter(f.function) + "=" + function_name(f.function);
  }
  out << "\ncoverage: operations that answered a case (" << legend
      << "; '.' required but not reached, '-' not required):\n  " << std::left << std::setw(18) << "form"
      << std::setw(9) << "order";
  for (const std::string& w : coverage_width_classes()) out << std::setw(10) << w;
  out << "\n";
  for (const std::string& feature : coverage_features()) {
    for (const char* order : {"default", "other"}) {
      out << "  " << std::setw(18) << feature << std::setw(9) << order;
      for (const std::string& w : coverage_width_classes()) {
        std::string cell;
        for (const FunctionReport& f : r.functions) {
          if (!f.exported) continue;
          const CoverageCell c{feature, order, w, f.function};
          cell += cov.reached.count(c) ? function_letter(f.function) : cov.required.count(c) ? '.' : '-';
        }
        out << std::setw(10) << cell;
      }
      out << "\n";
    }
  }
  out << std::right;
  out << "holes (required, not reached): " << (cov.holes.empty() ? "none" : std::to_string(cov.holes.size())) << "\n";
  for (const CoverageCell& c : cov.holes) out << "  " << cell_name(c) << "\n";
  if (!cov.unclaimed.empty()) {
    out << "not reached because no type of the width class is claimed: " << cov.unclaimed.size() << " cells\n";
  }
}

void print_text_report(std::ostream& out, const ConformanceReport& r, bool with_coverage) {
  out << "conformance of " << r.impl << " to the spec\n"
      << "layouts: " << layouts_line(r) << "\n";
  if (r.padding_any) out << "padding: not compared (--padding any)\n";
  if (r.unclaimed_layouts) {
    out << "not claimed by the implementation (never sent): " << r.unclaimed_layouts
        << " of them\n";
  }
  out << "\n";
  out << std::left << std::setw(14) << "function" << std::setw(14) << "result" << std::setw(17)
      << "layouts checked" << std::setw(9) << "skipped" << std::setw(8) << "failed"
      << "cases checked\n";
  for (const FunctionReport& f : r.functions) {
    out << std::setw(14) << function_name(f.function);
    if (!f.exported) out << f.result();
    if (f.exported) {
      out << std::setw(14) << f.result() << std::setw(17) << f.layouts_checked << std::setw(9) << f.layouts_skipped
          << std::setw(8) << f.layouts_failed << f.cases << " " << case_unit(f.function);
      if (f.stopped) out << " (stopped after a hang)";
    }
    out << "\n";
  }
  print_case_summary(out, r);
  for (const FunctionReport& f : r.functions) {
    if (!f.failure) continue;
    const FailureReport& fail = *f.failure;
    const Shrunk& m = fail.minimal;
    out << "\nFAILED " << function_name(f.function) << ": " << m.verdict.problem << "\n"
        << "  found on:      " << fail.origin << ": " << fail.original_layout << "\n"
        << "  minimal case (" << m.steps << " shrinking step" << (m.steps == 1 ? "" : "s")
        << (m.out_of_time ? "; stopped at --shrink-seconds, maybe not minimal" : "") << "):\n";
    const auto detail = [&](const std::string& what, const std::string& value) {
      out << "    " << std::setw(22) << what << value << "\n";
    };
    detail("layout", print_shape(m.shape));
    for (const auto& [what, value] : m.verdict.details) detail(what, value);
    if (m.depends_on_earlier_requests) {
      out << "  alone:         passes when asked first of a new process: this failure depends on the requests "
             "before it (the implementation keeps state between requests)\n";
      if (!m.earlier_found) {
        out << "  fails after:   no sequence of the cases asked before it made it fail again in a new process "
               "within --shrink-seconds; the reproduce line, which asks it alone, may pass\n";
      }
    }
    if (m.earlier_found) {
      out << "  fails after:   " << m.earlier.size() << " case" << (m.earlier.size() == 1 ? "" : "s")
          << (m.depends_on_earlier_requests ? ", asked first of a new process (the shortest sequence found):\n"
                                            : " of its sequence, asked first of a new process:\n");
      for (const RequestCase& c : m.earlier) out << "                   " << c.id() << "\n";
    }
    out << "  reproduce:     " << fail.reproduce << "\n";
    if (!m.verdict.spec_command.empty())
      out << "  the spec says: " << m.verdict.spec_command << "\n";
  }
  if (with_coverage) print_coverage(out, r);
  out << "\n";
  const std::vector<std::string> failed = r.failures();
  if (!r.checked_anything()) {
    out << "conformance: nothing checked\n";
  } else if (failed.empty()) {
    const size_t not_sent = r.cases_with(Status::kNotSent, false).size() + r.cases_with(Status::kNotSent, true).size();
    out << "conformance: passed";
    if (not_sent) out << " (" << not_sent << " case" << (not_sent == 1 ? "" : "s") << " not sent: gate limits)";
    out << "\n";
  } else {
    std::string names;
    for (const std::string& n : failed) names += (names.empty() ? "" : ", ") + n;
    out << "conformance: FAILED (" << names << ")\n";
  }
}

}  // namespace tilecheck::conformance
