#include "cli/gate.h"

#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "check/gate_report.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/conformance.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {

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
      check::print_gate_json(std::cout, report);
    } else {
      check::print_gate_table(std::cout, report);
    }
    if (!report.ok()) throw ChecksFailed{};
  });
}

void add_gate_command(CLI::App& app) { add_gate_command(app, standard_gate()); }

}  // namespace tilecheck::cli
