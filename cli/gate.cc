#include "cli/gate.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/conformance.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {

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

const char* status_name(CheckResult::Status status) {
  switch (status) {
    case CheckResult::Status::kPassed: return "passed";
    case CheckResult::Status::kFailed: return "failed";
    case CheckResult::Status::kSkipped: return "skipped";
  }
  return "?";
}

std::string format_time(double seconds) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  if (seconds < 1) {
    out << seconds * 1e3 << " ms";
  } else {
    out << seconds << " s";
  }
  return out.str();
}

// "ok", "FAIL", or "ok, 1 skipped".
std::string summarize(const std::vector<CheckOutcome>& checks, int64_t& passed) {
  int64_t failed = 0, skipped = 0;
  passed = 0;
  for (const CheckOutcome& c : checks) {
    failed += c.result.status == CheckResult::Status::kFailed;
    skipped += c.result.status == CheckResult::Status::kSkipped;
    passed += c.result.status == CheckResult::Status::kPassed;
  }
  if (failed) return "FAIL";
  return skipped ? "ok, " + std::to_string(skipped) + " skipped" : "ok";
}

void print_problems(std::ostream& out, const std::vector<CheckOutcome>& checks) {
  for (const CheckOutcome& c : checks) {
    if (c.result.status == CheckResult::Status::kPassed) continue;
    out << "    " << (c.result.ok() ? "skipped " : "FAILED ") << c.check << ": " << c.result.detail
        << "\n";
  }
}

nlohmann::json check_json(const CheckOutcome& c) {
  return {{"check", c.check},     {"status", status_name(c.result.status)},
          {"ok", c.result.ok()},  {"detail", c.result.detail},
          {"checked", c.result.checked}, {"seconds", c.seconds}};
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

void print_gate_table(std::ostream& out, const GateReport& report) {
  size_t name_width = 6, text_width = 17;  // the headers' widths
  for (const LayoutOutcome& l : report.layouts) {
    name_width = std::max(name_width, l.layout.name.size());
    text_width = std::max(text_width, print_shape(l.layout.shape).size());
  }
  auto row = [&](const std::string& name, const std::string& text, const std::string& checks,
                 const std::string& result, const std::string& time) {
    out << std::left << std::setw(name_width) << name << "  " << std::setw(text_width) << text
        << "  " << std::setw(7) << checks << "  " << std::setw(14) << result << "  " << time
        << "\n";
  };
  row("layout", "shape with layout", "checks", "result", "time");
  for (const LayoutOutcome& l : report.layouts) {
    int64_t passed = 0;
    const std::string result = summarize(l.checks, passed);
    row(l.layout.name, print_shape(l.layout.shape),
        std::to_string(passed) + "/" + std::to_string(l.checks.size()), result,
        format_time(l.seconds));
    print_problems(out, l.checks);
  }
  if (!report.suite.empty()) {
    out << "suite checks:\n";
    for (const CheckOutcome& c : report.suite) {
      int64_t passed = 0;
      row(c.check, "", "", summarize({c}, passed), format_time(c.seconds));
      print_problems(out, {c});
    }
  }
  out << gate_summary_line(report) << "\n";
}

void print_gate_json(std::ostream& out, const GateReport& report) {
  nlohmann::json layouts = nlohmann::json::array(), suite = nlohmann::json::array();
  for (const LayoutOutcome& l : report.layouts) {
    nlohmann::json checks = nlohmann::json::array();
    bool ok = true;
    for (const CheckOutcome& c : l.checks) {
      checks.push_back(check_json(c));
      ok = ok && c.result.ok();
    }
    layouts.push_back({{"name", l.layout.name},
                       {"layout", print_shape(l.layout.shape)},
                       {"ok", ok},
                       {"seconds", l.seconds},
                       {"checks", checks}});
  }
  for (const CheckOutcome& c : report.suite) suite.push_back(check_json(c));
  out << nlohmann::json{{"ok", report.ok()},
                        {"layouts", layouts},
                        {"suite", suite},
                        {"summary",
                         {{"layouts", report.layouts.size()},
                          {"checks", report.checks},
                          {"passed", report.passed},
                          {"failed", report.failed},
                          {"skipped", report.skipped}}}}
             .dump(2)
      << "\n";
}

void add_gate_command(CLI::App& app, GateRegistry registry) {
  struct Args {
    GateRegistry registry;
    std::vector<std::string> layouts, checks;
    GateOptions options;
    ConformanceOptions conformance;  // --impl: cli/conformance.h
    bool json = false, list = false;
  };
  auto args = std::make_shared<Args>();
  args->registry = std::move(registry);
  CLI::App* command = app.add_subcommand(
      "gate", "run every check over the catalogue of layouts (or --layout); exit 1 on a failure");
  command->add_option("--layout", args->layouts,
                      "check this layout instead of the catalogue (repeatable)");
  command->add_option("--exhaustive-limit", args->options.exhaustive_limit,
                      "check every element and position up to this many; sample above")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
  command->add_option("--samples", args->options.samples, "random cases above the limit")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
  command->add_option("--seed", args->options.seed, "sampling seed")->capture_default_str();
  command->add_option("--cases", args->options.property_cases,
                      "RapidCheck cases per generated property (with --impl: generated layouts)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
  command->add_option("--check", args->checks,
                      "run only this check (repeatable; --list names them)");
  command->add_flag("--list", args->list, "list the checks and exit");
  add_json_flag(command, args->json);
  add_conformance_options(command, args->conformance);
  command->callback([args] {
    if (!args->conformance.impl_path.empty()) {
      if (args->list || !args->checks.empty()) throw Error("--list and --check do not apply with --impl");
      run_conformance(args->conformance, args->layouts, args->options, args->json);
      return;
    }
    if (args->list) {
      for (const LayoutCheck& c : args->registry.layout_checks()) {
        std::cout << std::left << std::setw(24) << c.name << "per layout  " << c.what << "\n";
      }
      for (const SuiteCheck& c : args->registry.suite_checks()) {
        std::cout << std::left << std::setw(24) << c.name << "suite       " << c.what << "\n";
      }
      return;
    }
    std::vector<GateLayout> layouts;
    if (args->layouts.empty()) {
      layouts = catalog_layouts();
    } else {
      for (const std::string& text : args->layouts) {
        layouts.push_back({"", parse_layout_argument(text)});
      }
    }
    const GateRegistry registry =
        args->checks.empty() ? args->registry : args->registry.only(args->checks);
    const GateReport report = run_gate(registry, layouts, args->options);
    if (args->json) {
      print_gate_json(std::cout, report);
    } else {
      print_gate_table(std::cout, report);
    }
    if (!report.ok()) throw ChecksFailed{};
  });
}

void add_gate_command(CLI::App& app) { add_gate_command(app, standard_gate()); }

}  // namespace tilecheck::cli
