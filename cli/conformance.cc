#include "cli/conformance.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/common.h"
#include "conformance/command_worker.h"
#include "conformance/runner.h"
#include "conformance/worker.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {
namespace {

using conformance::ConformanceReport;
using conformance::FailureReport;
using conformance::FunctionReport;
using conformance::function_name;
using conformance::Shrunk;

std::string layouts_line(const ConformanceReport& r) {
  if (r.given_layouts) return std::to_string(r.given_layouts) + " given with --layout";
  return std::to_string(r.catalogue_layouts) + " from the catalogue, then " +
         std::to_string(r.generated_layouts) + " generated (seed " + std::to_string(r.seed) + ")";
}

void print_text(std::ostream& out, const ConformanceReport& r) {
  out << "conformance of " << r.impl << " to the spec\n"
      << "layouts: " << layouts_line(r) << "\n";
  if (r.unclaimed_layouts) {
    out << "not claimed by the implementation (never sent): " << r.unclaimed_layouts
        << " of them\n";
  }
  out << "\n";
  out << std::left << std::setw(14) << "function" << std::setw(14) << "result" << std::setw(17)
      << "layouts checked" << std::setw(9) << "skipped"
      << "cases checked\n";
  for (const FunctionReport& f : r.functions) {
    out << std::setw(14) << function_name(f.function) << std::setw(14) << f.result();
    if (f.exported) {
      out << std::setw(17) << f.layouts_checked << std::setw(9) << f.layouts_skipped << f.cases
          << " " << case_unit(f.function);
    }
    out << "\n";
  }
  std::vector<std::string> failed;
  for (const FunctionReport& f : r.functions) {
    if (!f.failure) continue;
    failed.push_back(function_name(f.function));
    const FailureReport& fail = *f.failure;
    const Shrunk& m = fail.minimal;
    out << "\nFAILED " << function_name(f.function) << ": " << m.verdict.problem << "\n"
        << "  found on:      " << fail.origin << ": " << fail.original_layout << "\n"
        << "  minimal case (" << m.steps << " shrinking step" << (m.steps == 1 ? "" : "s")
        << "):\n";
    const auto detail = [&](const std::string& what, const std::string& value) {
      out << "    " << std::setw(22) << what << value << "\n";
    };
    detail("layout", print_shape(m.shape));
    for (const auto& [what, value] : m.verdict.details) detail(what, value);
    out << "  reproduce:     " << fail.reproduce << "\n";
    if (!m.verdict.spec_command.empty())
      out << "  the spec says: " << m.verdict.spec_command << "\n";
  }
  out << "\n";
  if (failed.empty()) {
    out << (r.checked_anything() ? "conformance: passed\n" : "conformance: nothing checked\n");
  } else {
    std::string names;
    for (const std::string& n : failed) names += (names.empty() ? "" : ", ") + n;
    out << "conformance: FAILED (" << names << ")\n";
  }
}

void print_json_report(std::ostream& out, const ConformanceReport& r) {
  nlohmann::json functions = nlohmann::json::array();
  for (const FunctionReport& f : r.functions) {
    nlohmann::json j = {{"function", function_name(f.function)},
                        {"exported", f.exported},
                        {"result", f.result()},
                        {"layouts_checked", f.layouts_checked},
                        {"layouts_skipped", f.layouts_skipped},
                        {"cases_checked", f.cases},
                        {"case_unit", case_unit(f.function)}};
    if (f.failure) {
      const Shrunk& m = f.failure->minimal;
      nlohmann::json details = nlohmann::json::object();
      for (const auto& [what, value] : m.verdict.details) details[what] = value;
      j["failure"] = {{"problem", m.verdict.problem},
                      {"found_on", f.failure->origin},
                      {"original_layout", f.failure->original_layout},
                      {"minimal_layout", print_shape(m.shape)},
                      {"shrinking_steps", m.steps},
                      {"details", details},
                      {"reproduce", f.failure->reproduce},
                      {"spec_command", m.verdict.spec_command}};
    }
    functions.push_back(j);
  }
  out << nlohmann::json{{"impl", r.impl},
                        {"ok", r.ok() && r.checked_anything()},
                        {"seed", r.seed},
                        {"layouts",
                         {{"catalogue", r.catalogue_layouts},
                          {"generated", r.generated_layouts},
                          {"given", r.given_layouts},
                          {"unclaimed", r.unclaimed_layouts}}},
                        {"functions", functions}}
             .dump(2)
      << "\n";
}

}  // namespace

void add_conformance_options(CLI::App* gate, ConformanceOptions& options) {
  gate->add_option("--impl", options.impl_path,
                   "check the implementation in this shared library against the spec instead "
                   "(tilecheck/conformance_plugin.h); --cases generated layouts after the catalogue");
  gate->add_option("--impl-cmd", options.impl_command,
                   "check the implementation this shell command runs, speaking JSON Lines on its "
                   "standard input and output (docs/PROTOCOL.md)")
      ->excludes(gate->get_option("--impl"));
  gate->add_option(
          "--timeout", options.timeout_seconds,
          "with --impl or --impl-cmd: seconds to wait for one answer before the implementation counts as hung "
          "(loading the library gets at least 30)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
}

void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json) {
  // Bad --layout text is bad input (exit 2) before anything is loaded.
  std::vector<ShapeWithLayout> given;
  for (const std::string& text : layouts) given.push_back(parse_layout_argument(text));
  std::unique_ptr<conformance::ImplUnderTest> impl;
  if (!conformance.impl_command.empty()) {
    impl = std::make_unique<conformance::CommandWorker>(conformance.impl_command,
                                                        conformance.timeout_seconds);
  } else {
    impl = std::make_unique<conformance::ImplWorker>(conformance.impl_path,
                                                     conformance.timeout_seconds);
  }
  const ConformanceReport report = conformance::run(*impl, given, options);
  if (json) {
    print_json_report(std::cout, report);
  } else {
    print_text(std::cout, report);
  }
  if (!report.ok()) throw ChecksFailed{};
  if (!report.checked_anything()) {
    // The first operation it offers, and how many layouts it was asked.
    const auto first = std::find_if(report.functions.begin(), report.functions.end(),
                                    [](const FunctionReport& f) { return f.exported; });
    const int64_t asked = first == report.functions.end() ? 0 : first->layouts_skipped;
    throw Error("'" + report.impl + "' supports none of the " + std::to_string(asked) +
                " layouts it was asked about: every answer was 'not supported'" +
                (report.unclaimed_layouts ? " (" + std::to_string(report.unclaimed_layouts) +
                                                " more it does not claim were not sent)"
                                          : std::string()));
  }
}

}  // namespace tilecheck::cli
