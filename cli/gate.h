// The gate command: flags over the checking engine of check/ (check/gate.h:
// the registry, the checks, running them, the report; check/gate_report.h:
// printing it).
#pragma once

#include "check/gate.h"

namespace CLI {
class App;
}  // namespace CLI

namespace tilecheck::cli {

using check::CheckOutcome;
using check::CheckResult;
using check::GateLayout;
using check::GateOptions;
using check::GateRegistry;
using check::GateReport;
using check::LayoutCheck;
using check::LayoutOutcome;
using check::SuiteCheck;
using check::catalog_layouts;
using check::run_gate;

// Every check tilecheck ships: cli/gate_registry.cc.
GateRegistry standard_gate();

// The gate subcommand over a given registry (the shipped binary passes
// standard_gate(); tests may pass a registry with a deliberately broken check).
void add_gate_command(CLI::App& app, GateRegistry registry);

}  // namespace tilecheck::cli
