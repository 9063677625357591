// What a conformance run reached: each case sent and answered (passed or
// failed), classified by the form of its layout, its dim order and its
// element width, per operation; and the holes, the combinations the default
// run must reach and did not (`tilecheck gate --coverage`, docs/GATE.md).
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/runner.h"

namespace tilecheck::conformance {

// The forms a layout can take, in the order the report lists them.
const std::vector<std::string>& coverage_features();
const std::vector<std::string>& coverage_width_classes();  // "sub-byte", "8-bit", ...

// The forms `shape` has (a subset of coverage_features()).
std::vector<std::string> features_of(const ShapeWithLayout& shape);
std::string dim_order_of(const ShapeWithLayout& shape);    // "default" or "other"
std::string width_class_of(const ShapeWithLayout& shape);  // one of coverage_width_classes()

struct CoverageCell {
  std::string feature, order, width;
  ImplFunction function = ImplFunction::kLinearIndex;
  auto key() const { return std::tie(feature, order, width, function); }
  bool operator<(const CoverageCell& o) const { return key() < o.key(); }
};

struct Coverage {
  std::map<CoverageCell, int64_t> reached;  // cases answered per cell
  // The cells the run must reach, for the operations the implementation
  // offers: no "other" order for a scalar, E(n) and a half-filled final
  // byte only for sub-byte types, no buffers for shapes past 2^31
  // positions, no linear index of a zero-size array; the element counts
  // past 2^16 and 2^20 only in the orders and width classes of the size
  // set's layouts the run sends.
  std::set<CoverageCell> required;
  // Cells that must be reached for an operation the implementation offers
  // and were not; those of a width class none of whose types (by natural
  // width) it answered a case of are `unclaimed` instead.
  std::vector<CoverageCell> holes, unclaimed;
};

Coverage coverage_of(const ConformanceReport& report);

}  // namespace tilecheck::conformance
