#include "conformance/gate_run.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>

#include "conformance/command_worker.h"
#include "conformance/process.h"
#include "conformance/replay.h"
#include "conformance/runner.h"
#include "conformance/worker.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {

using check::GateOptions;

namespace {

// --skip, --skip-file, --skips-must-fail and --require as the runner's rules.
RunRules run_rules(const GateRun& o) {
  RunRules rules;
  rules.gaps.patterns = o.skip_patterns;
  rules.gaps.must_fail = o.skips_must_fail;
  if (!o.skip_file.empty()) {
    std::ifstream in(o.skip_file);
    if (!in) throw GateInputError("--skip-file: cannot read '" + o.skip_file + "'");
    std::string line;
    while (std::getline(in, line)) {
      // A pattern is the line's first word; the rest is a comment.
      const size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      const size_t end = line.find_first_of(" \t\r", first);
      rules.gaps.patterns.push_back(line.substr(first, end == std::string::npos ? end : end - first));
    }
  }
  for (const std::string& name : o.required) {
    const std::optional<ImplFunction> f = function_named(name);
    if (!f) throw GateInputError("--require: unknown operation '" + name + "' (known: " + function_names() + ")");
    rules.required.push_back(*f);
  }
  const std::optional<gen::Profile> profile = gen::profile_from_name(o.profile);
  if (!profile) throw GateInputError("--profile: unknown profile '" + o.profile + "' (general, tpu, gpu)");
  rules.stream.profile = *profile;
  rules.stream.max_rank = o.max_rank;
  rules.stream.reach_set = !o.no_reach_set;
  rules.stream.size_set = !o.no_size_set;
  for (const std::string& name : o.types) {
    const std::optional<ElementType> t = element_type_from_name(name);
    if (!t) throw GateInputError("--types: unknown element type '" + name + "'");
    rules.stream.types.push_back(*t);
  }
  return rules;
}

// A count: at most 12 digits; -1 for anything else.
int64_t plain_count(const std::string& value) {
  const bool digits = !value.empty() && value.size() <= 12 &&
                      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  return digits ? std::stoll(value) : -1;
}

// A count of bytes: plain_count with an optional K, M or G (binary) suffix;
// -1 for anything else.
int64_t byte_count(std::string value) {
  int64_t scale = 1;
  if (!value.empty()) {
    const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(value.back())));
    const int shift = unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0;
    if (shift) {
      scale = int64_t{1} << shift;
      value.pop_back();
    }
  }
  const int64_t n = plain_count(value);
  return n < 0 ? -1 : n * scale;
}

// --limit cpu=S,memory=B,files=N,processes=N over the defaults of conformance/process.h.
ProcessLimits process_limits(const std::vector<std::string>& specs) {
  ProcessLimits limits;
  for (const std::string& spec : specs) {
    const size_t eq = spec.find('=');
    const std::string key = spec.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : spec.substr(eq + 1);
    const int64_t n = key == "memory" ? byte_count(value) : plain_count(value);
    int64_t* field = key == "cpu"      ? &limits.cpu_seconds
                     : key == "memory" ? &limits.address_space_bytes
                     : key == "files"  ? &limits.open_files
                     : key == "processes" ? &limits.processes
                                       : nullptr;
    if (!field || n < 0) {
      throw GateInputError("--limit: expected cpu=SECONDS, memory=BYTES, files=N or processes=N, got '" +
                  spec + "'");
    }
    *field = n;
  }
  return limits;
}

// What throws Error on bad input, as a GateInputError.
template <class Read>
auto input(Read read) {
  try {
    return read();
  } catch (const GateInputError&) {
    throw;
  } catch (const Error& e) {
    throw GateInputError(e.what());
  }
}

}  // namespace

ConformanceReport run_gate(const GateRun& run, const GateOptions& options) {
  // Bad --layout text is bad input before anything is started.
  std::vector<ShapeWithLayout> given;
  for (const std::string& text : run.layouts) given.push_back(input([&] { return spec::parse_layout(text); }));
  const RunRules rules = run_rules(run);
  const ProcessLimits limits = process_limits(run.limits);
  GateOptions run_options = options;
  run_options.padding = run.padding;
  run_options.max_array_bytes = byte_count(run.max_array_bytes);
  run_options.shrink_seconds = run.shrink_seconds;
  if (run_options.max_array_bytes < 1) {
    throw GateInputError("--max-array-bytes: expected a positive byte count (digits, optional K, M or G), got '" +
                         run.max_array_bytes + "'");
  }
  std::optional<ReplayFile> replay_file;
  if (!run.replay.empty()) {
    replay_file = input([&] { return read_replay(run.replay); });
    run_options.seed = replay_file->seed;
    run_options.padding = replay_file->padding;
    run_options.size_model = replay_file->size_model;
  }
  std::unique_ptr<ImplUnderTest> impl;
  if (!run.impl_command.empty()) {
    impl = std::make_unique<CommandWorker>(run.impl_command, run.timeout_seconds, limits);
  } else {
    impl = std::make_unique<ImplWorker>(run.impl_path, run.timeout_seconds, limits);
  }
  ConformanceReport report = replay_file ? replay(*impl, replay_file->sequences, run_options, rules)
                                         : conformance::run(*impl, given, run_options, rules);
  const bool failed = std::any_of(report.functions.begin(), report.functions.end(),
                                  [](const FunctionReport& f) { return f.failure.has_value(); });
  const std::string replay_path = replay_file ? run.replay : failed ? run.write_replay : "";
  if (!replay_path.empty() && !replay_file) write_replay(replay_path, report, run_options);
  // A failure shown after earlier cases is reproduced by its sequence.
  for (FunctionReport& f : report.functions) {
    if (!f.failure || !f.failure->minimal.earlier_found) continue;
    f.failure->reproduce = replay_path.empty()
                               ? "--write-replay FILE writes its sequence; then tilecheck gate " + report.gate_flag +
                                     " --replay FILE"
                               : "tilecheck gate " + report.gate_flag + " --replay " + shell_quote(replay_path);
  }
  return report;
}

std::optional<std::string> nothing_checked(const ConformanceReport& report) {
  if (report.checked_anything()) return std::nullopt;
  // The first operation it offers, and how many layouts it was asked.
  const auto first = std::find_if(report.functions.begin(), report.functions.end(),
                                  [](const FunctionReport& f) { return f.exported; });
  const int64_t asked = first == report.functions.end() ? 0 : first->layouts_skipped;
  return "'" + report.impl + "' supports none of the " + std::to_string(asked) +
         " layouts it was asked about: every answer was 'not supported'" +
         (report.unclaimed_layouts ? " (" + std::to_string(report.unclaimed_layouts) +
                                         " more it does not claim were not sent)"
                                   : std::string());
}

}  // namespace tilecheck::conformance
