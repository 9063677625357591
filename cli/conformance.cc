// `tilecheck gate --impl PATH.so` and `tilecheck gate --impl-cmd 'COMMAND'`:
// the flags of a run over another implementation (conformance/gate_run.h
// runs it, conformance/report.h renders its report; conformance/runner.h
// says what is checked and how).
#include "cli/conformance.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <map>

#include "cli/common.h"
#include "conformance/report.h"

namespace tilecheck::cli {
namespace {

// Writes what `print` renders to `path`; Error naming `flag` when it cannot.
template <class Print>
void write_file(const std::string& path, const char* flag, Print print) {
  std::ofstream out(path);
  print(out);
  if (!out) throw Error(std::string(flag) + ": cannot write '" + path + "'");
}

}  // namespace

void add_conformance_options(CLI::App* gate, ConformanceOptions& options) {
  gate->add_option("--impl", options.run.impl_path,
                   "check the implementation in this shared library against the spec instead "
                   "(tilecheck/conformance_plugin.h); --cases generated layouts after the catalogue");
  gate->add_option("--impl-cmd", options.run.impl_command,
                   "check the implementation this shell command runs, speaking JSON Lines on its "
                   "standard input and output (docs/PROTOCOL.md)")
      ->excludes(gate->get_option("--impl"));
  gate->add_option("--skip", options.run.skip_patterns,
                   "with --impl or --impl-cmd: a known gap, a glob over case ids "
                   "OPERATION:LAYOUT (e.g. 'pack:s4*'); its failure or skip does not fail the "
                   "gate (repeatable)");
  gate->add_option("--skip-file", options.run.skip_file,
                   "read --skip patterns from this file: the first word of each line ('#' "
                   "starts a comment line)");
  gate->add_option("--write-skips", options.write_skips,
                   "write the ids of today's failing and skipped cases to this file, for "
                   "--skip-file");
  gate->add_option("--junit", options.junit,
                   "also write the verdict as JUnit XML to this file (one test case per case id)");
  gate->add_flag("--skips-must-fail", options.run.skips_must_fail,
                 "a case listed as a known gap that passes fails the gate");
  gate->add_option("--profile", options.run.profile,
                   "with --impl or --impl-cmd: the generated layouts: general (every form), tpu "
                   "(the TPU formats on real-world shapes) or gpu (small tiles, sub-byte types)")
      ->check(CLI::IsMember({"general", "tpu", "gpu"}))
      ->capture_default_str();
  gate->add_option("--max-rank", options.run.max_rank,
                   "with --impl or --impl-cmd: only layouts of at most this rank")
      ->check(CLI::Range(int64_t{0}, int64_t{64}));
  gate->add_option("--types", options.run.types,
                   "with --impl or --impl-cmd: only layouts of these element types "
                   "(comma-separated XLA names)")
      ->delimiter(',');
  gate->add_option("--limit", options.run.limits,
                   "with --impl or --impl-cmd: a resource limit of the implementation's "
                   "processes: cpu=SECONDS (default 3600), memory=BYTES (address space, K/M/G "
                   "suffixes, default 16G), files=N (default 256), processes=N (the user's "
                   "processes, default 4096; root is exempt); 0 lifts it (repeatable or "
                   "comma-separated)")
      ->delimiter(',');
  gate->add_option("--padding", options.run.padding,
                   "with --impl or --impl-cmd: zero (pack must write zero padding, D8) or any "
                   "(the implementation leaves padding undefined: only elements are compared)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, GateOptions::Padding>{{"zero", GateOptions::Padding::kZero},
                                                      {"any", GateOptions::Padding::kAny}}))
      ->capture_default_str();
  gate->add_option("--require", options.run.required,
                   "these operations must be offered and answered (comma-separated: "
                   "linear_index, pack, byte_size, delinearize)")
      ->delimiter(',');
  gate->add_option("--max-array-bytes", options.run.max_array_bytes,
                   "with --impl or --impl-cmd: the largest dense or physical buffer the gate sends or "
                   "asks for (K/M/G suffixes); a pack, unpack or relayout past it is reported as not "
                   "sent (gate limit) and does not fail the gate; the size set sends its layouts within "
                   "it (16M sends them all)")
      ->capture_default_str();
  gate->add_flag("--coverage", options.coverage,
                 "with --impl or --impl-cmd: also print what the run reached, by form of layout, dim "
                 "order, element width and operation, and the holes (with --json: a \"coverage\" "
                 "object)");
  gate->add_flag("--no-reach-set", options.run.no_reach_set,
                 "with --impl or --impl-cmd: leave out the reach set (docs/PROTOCOL.md, \"What the gate sends\"): "
                 "the catalogue and the generated layouts only, for a quick run");
  gate->add_flag("--no-size-set", options.run.no_size_set,
                 "with --impl or --impl-cmd: leave out the size set (docs/GATE.md, \"Data movement at size\"): "
                 "pack, unpack and relayout of every width class's TPU format past 2^16 and 2^20 elements");
  gate->add_option("--write-replay", options.run.write_replay,
                   "with --impl or --impl-cmd: after a failure, write to this file the request sequence "
                   "of each failure (the failing case, after the earlier cases it depends on) for --replay");
  gate->add_option("--replay", options.run.replay,
                   "with --impl or --impl-cmd: ask the request sequences of this file (--write-replay), each "
                   "of a new process, instead of the catalogue and generated layouts; its seed, padding and "
                   "size model are used")
      ->excludes("--layout");
  gate->add_option("--shrink-seconds", options.run.shrink_seconds,
                   "with --impl or --impl-cmd: the time shrinking one failure may take; past it the "
                   "smallest failing case found so far is reported, marked as such")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  gate->add_option(
          "--timeout", options.run.timeout_seconds,
          "with --impl or --impl-cmd: seconds to wait for one answer before the implementation counts as hung "
          "(loading the library gets at least 30)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
}

void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json) {
  conformance::GateRun run = conformance.run;
  run.layouts = layouts;
  const conformance::ConformanceReport report = conformance::run_gate(run, options);
  if (json) {
    conformance::print_json_report(std::cout, report, conformance.coverage);
  } else {
    conformance::print_text_report(std::cout, report, conformance.coverage);
  }
  if (!conformance.write_skips.empty()) {
    write_file(conformance.write_skips, "--write-skips", [&](std::ostream& out) { print_skips(out, report); });
  }
  if (!conformance.junit.empty()) {
    write_file(conformance.junit, "--junit", [&](std::ostream& out) { print_junit(out, report); });
  }
  if (report.checked_anything() && !report.ok()) throw ChecksFailed{};
  if (const std::optional<std::string> why = conformance::nothing_checked(report)) throw Error(*why);
}

}  // namespace tilecheck::cli
