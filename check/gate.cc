#include "check/gate.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::check {


CheckResult CheckResult::passed(int64_t checked, std::string detail) {
  return {Status::kPassed, std::move(detail), checked};
}
CheckResult CheckResult::failed(std::string detail, int64_t checked) {
  return {Status::kFailed, std::move(detail), checked};
}
CheckResult CheckResult::skipped(std::string reason) {
  return {Status::kSkipped, std::move(reason), 0};
}

void GateRegistry::require_new_name(const std::string& name) const {
  for (const LayoutCheck& c : layout_checks_) {
    if (c.name == name) throw Error("gate check '" + name + "' is registered twice");
  }
  for (const SuiteCheck& c : suite_checks_) {
    if (c.name == name) throw Error("gate check '" + name + "' is registered twice");
  }
}

void GateRegistry::add_layout_check(std::string name, std::string what, LayoutCheckFn run) {
  require_new_name(name);
  layout_checks_.push_back({std::move(name), std::move(what), std::move(run)});
}

void GateRegistry::add_suite_check(std::string name, std::string what, SuiteCheckFn run) {
  require_new_name(name);
  suite_checks_.push_back({std::move(name), std::move(what), std::move(run)});
}

GateRegistry GateRegistry::only(const std::vector<std::string>& names) const {
  GateRegistry subset;
  for (const std::string& name : names) {
    const auto named = [&](const auto& c) { return c.name == name; };
    if (std::none_of(layout_checks_.begin(), layout_checks_.end(), named) &&
        std::none_of(suite_checks_.begin(), suite_checks_.end(), named)) {
      throw Error("no gate check is named '" + name + "'; 'tilecheck gate --list' lists them");
    }
  }
  const auto chosen = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  for (const LayoutCheck& c : layout_checks_) {
    if (chosen(c.name)) subset.layout_checks_.push_back(c);
  }
  for (const SuiteCheck& c : suite_checks_) {
    if (chosen(c.name)) subset.suite_checks_.push_back(c);
  }
  return subset;
}

std::vector<GateLayout> catalog_layouts() {
  std::vector<GateLayout> layouts;
  for (const CatalogEntry& entry : catalog()) {
    layouts.push_back({std::string(entry.name), parse_shape(entry.layout)});
  }
  return layouts;
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Runs one check; an exception is a failure whose detail is its message.
template <class F>
CheckOutcome run_check(const std::string& name, F&& run) {
  const Clock::time_point start = Clock::now();
  CheckResult result;
  try {
    result = run();
  } catch (const std::exception& e) {
    result = CheckResult::failed(std::string("threw: ") + e.what());
  }
  return {name, std::move(result), seconds_since(start)};
}

void count(GateReport& report, const CheckOutcome& outcome) {
  ++report.checks;
  switch (outcome.result.status) {
    case CheckResult::Status::kPassed: ++report.passed; break;
    case CheckResult::Status::kFailed: ++report.failed; break;
    case CheckResult::Status::kSkipped: ++report.skipped; break;
  }
}

}  // namespace

GateReport run_gate(const GateRegistry& registry, const std::vector<GateLayout>& layouts,
                    const GateOptions& options) {
  GateReport report;
  for (const GateLayout& layout : layouts) {
    LayoutOutcome outcome{layout, {}, 0};
    const Clock::time_point start = Clock::now();
    for (const LayoutCheck& check : registry.layout_checks()) {
      outcome.checks.push_back(
          run_check(check.name, [&] { return check.run(layout.shape, options); }));
      count(report, outcome.checks.back());
    }
    outcome.seconds = seconds_since(start);
    report.layouts.push_back(std::move(outcome));
  }
  for (const SuiteCheck& check : registry.suite_checks()) {
    report.suite.push_back(run_check(check.name, [&] { return check.run(options); }));
    count(report, report.suite.back());
  }
  return report;
}

std::string gate_summary_line(const GateReport& report) {
  std::string line = "gate: " + std::to_string(report.layouts.size()) + " layouts, " +
                     std::to_string(report.checks) + " checks, " + std::to_string(report.passed) +
                     " passed, " + std::to_string(report.failed) + " failed";
  if (report.skipped) line += ", " + std::to_string(report.skipped) + " skipped";
  return line;
}


}  // namespace tilecheck::check
