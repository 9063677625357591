// tilecheck scan FILE.hlo (or '-' for stdin): every distinct layout of an
// HLO module with its count, sizes, padding and problems, sorted by wasted
// bytes; the totals; the bitcasts that are not bitcasts (check/scan.h).
// Exit 1 when a layout is invalid for XLA or a bitcast moves elements.
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "check/scan.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "proofs/obligations.h"

namespace tilecheck::cli {
namespace {

std::string percent(double share) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << share * 100 << "%";
  return out.str();
}

std::string or_dash(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; }

nlohmann::json scan_json(const check::ScanReport& r) {
  nlohmann::json layouts = nlohmann::json::array();
  for (const check::ScanLayout& l : r.layouts) {
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
  for (const check::ScanBitcast& b : r.bitcasts) {
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

void print_scan(const check::ScanReport& r) {
  std::cout << "module " << (r.module.empty() ? "(unnamed)" : r.module) << ": " << r.lines
            << " lines, " << r.instructions << " instructions, " << r.arrays << " arrays, "
            << r.layouts.size() << " distinct layouts\n\n";
  // One row of cells per layout; every column as wide as its widest cell.
  std::vector<std::vector<std::string>> rows = {
      {"layout", "count", "elements", "bytes", "XLA bytes", "padding", "share", "first"}};
  for (const check::ScanLayout& l : r.layouts) {
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
    std::cout << std::left << std::setw(static_cast<int>(widths[0])) << row[0] << std::right;
    for (size_t c = 1; c + 1 < row.size(); ++c) {
      std::cout << "  " << std::setw(static_cast<int>(widths[c])) << row[c];
    }
    std::cout << "  " << row.back() << "\n";
  }
  std::cout << "\ntotal: " << (r.totals_overflow ? "more than " : "") << r.total_bytes
            << " bytes, " << r.total_padding_bytes
            << " of them padding (" << percent(r.padding_share())
            << "), each occurrence counted as one buffer\n";
  bool any = false;
  for (const check::ScanLayout& l : r.layouts) {
    const bool noted = !l.bytes_error.empty() || !l.problems.empty() || !l.proof.empty();
    if (!noted) continue;
    if (!any) std::cout << "\nper layout:\n";
    any = true;
    std::cout << "  " << l.layout << "\n";
    if (!l.bytes_error.empty()) std::cout << "    exact size: " << l.bytes_error << "\n";
    for (const xla::Problem& p : l.problems) {
      std::cout << "    " << (p.severity == xla::Problem::Severity::kError ? "error   " : "warning ")
                << p.property << ": " << p.message << "\n";
    }
    if (!l.proof.empty()) std::cout << "    proof: " << l.proof << "\n";
  }
  if (!r.bitcasts.empty()) {
    std::cout << "\nbitcasts: " << r.bitcasts.size() << ", " << r.bad_bitcasts()
              << " not a bitcast\n";
    for (const check::ScanBitcast& b : r.bitcasts) {
      std::cout << "  " << b.instruction << " (line " << b.line << "): " << b.from << " -> " << b.to
                << ": ";
      if (!b.report) {
        std::cout << "not checked: " << b.not_checked << "\n";
        continue;
      }
      std::cout << (b.report->is_bitcast ? "ok" : "NOT a bitcast") << "\n";
      for (const std::string& reason : b.report->reasons) std::cout << "    " << reason << "\n";
    }
  }
  if (!r.warnings.empty()) {
    std::cout << "\nskipped lines: " << r.warnings.size() << "\n";
    for (const hlo::Warning& w : r.warnings) {
      std::cout << "  line " << w.line << ": " << w.message << "\n";
    }
  }
}

// The Z3 proof of `shape` in one word or line, as the report shows it.
std::string prove_layout(proofs::Prover& prover, const ShapeWithLayout& shape) {
  try {
    std::string unknown;
    for (const proofs::Outcome& o : prover.prove(shape)) {
      if (o.verdict == proofs::Verdict::kRefuted) {
        return "refuted: " + o.name + (o.counterexample ? " " + o.counterexample->explanation : "");
      }
      if (o.verdict == proofs::Verdict::kUnknown) unknown += (unknown.empty() ? "" : ", ") + o.name;
    }
    return unknown.empty() ? "proved" : "unknown (" + unknown + ")";
  } catch (const Error& e) {
    return std::string("not proved: ") + e.what();
  }
}

}  // namespace

void add_scan_command(CLI::App& app) {
  struct Args {
    std::string file;
    bool json = false, prove = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "scan",
      "every distinct layout of an HLO module (as XLA dumps it): count, sizes, padding, "
      "validity, and the bitcasts that are not; exit 1 on an invalid layout or a bad bitcast");
  command->add_option("FILE", args->file, "the HLO module's text, or - for standard input")
      ->required();
  command->add_flag("--prove", args->prove, "prove each layout a bijection onto its non-padding positions (Z3)");
  add_json_flag(command, args->json);
  command->callback([args] {
    std::ifstream file;
    if (args->file != "-") {
      file.open(args->file);
      if (!file) throw Error("cannot read '" + args->file + "'");
    }
    std::istream& in = args->file == "-" ? std::cin : file;
    // A progress line on stderr for big modules and for proofs.
    const hlo::Module module = hlo::read_module(in, [](int64_t lines) {
      if (lines % 100000 == 0) std::cerr << "scan: " << lines << " lines read\n";
    });
    check::ScanOptions options;
    if (args->prove) {
      auto prover = std::make_shared<proofs::Prover>(proofs::ProofOptions{10000, ""});
      options.prove = [prover](const ShapeWithLayout& shape) { return prove_layout(*prover, shape); };
    }
    const check::ScanReport report =
        check::scan_module(module, options, [](int64_t done, int64_t total, const std::string& what) {
          if (total > 20 && done % 10 == 0) {
            std::cerr << "scan: " << what << " " << done << "/" << total << "\n";
          }
        });
    if (args->json) {
      print_json(scan_json(report));
    } else {
      print_scan(report);
    }
    if (report.invalid_layouts() > 0 || report.bad_bitcasts() > 0) throw ChecksFailed{};
  });
}

}  // namespace tilecheck::cli
