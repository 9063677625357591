// Each case of a run: one operation on one layout, asked of the
// implementation through the checker and recorded in the report -- its
// outcome, its function's counts, and the function's first failure not
// listed as a known gap, shrunk (shrink.cc) or as found, with the command
// that reproduces it.
#include <algorithm>
#include <cctype>
#include <string_view>

#include "conformance/phases.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {

using check::GateOptions;

// A word the shell passes through unchanged, quoted only when needed.
std::string shell_quote(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) ||
           std::string_view("_./-+=:,@").find(ch) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

namespace {

// The command that asks `shape` of a new process, as the run asked it.
std::string reproduce_command(ImplUnderTest& impl, ImplFunction f, const ShapeWithLayout& shape,
                              const GateOptions& options) {
  std::string reproduce = "tilecheck gate " + impl.gate_flag() + " --layout " + shell_quote(print_shape(shape));
  if (is_buffer_function(f) || f == ImplFunction::kParse) {
    reproduce += " --seed " + std::to_string(options.seed);
    if (options.padding == GateOptions::Padding::kAny) reproduce += " --padding any";
    // A limit other than the default, which the case may need to be sent.
    if (is_buffer_function(f) && options.max_array_bytes != GateOptions{}.max_array_bytes) {
      reproduce += " --max-array-bytes " + std::to_string(options.max_array_bytes);
    }
  }
  if (f == ImplFunction::kByteSize && options.size_model == GateOptions::SizeModel::kXla) {
    reproduce += " --size-model xla";
  }
  return reproduce;
}

}  // namespace

ConformanceReport empty_report(ImplUnderTest& impl, const GateOptions& options, const RunRules& rules) {
  ConformanceReport report;
  report.rules = rules;
  report.padding_any = options.padding == GateOptions::Padding::kAny;
  report.impl = impl.description();
  report.gate_flag = impl.gate_flag();
  report.exports = impl.exports();
  report.seed = options.seed;
  report.max_array_bytes = options.max_array_bytes;
  for (ImplFunction f : kFunctions) {
    FunctionReport fr;
    fr.function = f;
    fr.exported = offers(impl.exports(), f);
    report.functions.push_back(fr);
  }
  return report;
}

void ask(ImplUnderTest& impl, Checker& checker, const GateOptions& options, const RunRules& rules,
         ConformanceReport& report, FunctionReport& fr, const std::string& origin, const ShapeWithLayout& shape,
         OnFailure on_failure) {
  const std::string text = print_shape(shape);
  CaseOutcome outcome;
  outcome.function = fr.function;
  outcome.layout = text;
  outcome.type = shape.type;
  outcome.status = CaseOutcome::Status::kNotRun;
  outcome.listed = rules.gaps.matches(outcome.id());
  if (fr.stopped) {
    report.cases.push_back(outcome);
    return;
  }
  Verdict v = checker.check(fr.function, shape);
  switch (v.status) {
    case Verdict::Status::kPassed:
      ++fr.layouts_checked;
      fr.cases += v.cases;
      outcome.status = CaseOutcome::Status::kPassed;
      break;
    case Verdict::Status::kSkipped:
      ++fr.layouts_skipped;
      outcome.status = CaseOutcome::Status::kSkipped;
      break;
    case Verdict::Status::kNotSent:
      ++fr.layouts_not_sent;
      outcome.status = CaseOutcome::Status::kNotSent;
      outcome.problem = v.problem;
      break;
    case Verdict::Status::kFailed: {
      ++fr.layouts_failed;
      outcome.status = CaseOutcome::Status::kFailed;
      outcome.problem = v.problem;
      // Each hang costs --timeout: the operation's other layouts are not run.
      if (v.problem.rfind("hung", 0) == 0) fr.stopped = true;
      // The first failure that is not a known gap is reported.
      if (outcome.listed || fr.failure) break;
      // The cases the same process was asked before this one.
      std::vector<RequestCase> earlier = checker.history();
      earlier.pop_back();
      Shrunk minimal;
      if (on_failure == OnFailure::kShrink) {
        minimal = shrink_alone(impl, checker, fr.function, shape, std::move(v), earlier, options);
      } else {
        minimal = shrunk(shape, std::move(v));
        minimal.earlier_found = !earlier.empty();
        minimal.earlier = std::move(earlier);
      }
      std::string reproduce = reproduce_command(impl, fr.function, minimal.shape, options);
      fr.failure = FailureReport{origin, text, std::move(minimal), std::move(reproduce)};
      break;
    }
  }
  report.cases.push_back(outcome);
}

}  // namespace tilecheck::conformance
