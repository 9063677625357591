// The scan's report printed (check/scan_report.h).
#include "check/scan_report.h"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace tilecheck::check {
namespace {

std::string percent(double share) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << share * 100 << "%";
  return out.str();
}

std::string or_dash(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; }

}  // namespace

nlohmann::json scan_json(const ScanReport& r) {
  nlohmann::json layouts = nlohmann::json::array();
  for (const ScanLayout& l : r.layouts) {
    nlohmann::json problems = nlohmann::json::array();
    for (const xla::Problem& p : l.problems) {
      problems.push_back({{"severity", p.severity == xla::Problem::Severity::kError ? "error" : "warning"},
                          {"property", p.property},
                          {"message", p.message}});
    }
    nlohmann::json j{{"layout", l.layout},
                     {"count", l.count},
                     {"first_instruction", l.first_instruction},
                     {"first_line", l.first_line},
                     {"elements", l.elements},
                     {"bytes", l.bytes ? nlohmann::json(*l.bytes) : nlohmann::json(nullptr)},
                     {"xla_array_size", l.xla_bytes ? nlohmann::json(*l.xla_bytes) : nlohmann::json(nullptr)},
                     {"padding_bytes", l.padding_bytes},
                     {"padding_share", l.padding_share},
                     {"wasted_bytes", l.wasted_bytes},
                     {"problems", problems}};
    if (!l.bytes_error.empty()) j["bytes_error"] = l.bytes_error;
    if (!l.proof.empty()) j["proof"] = l.proof;
    layouts.push_back(j);
  }
  nlohmann::json bitcasts = nlohmann::json::array();
  for (const ScanBitcast& b : r.bitcasts) {
    nlohmann::json j{{"instruction", b.instruction}, {"line", b.line}, {"from", b.from}, {"to", b.to}};
    if (b.report) {
      j["bitcast"] = b.report->is_bitcast;
      j["reasons"] = b.report->reasons;
    } else {
      j["not_checked"] = b.not_checked;
    }
    bitcasts.push_back(j);
  }
  nlohmann::json warnings = nlohmann::json::array();
  for (const hlo::Warning& w : r.warnings) warnings.push_back({{"line", w.line}, {"message", w.message}});
  return {{"module", r.module},
          {"lines", r.lines},
          {"instructions", r.instructions},
          {"arrays", r.arrays},
          {"layouts", layouts},
          {"total_bytes", r.total_bytes},
          {"total_padding_bytes", r.total_padding_bytes},
          {"padding_share", r.padding_share()},
          {"totals_overflow", r.totals_overflow},
          {"invalid_layouts", r.invalid_layouts()},
          {"bitcasts", bitcasts},
          {"bad_bitcasts", r.bad_bitcasts()},
          {"warnings", warnings}};
}

void print_scan(std::ostream& out, const ScanReport& r) {
  out << "module " << (r.module.empty() ? "(unnamed)" : r.module) << ": " << r.lines
            << " lines, " << r.instructions << " instructions, " << r.arrays << " arrays, "
            << r.layouts.size() << " distinct layouts\n\n";
  // One row of cells per layout; every column as wide as its widest cell.
  std::vector<std::vector<std::string>> rows = {
      {"layout", "count", "elements", "bytes", "XLA bytes", "padding", "share", "first"}};
  for (const ScanLayout& l : r.layouts) {
    rows.push_back({l.layout, std::to_string(l.count),
                    l.bytes ? std::to_string(l.elements) : "-", or_dash(l.bytes),
                    or_dash(l.xla_bytes), l.bytes ? std::to_string(l.padding_bytes) : "-",
                    l.bytes ? percent(l.padding_share) : "-",
                    l.first_instruction + " (line " + std::to_string(l.first_line) + ")"});
  }
  // A layout longer than a screen line runs past its column instead of
  // widening it: one of 100,000 dims would pad every other row (and the
  // header) to its length.
  constexpr size_t kWidestLayoutColumn = 120;
  std::vector<size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows) {
    widths[0] = std::max(widths[0], std::min(row[0].size(), kWidestLayoutColumn));
    for (size_t c = 1; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    // The layout and the first instruction left-aligned, the numbers right.
    out << std::left << std::setw(static_cast<int>(widths[0])) << row[0] << std::right;
    for (size_t c = 1; c + 1 < row.size(); ++c) {
      out << "  " << std::setw(static_cast<int>(widths[c])) << row[c];
    }
    out << "  " << row.back() << "\n";
  }
  out << "\ntotal: " << (r.totals_overflow ? "more than " : "") << r.total_bytes
            << " bytes, " << r.total_padding_bytes
            << " of them padding (" << percent(r.padding_share())
            << "), each occurrence counted as one buffer\n";
  bool any = false;
  for (const ScanLayout& l : r.layouts) {
    const bool noted = !l.bytes_error.empty() || !l.problems.empty() || !l.proof.empty();
    if (!noted) continue;
    if (!any) out << "\nper layout:\n";
    any = true;
    out << "  " << l.layout << "\n";
    if (!l.bytes_error.empty()) out << "    exact size: " << l.bytes_error << "\n";
    for (const xla::Problem& p : l.problems) {
      out << "    " << (p.severity == xla::Problem::Severity::kError ? "error   " : "warning ")
                << p.property << ": " << p.message << "\n";
    }
    if (!l.proof.empty()) out << "    proof: " << l.proof << "\n";
  }
  if (!r.bitcasts.empty()) {
    out << "\nbitcasts: " << r.bitcasts.size() << ", " << r.bad_bitcasts()
              << " not a bitcast\n";
    for (const ScanBitcast& b : r.bitcasts) {
      out << "  " << b.instruction << " (line " << b.line << "): " << b.from << " -> " << b.to
                << ": ";
      if (!b.report) {
        out << "not checked: " << b.not_checked << "\n";
        continue;
      }
      out << (b.report->is_bitcast ? "ok" : "NOT a bitcast") << "\n";
      for (const std::string& reason : b.report->reasons) out << "    " << reason << "\n";
    }
  }
  if (!r.warnings.empty()) {
    out << "\nskipped lines: " << r.warnings.size() << "\n";
    for (const hlo::Warning& w : r.warnings) {
      out << "  line " << w.line << ": " << w.message << "\n";
    }
  }
}

}  // namespace tilecheck::check
