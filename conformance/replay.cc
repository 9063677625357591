#include "conformance/replay.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "conformance/phases.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {

using check::GateOptions;

void write_replay(const std::string& path, const ConformanceReport& report, const GateOptions& options) {
  std::ofstream out(path);
  out << nlohmann::json{{"tilecheck_replay", 1},
                        {"seed", options.seed},
                        {"padding", options.padding == GateOptions::Padding::kAny ? "any" : "zero"},
                        {"size_model", options.size_model == GateOptions::SizeModel::kXla ? "xla" : "exact"}}
             .dump()
      << "\n";
  int sequence = 0;
  for (const FunctionReport& f : report.functions) {
    if (!f.failure) continue;
    ++sequence;
    const std::vector<RequestCase> cases = f.failure->minimal.sequence(f.function);
    for (size_t i = 0; i < cases.size(); ++i) {
      nlohmann::json line = {{"sequence", sequence}, {"case", cases[i].id()}};
      if (i + 1 == cases.size()) line["failed"] = f.failure->minimal.verdict.problem;
      out << line.dump() << "\n";
    }
  }
  if (!out) throw Error("--write-replay: cannot write '" + path + "'");
}

ReplayFile read_replay(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("--replay: cannot read '" + path + "'");
  ReplayFile file;
  std::string text;
  int line_number = 0;
  int64_t last_sequence = 0;
  while (std::getline(in, text)) {
    ++line_number;
    const std::string where = "--replay: " + path + ":" + std::to_string(line_number) + ": ";
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json line = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!line.is_object()) throw Error(where + "not a JSON object");
    try {
      if (line_number == 1) {
        if (line.value("tilecheck_replay", 0) != 1) {
          throw Error("the first line must be {\"tilecheck_replay\": 1, ...} (a replay file of this version)");
        }
        file.seed = line.value("seed", uint64_t{1});
        const std::string padding = line.value("padding", "zero"), model = line.value("size_model", "exact");
        if (padding != "zero" && padding != "any") throw Error("padding must be \"zero\" or \"any\"");
        if (model != "exact" && model != "xla") throw Error("size_model must be \"exact\" or \"xla\"");
        file.padding = padding == "any" ? GateOptions::Padding::kAny : GateOptions::Padding::kZero;
        file.size_model = model == "xla" ? GateOptions::SizeModel::kXla : GateOptions::SizeModel::kExact;
        continue;
      }
      const int64_t sequence = line.value("sequence", int64_t{0});
      if (!line.contains("case") || !line["case"].is_string()) throw Error("no \"case\" text");
      if (sequence < 1 || sequence < last_sequence) {
        throw Error("\"sequence\" must be a number from 1, never going down");
      }
      if (sequence != last_sequence) file.sequences.emplace_back();
      last_sequence = sequence;
      file.sequences.back().push_back(parse_case_id(line["case"].get<std::string>()));
    } catch (const nlohmann::json::exception& e) {
      throw Error(where + e.what());
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
  }
  if (line_number == 0) throw Error("--replay: '" + path + "' is empty");
  if (file.sequences.empty()) throw Error("--replay: '" + path + "' holds no case");
  return file;
}

ConformanceReport replay(ImplUnderTest& impl, const std::vector<std::vector<RequestCase>>& sequences,
                         const GateOptions& options, const RunRules& rules) {
  ConformanceReport report = empty_report(impl, options, rules);
  Checker checker(impl, options);
  for (size_t k = 0; k < sequences.size(); ++k) {
    ++report.replayed_sequences;
    impl.start_afresh();
    const std::vector<RequestCase>& sequence = sequences[k];
    for (size_t i = 0; i < sequence.size(); ++i) {
      const RequestCase& c = sequence[i];
      FunctionReport& fr = report.functions[static_cast<size_t>(c.function)];
      const std::string origin = "replay sequence " + std::to_string(k + 1) + ", case " + std::to_string(i + 1) +
                                 " of " + std::to_string(sequence.size());
      if (!fr.exported) throw Error(origin + " asks " + function_name(c.function) + ", which the implementation does not offer");
      if (const auto why = impl.unclaimed(c.shape)) throw Error(origin + ": the implementation does not claim " + print_shape(c.shape) + " (" + *why + ")");
      ask(impl, checker, options, rules, report, fr, origin, c.shape, OnFailure::kAsFound);
    }
  }
  return report;
}

}  // namespace tilecheck::conformance
