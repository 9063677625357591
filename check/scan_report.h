// The report of `tilecheck scan` (check/scan.h) printed: as the table with
// the totals, the notes per layout, the bitcasts and the skipped lines, and
// as JSON (`--json`).
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>

#include "check/scan.h"

namespace tilecheck::check {

nlohmann::json scan_json(const ScanReport& r);
void print_scan(std::ostream& out, const ScanReport& r);

}  // namespace tilecheck::check
