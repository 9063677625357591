// The gate's report as a table and as JSON (check/gate_report.h).
#include "check/gate_report.h"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include <tilecheck/spec/syntax.h>

namespace tilecheck::check {

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

}  // namespace tilecheck::check
