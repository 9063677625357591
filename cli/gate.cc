#include "cli/gate.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/conformance.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {

namespace {

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
  command
      ->add_option("--size-model", args->options.size_model,
                   "with --impl, the byte size the implementation must report: exact "
                   "(tilecheck's) or xla (XLA's ShapeUtil::ArraySize)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, GateOptions::SizeModel>{{"exact", GateOptions::SizeModel::kExact},
                                                        {"xla", GateOptions::SizeModel::kXla}}))
      ->capture_default_str();
  add_json_flag(command, args->json);
  add_conformance_options(command, args->conformance);
  command->callback([args] {
    if (checks_an_implementation(args->conformance)) {
      if (args->list || !args->checks.empty()) {
        throw Error("--list and --check do not apply with --impl or --impl-cmd");
      }
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
