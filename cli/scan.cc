// tilecheck scan FILE.hlo (or '-' for stdin): every distinct layout of an
// HLO module with its count, sizes, padding and problems, sorted by wasted
// bytes; the totals; the bitcasts that are not bitcasts (check/scan.h).
// Exit 1 when a layout is invalid for XLA or a bitcast moves elements.
#include <fstream>
#include <iostream>
#include <memory>

#include "check/scan.h"
#include "check/scan_report.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "proofs/obligations.h"

namespace tilecheck::cli {
namespace {

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
      print_json(check::scan_json(report));
    } else {
      check::print_scan(std::cout, report);
    }
    if (report.invalid_layouts() > 0 || report.bad_bitcasts() > 0) throw ChecksFailed{};
  });
}

}  // namespace tilecheck::cli
