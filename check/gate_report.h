// The gate's report printed: the table `tilecheck gate` shows (one row per
// layout, failures spelled out under their row, then the summary line) and
// its JSON form (`tilecheck gate --json`).
#pragma once

#include <iosfwd>

#include "check/gate.h"

namespace tilecheck::check {

void print_gate_table(std::ostream& out, const GateReport& report);
void print_gate_json(std::ostream& out, const GateReport& report);

}  // namespace tilecheck::check
