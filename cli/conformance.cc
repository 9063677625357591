#include "cli/conformance.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/common.h"
#include "conformance/command_worker.h"
#include "conformance/coverage.h"
#include "conformance/replay.h"
#include "conformance/runner.h"
#include "conformance/worker.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {
namespace {

using conformance::ConformanceReport;
using conformance::FailureReport;
using conformance::FunctionReport;
using conformance::function_name;
using conformance::Shrunk;

std::string layouts_line(const ConformanceReport& r) {
  if (r.replayed_sequences) {
    return std::to_string(r.replayed_sequences) + " request sequence" + (r.replayed_sequences == 1 ? "" : "s") +
           " from --replay, each asked of a new process (seed " + std::to_string(r.seed) + ")";
  }
  if (r.given_layouts) return std::to_string(r.given_layouts) + " given with --layout";
  const conformance::LayoutStream& stream = r.rules.stream;
  const std::string profile = stream.profile == gen::Profile::kGeneral
                                  ? ""
                                  : "profile " + std::string(gen::profile_name(stream.profile)) + ", ";
  return std::to_string(r.catalogue_layouts) + " from the catalogue, " + std::to_string(r.reach_layouts) +
         " from the reach set" +
         (stream.size_set ? ", " + std::to_string(r.size_layouts) + " at size" +
                                (r.size_over_limit ? " (" + std::to_string(r.size_over_limit) +
                                                         " more past --max-array-bytes)"
                                                   : std::string())
                          : std::string()) +
         (r.narrowed_layouts ? " (" + std::to_string(r.narrowed_layouts) +
                                   " more left out by --max-rank or --types)"
                             : std::string()) +
         ", then " + std::to_string(r.generated_layouts) + " generated (" + profile + "seed " +
         std::to_string(r.seed) + ")";
}

using conformance::CaseOutcome;
using Status = CaseOutcome::Status;

// Counts of cases per operation and element type.
struct TypeCounts {
  std::string function, type;
  std::map<Status, int64_t> count;
};
std::vector<TypeCounts> counts_by_type(const ConformanceReport& r) {
  std::vector<TypeCounts> out;
  for (const CaseOutcome& c : r.cases) {
    const std::string f = function_name(c.function), t(element_type_name(c.type));
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const TypeCounts& k) { return k.function == f && k.type == t; });
    if (it == out.end()) it = out.insert(out.end(), TypeCounts{f, t, {}});
    ++it->count[c.status];
  }
  // Operation by operation, in the table's order.
  const auto rank = [](const std::string& f) {
    const std::optional<conformance::ImplFunction> g = conformance::function_named(f);
    return g ? static_cast<size_t>(*g) : std::size(conformance::kFunctions);
  };
  std::stable_sort(out.begin(), out.end(), [&](const TypeCounts& a, const TypeCounts& b) {
    return rank(a.function) < rank(b.function);
  });
  return out;
}

// Skips and failures by operation and element type, the cases skipped
// although claimed, and the known gaps (--skip) and how they went.
void print_case_summary(std::ostream& out, const ConformanceReport& r) {
  bool header = false;
  for (const TypeCounts& k : counts_by_type(r)) {
    const auto n = [&](Status s) {
      const auto it = k.count.find(s);
      return it == k.count.end() ? int64_t{0} : it->second;
    };
    if (n(Status::kSkipped) + n(Status::kFailed) + n(Status::kNotRun) + n(Status::kNotSent) == 0) continue;
    if (!header) {
      out << "\nby element type, where cases were skipped or failed:\n"
          << "  " << std::setw(14) << "function" << std::setw(12) << "type" << std::setw(9)
          << "passed" << std::setw(9) << "skipped" << std::setw(8) << "failed" << std::setw(9)
          << "not run" << "not sent\n";
      header = true;
    }
    out << "  " << std::setw(14) << k.function << std::setw(12) << k.type << std::setw(9)
        << n(Status::kPassed) << std::setw(9) << n(Status::kSkipped) << std::setw(8)
        << n(Status::kFailed) << std::setw(9) << n(Status::kNotRun) << n(Status::kNotSent) << "\n";
  }
  const auto list = [&](const std::vector<const CaseOutcome*>& cases, const std::string& what) {
    if (cases.empty()) return;
    out << "\n" << what << ": " << cases.size() << " case" << (cases.size() == 1 ? "" : "s")
        << "\n";
    constexpr size_t kShown = 5;
    for (size_t i = 0; i < cases.size() && i < kShown; ++i) out << "  " << cases[i]->id() << "\n";
    if (cases.size() > kShown) out << "  ... and " << cases.size() - kShown << " more\n";
  };
  list(r.cases_with(Status::kSkipped, false),
       "skipped although claimed (this fails the gate; --skip or --skip-file accepts them "
       "as known gaps, --write-skips FILE writes them all)");
  std::vector<const CaseOutcome*> not_sent = r.cases_with(Status::kNotSent, false);
  for (const CaseOutcome* c : r.cases_with(Status::kNotSent, true)) not_sent.push_back(c);
  if (!not_sent.empty()) {
    out << "\nnot sent by the gate (its own limits, not the implementation's skips; they do not fail "
           "the gate): "
        << not_sent.size() << " case" << (not_sent.size() == 1 ? "" : "s") << "\n";
    constexpr size_t kShown = 5;
    for (size_t i = 0; i < not_sent.size() && i < kShown; ++i) {
      out << "  " << not_sent[i]->id() << "  (" << not_sent[i]->problem << ")\n";
    }
    if (not_sent.size() > kShown) out << "  ... and " << not_sent.size() - kShown << " more\n";
  }
  if (!r.rules.gaps.patterns.empty()) {
    size_t listed = 0;
    for (const CaseOutcome& c : r.cases) listed += c.listed;
    out << "\nknown gaps (--skip): " << listed << " cases matched, "
        << r.cases_with(Status::kFailed, true).size() << " failed, "
        << r.cases_with(Status::kSkipped, true).size() << " skipped, "
        << r.cases_with(Status::kPassed, true).size() << " passed\n";
    list(r.cases_with(Status::kPassed, true),
         std::string("listed as known gaps but passing") +
             (r.rules.gaps.must_fail ? " (this fails the gate: --skips-must-fail)"
                                     : " (remove them from the list)"));
  }
  const std::vector<conformance::ImplFunction> missing = r.missing_required();
  for (conformance::ImplFunction f : missing) {
    out << "\nrequired (--require) but " << (r.functions[static_cast<int>(f)].exported ? "answered on no layout" : "not offered") << ": " << function_name(f) << "\n";
  }
}

// One letter per operation in the coverage table.
char function_letter(conformance::ImplFunction f) {
  static const char letters[] = "ipbduro";  // in kFunctions order
  return letters[static_cast<int>(f)];
}

std::string cell_name(const conformance::CoverageCell& c) {
  return c.feature + ", " + c.order + " order, " + c.width + ", " + function_name(c.function);
}

// --coverage: per form and dim order, per width class, the letters of the
// operations that answered a case there ('.': required, not reached; '-':
// not required).
void print_coverage(std::ostream& out, const ConformanceReport& r) {
  const conformance::Coverage cov = conformance::coverage_of(r);
  std::string legend;
  for (const FunctionReport& f : r.functions) {
    if (f.exported) legend += std::string(legend.empty() ? "" : " ") + function_letter(f.function) + "=" + function_name(f.function);
  }
  out << "\ncoverage: operations that answered a case (" << legend
      << "; '.' required but not reached, '-' not required):\n  " << std::left << std::setw(18) << "form"
      << std::setw(9) << "order";
  for (const std::string& w : conformance::coverage_width_classes()) out << std::setw(10) << w;
  out << "\n";
  for (const std::string& feature : conformance::coverage_features()) {
    for (const char* order : {"default", "other"}) {
      out << "  " << std::setw(18) << feature << std::setw(9) << order;
      for (const std::string& w : conformance::coverage_width_classes()) {
        std::string cell;
        for (const FunctionReport& f : r.functions) {
          if (!f.exported) continue;
          const conformance::CoverageCell c{feature, order, w, f.function};
          cell += cov.reached.count(c) ? function_letter(f.function) : cov.required.count(c) ? '.' : '-';
        }
        out << std::setw(10) << cell;
      }
      out << "\n";
    }
  }
  out << std::right;
  out << "holes (required, not reached): " << (cov.holes.empty() ? "none" : std::to_string(cov.holes.size())) << "\n";
  for (const conformance::CoverageCell& c : cov.holes) out << "  " << cell_name(c) << "\n";
  if (!cov.unclaimed.empty()) {
    out << "not reached because no type of the width class is claimed: " << cov.unclaimed.size() << " cells\n";
  }
}

nlohmann::json coverage_json(const ConformanceReport& r) {
  const conformance::Coverage cov = conformance::coverage_of(r);
  const auto cell_json = [](const conformance::CoverageCell& c) {
    return nlohmann::json{{"form", c.feature}, {"order", c.order}, {"width", c.width}, {"function", function_name(c.function)}};
  };
  nlohmann::json reached = nlohmann::json::array(), holes = nlohmann::json::array(), unclaimed = nlohmann::json::array();
  for (const auto& [c, n] : cov.reached) {
    nlohmann::json j = cell_json(c);
    j["cases"] = n;
    reached.push_back(j);
  }
  for (const conformance::CoverageCell& c : cov.holes) holes.push_back(cell_json(c));
  for (const conformance::CoverageCell& c : cov.unclaimed) unclaimed.push_back(cell_json(c));
  return {{"reached", reached}, {"holes", holes}, {"unclaimed", unclaimed}};
}

void print_text(std::ostream& out, const ConformanceReport& r, bool with_coverage) {
  out << "conformance of " << r.impl << " to the spec\n"
      << "layouts: " << layouts_line(r) << "\n";
  if (r.padding_any) out << "padding: not compared (--padding any)\n";
  if (r.unclaimed_layouts) {
    out << "not claimed by the implementation (never sent): " << r.unclaimed_layouts
        << " of them\n";
  }
  out << "\n";
  out << std::left << std::setw(14) << "function" << std::setw(14) << "result" << std::setw(17)
      << "layouts checked" << std::setw(9) << "skipped" << std::setw(8) << "failed"
      << "cases checked\n";
  for (const FunctionReport& f : r.functions) {
    out << std::setw(14) << function_name(f.function);
    if (!f.exported) out << f.result();
    if (f.exported) {
      out << std::setw(14) << f.result() << std::setw(17) << f.layouts_checked << std::setw(9) << f.layouts_skipped
          << std::setw(8) << f.layouts_failed << f.cases << " " << case_unit(f.function);
      if (f.stopped) out << " (stopped after a hang)";
    }
    out << "\n";
  }
  print_case_summary(out, r);
  for (const FunctionReport& f : r.functions) {
    if (!f.failure) continue;
    const FailureReport& fail = *f.failure;
    const Shrunk& m = fail.minimal;
    out << "\nFAILED " << function_name(f.function) << ": " << m.verdict.problem << "\n"
        << "  found on:      " << fail.origin << ": " << fail.original_layout << "\n"
        << "  minimal case (" << m.steps << " shrinking step" << (m.steps == 1 ? "" : "s")
        << (m.out_of_time ? "; stopped at --shrink-seconds, maybe not minimal" : "") << "):\n";
    const auto detail = [&](const std::string& what, const std::string& value) {
      out << "    " << std::setw(22) << what << value << "\n";
    };
    detail("layout", print_shape(m.shape));
    for (const auto& [what, value] : m.verdict.details) detail(what, value);
    if (m.depends_on_earlier_requests) {
      out << "  alone:         passes when asked first of a new process: this failure depends on the requests "
             "before it (the implementation keeps state between requests)\n";
      if (!m.earlier_found) {
        out << "  fails after:   no sequence of the cases asked before it made it fail again in a new process "
               "within --shrink-seconds; the reproduce line, which asks it alone, may pass\n";
      }
    }
    if (m.earlier_found) {
      out << "  fails after:   " << m.earlier.size() << " case" << (m.earlier.size() == 1 ? "" : "s")
          << (m.depends_on_earlier_requests ? ", asked first of a new process (the shortest sequence found):\n"
                                            : " of its sequence, asked first of a new process:\n");
      for (const conformance::RequestCase& c : m.earlier) out << "                   " << c.id() << "\n";
    }
    out << "  reproduce:     " << fail.reproduce << "\n";
    if (!m.verdict.spec_command.empty())
      out << "  the spec says: " << m.verdict.spec_command << "\n";
  }
  if (with_coverage) print_coverage(out, r);
  out << "\n";
  const std::vector<std::string> failed = r.failures();
  if (!r.checked_anything()) {
    out << "conformance: nothing checked\n";
  } else if (failed.empty()) {
    const size_t not_sent = r.cases_with(Status::kNotSent, false).size() + r.cases_with(Status::kNotSent, true).size();
    out << "conformance: passed";
    if (not_sent) out << " (" << not_sent << " case" << (not_sent == 1 ? "" : "s") << " not sent: gate limits)";
    out << "\n";
  } else {
    std::string names;
    for (const std::string& n : failed) names += (names.empty() ? "" : ", ") + n;
    out << "conformance: FAILED (" << names << ")\n";
  }
}

void print_json_report(std::ostream& out, const ConformanceReport& r, bool with_coverage) {
  nlohmann::json functions = nlohmann::json::array();
  for (const FunctionReport& f : r.functions) {
    nlohmann::json j = {{"function", function_name(f.function)},
                        {"exported", f.exported},
                        {"result", f.result()},
                        {"layouts_checked", f.layouts_checked},
                        {"layouts_skipped", f.layouts_skipped},
                        {"layouts_not_sent", f.layouts_not_sent},
                        {"layouts_failed", f.layouts_failed},
                        {"stopped_after_a_hang", f.stopped},
                        {"cases_checked", f.cases},
                        {"case_unit", case_unit(f.function)}};
    if (f.failure) {
      const Shrunk& m = f.failure->minimal;
      nlohmann::json details = nlohmann::json::object();
      for (const auto& [what, value] : m.verdict.details) details[what] = value;
      // The cases after which it fails in a new process; null when it
      // depends on earlier requests and no such sequence was found.
      nlohmann::json earlier = nlohmann::json::array();
      for (const conformance::RequestCase& c : m.earlier) earlier.push_back(c.id());
      if (m.depends_on_earlier_requests && !m.earlier_found) earlier = nullptr;
      j["failure"] = {{"problem", m.verdict.problem},
                      {"found_on", f.failure->origin},
                      {"original_layout", f.failure->original_layout},
                      {"minimal_layout", print_shape(m.shape)},
                      {"shrinking_steps", m.steps},
                      {"shrinking_stopped_by_time", m.out_of_time},
                      {"depends_on_earlier_requests", m.depends_on_earlier_requests},
                      {"fails_after", earlier},
                      {"details", details},
                      {"reproduce", f.failure->reproduce},
                      {"spec_command", m.verdict.spec_command}};
    }
    functions.push_back(j);
  }
  nlohmann::json by_type = nlohmann::json::array();
  for (const TypeCounts& k : counts_by_type(r)) {
    nlohmann::json j = {{"function", k.function}, {"element_type", k.type}};
    for (Status st : {Status::kPassed, Status::kSkipped, Status::kFailed, Status::kNotRun, Status::kNotSent}) {
      const auto it = k.count.find(st);
      j[conformance::status_name(st)] = it == k.count.end() ? 0 : it->second;
    }
    by_type.push_back(j);
  }
  const auto ids = [&](Status st, bool listed) {
    nlohmann::json list = nlohmann::json::array();
    for (const CaseOutcome* c : r.cases_with(st, listed)) list.push_back(c->id());
    return list;
  };
  nlohmann::json not_sent = nlohmann::json::array();
  for (const CaseOutcome& c : r.cases) {
    if (c.status == Status::kNotSent) not_sent.push_back({{"case", c.id()}, {"why", c.problem}});
  }
  nlohmann::json report = {{"report_version", 1},
                        {"impl", r.impl},
                        {"ok", r.ok() && r.checked_anything()},
                        {"failures", r.failures()},
                        {"padding", r.padding_any ? "any" : "zero"},
                        {"cases_by_element_type", by_type},
                        {"skipped_although_claimed", ids(Status::kSkipped, false)},
                        {"not_sent", not_sent},
                        {"known_gaps",
                         {{"patterns", r.rules.gaps.patterns},
                          {"failed", ids(Status::kFailed, true)},
                          {"skipped", ids(Status::kSkipped, true)},
                          {"passed", ids(Status::kPassed, true)}}},
                        {"seed", r.seed},
                        {"replayed_sequences", r.replayed_sequences},
                        {"layouts",
                         {{"catalogue", r.catalogue_layouts},
                          {"reach", r.reach_layouts},
                          {"size", r.size_layouts},
                          {"size_over_limit", r.size_over_limit},
                          {"generated", r.generated_layouts},
                          {"given", r.given_layouts},
                          {"unclaimed", r.unclaimed_layouts}}},
                        {"functions", functions}};
  if (with_coverage) report["coverage"] = coverage_json(r);
  out << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

// --skip, --skip-file, --skips-must-fail and --require as the runner's rules.
conformance::RunRules run_rules(const ConformanceOptions& o) {
  conformance::RunRules rules;
  rules.gaps.patterns = o.skip_patterns;
  rules.gaps.must_fail = o.skips_must_fail;
  if (!o.skip_file.empty()) {
    std::ifstream in(o.skip_file);
    if (!in) throw Error("--skip-file: cannot read '" + o.skip_file + "'");
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
    const std::optional<conformance::ImplFunction> f = conformance::function_named(name);
    if (!f) throw Error("--require: unknown operation '" + name + "' (known: " + conformance::function_names() + ")");
    rules.required.push_back(*f);
  }
  rules.stream.profile = *gen::profile_from_name(o.profile);
  rules.stream.max_rank = o.max_rank;
  rules.stream.reach_set = !o.no_reach_set;
  rules.stream.size_set = !o.no_size_set;
  for (const std::string& name : o.types) {
    const std::optional<ElementType> t = element_type_from_name(name);
    if (!t) throw Error("--types: unknown element type '" + name + "'");
    rules.stream.types.push_back(*t);
  }
  return rules;
}

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab and newlines.
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') ? '?' : c;
    }
  }
  return out;
}

// --junit: JUnit XML, one test suite per operation and one test case per
// case id, as CI systems (GitLab, Jenkins, GitHub actions that read JUnit)
// show them. A failure, or a skip the implementation claimed, is a
// <failure>; a known gap (--skip) that failed or was skipped is <skipped>;
// the first failure carries its minimal case and reproducing command.
void write_junit(const std::string& path, const ConformanceReport& r) {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"tilecheck gate: " << xml_escaped(r.impl) << "\">\n";
  for (const FunctionReport& f : r.functions) {
    if (!f.exported) continue;
    const std::string op = function_name(f.function);
    std::vector<const CaseOutcome*> cases;
    for (const CaseOutcome& c : r.cases) {
      if (c.function == f.function) cases.push_back(&c);
    }
    size_t failures = 0, skipped = 0;
    for (const CaseOutcome* c : cases) {
      const bool bad = c->status == Status::kFailed || c->status == Status::kSkipped;
      failures += bad && !c->listed;
      skipped += (bad && c->listed) || c->status == Status::kNotRun || c->status == Status::kNotSent;
    }
    xml << "  <testsuite name=\"" << op << "\" tests=\"" << cases.size() << "\" failures=\""
        << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n";
    bool first_failure = true;
    for (const CaseOutcome* c : cases) {
      xml << "    <testcase classname=\"" << op << "\" name=\"" << xml_escaped(c->layout) << "\"";
      const bool bad = c->status == Status::kFailed || c->status == Status::kSkipped;
      if (c->status == Status::kPassed) {
        xml << "/>\n";
        continue;
      }
      xml << ">\n";
      if (c->status == Status::kNotRun) {
        xml << "      <skipped message=\"not run: the operation hung before\"/>\n";
      } else if (c->status == Status::kNotSent) {
        xml << "      <skipped message=\"not sent: " << xml_escaped(c->problem) << "\"/>\n";
      } else if (bad && c->listed) {
        xml << "      <skipped message=\"known gap (--skip): " << status_name(c->status) << "\"/>\n";
      } else if (c->status == Status::kSkipped) {
        xml << "      <failure message=\"skipped although claimed\"/>\n";
      } else {
        xml << "      <failure message=\"" << xml_escaped(c->problem) << "\"";
        if (first_failure && f.failure) {
          first_failure = false;
          const Shrunk& m = f.failure->minimal;
          xml << ">minimal case: " << xml_escaped(print_shape(m.shape)) << "\n";
          for (const auto& [what, value] : m.verdict.details) {
            xml << xml_escaped(what) << ": " << xml_escaped(value) << "\n";
          }
          xml << "reproduce: " << xml_escaped(f.failure->reproduce) << "</failure>\n";
        } else {
          xml << "/>\n";
        }
      }
      xml << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  std::ofstream out(path);
  out << xml.str();
  if (!out) throw Error("--junit: cannot write '" + path + "'");
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
conformance::ProcessLimits process_limits(const std::vector<std::string>& specs) {
  conformance::ProcessLimits limits;
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
      throw Error("--limit: expected cpu=SECONDS, memory=BYTES, files=N or processes=N, got '" +
                  spec + "'");
    }
    *field = n;
  }
  return limits;
}

// --write-skips: today's failing and skipped cases, one id per line.
void write_skips(const std::string& path, const ConformanceReport& r) {
  std::ofstream out(path);
  out << "# tilecheck gate --skip-file: the cases of " << r.impl
      << " that failed or were skipped\n";
  for (const CaseOutcome& c : r.cases) {
    if (c.status == Status::kFailed || c.status == Status::kSkipped) {
      out << c.id() << "  # " << conformance::status_name(c.status) << "\n";
    }
  }
  if (!out) throw Error("--write-skips: cannot write '" + path + "'");
}

}  // namespace

void add_conformance_options(CLI::App* gate, ConformanceOptions& options) {
  gate->add_option("--impl", options.impl_path,
                   "check the implementation in this shared library against the spec instead "
                   "(tilecheck/conformance_plugin.h); --cases generated layouts after the catalogue");
  gate->add_option("--impl-cmd", options.impl_command,
                   "check the implementation this shell command runs, speaking JSON Lines on its "
                   "standard input and output (docs/PROTOCOL.md)")
      ->excludes(gate->get_option("--impl"));
  gate->add_option("--skip", options.skip_patterns,
                   "with --impl or --impl-cmd: a known gap, a glob over case ids "
                   "OPERATION:LAYOUT (e.g. 'pack:s4*'); its failure or skip does not fail the "
                   "gate (repeatable)");
  gate->add_option("--skip-file", options.skip_file,
                   "read --skip patterns from this file: the first word of each line ('#' "
                   "starts a comment line)");
  gate->add_option("--write-skips", options.write_skips,
                   "write the ids of today's failing and skipped cases to this file, for "
                   "--skip-file");
  gate->add_option("--junit", options.junit,
                   "also write the verdict as JUnit XML to this file (one test case per case id)");
  gate->add_flag("--skips-must-fail", options.skips_must_fail,
                 "a case listed as a known gap that passes fails the gate");
  gate->add_option("--profile", options.profile,
                   "with --impl or --impl-cmd: the generated layouts: general (every form), tpu "
                   "(the TPU formats on real-world shapes) or gpu (small tiles, sub-byte types)")
      ->check(CLI::IsMember({"general", "tpu", "gpu"}))
      ->capture_default_str();
  gate->add_option("--max-rank", options.max_rank,
                   "with --impl or --impl-cmd: only layouts of at most this rank")
      ->check(CLI::Range(int64_t{0}, int64_t{64}));
  gate->add_option("--types", options.types,
                   "with --impl or --impl-cmd: only layouts of these element types "
                   "(comma-separated XLA names)")
      ->delimiter(',');
  gate->add_option("--limit", options.limits,
                   "with --impl or --impl-cmd: a resource limit of the implementation's "
                   "processes: cpu=SECONDS (default 3600), memory=BYTES (address space, K/M/G "
                   "suffixes, default 16G), files=N (default 256), processes=N (the user's "
                   "processes, default 4096; root is exempt); 0 lifts it (repeatable or "
                   "comma-separated)")
      ->delimiter(',');
  gate->add_option("--padding", options.padding,
                   "with --impl or --impl-cmd: zero (pack must write zero padding, D8) or any "
                   "(the implementation leaves padding undefined: only elements are compared)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, GateOptions::Padding>{{"zero", GateOptions::Padding::kZero},
                                                      {"any", GateOptions::Padding::kAny}}))
      ->capture_default_str();
  gate->add_option("--require", options.required,
                   "these operations must be offered and answered (comma-separated: "
                   "linear_index, pack, byte_size, delinearize)")
      ->delimiter(',');
  gate->add_option("--max-array-bytes", options.max_array_bytes,
                   "with --impl or --impl-cmd: the largest dense or physical buffer the gate sends or "
                   "asks for (K/M/G suffixes); a pack, unpack or relayout past it is reported as not "
                   "sent (gate limit) and does not fail the gate; the size set sends its layouts within "
                   "it (16M sends them all)")
      ->capture_default_str();
  gate->add_flag("--coverage", options.coverage,
                 "with --impl or --impl-cmd: also print what the run reached, by form of layout, dim "
                 "order, element width and operation, and the holes (with --json: a \"coverage\" "
                 "object)");
  gate->add_flag("--no-reach-set", options.no_reach_set,
                 "with --impl or --impl-cmd: leave out the reach set (docs/PROTOCOL.md, \"What the gate sends\"): "
                 "the catalogue and the generated layouts only, for a quick run");
  gate->add_flag("--no-size-set", options.no_size_set,
                 "with --impl or --impl-cmd: leave out the size set (docs/GATE.md, \"Data movement at size\"): "
                 "pack, unpack and relayout of every width class's TPU format past 2^16 and 2^20 elements");
  gate->add_option("--write-replay", options.write_replay,
                   "with --impl or --impl-cmd: after a failure, write to this file the request sequence "
                   "of each failure (the failing case, after the earlier cases it depends on) for --replay");
  gate->add_option("--replay", options.replay,
                   "with --impl or --impl-cmd: ask the request sequences of this file (--write-replay), each "
                   "of a new process, instead of the catalogue and generated layouts; its seed, padding and "
                   "size model are used")
      ->excludes("--layout");
  gate->add_option("--shrink-seconds", options.shrink_seconds,
                   "with --impl or --impl-cmd: the time shrinking one failure may take; past it the "
                   "smallest failing case found so far is reported, marked as such")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  gate->add_option(
          "--timeout", options.timeout_seconds,
          "with --impl or --impl-cmd: seconds to wait for one answer before the implementation counts as hung "
          "(loading the library gets at least 30)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
}

void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json) {
  // Bad --layout text is bad input (exit 2) before anything is loaded.
  std::vector<ShapeWithLayout> given;
  for (const std::string& text : layouts) given.push_back(parse_layout_argument(text));
  const conformance::RunRules rules = run_rules(conformance);
  const conformance::ProcessLimits limits = process_limits(conformance.limits);
  GateOptions run_options = options;
  run_options.padding = conformance.padding;
  run_options.max_array_bytes = byte_count(conformance.max_array_bytes);
  run_options.shrink_seconds = conformance.shrink_seconds;
  if (run_options.max_array_bytes < 1) {
    throw Error("--max-array-bytes: expected a positive byte count (digits, optional K, M or G), got '" +
                conformance.max_array_bytes + "'");
  }
  std::optional<conformance::ReplayFile> replay_file;
  if (!conformance.replay.empty()) {
    replay_file = conformance::read_replay(conformance.replay);
    run_options.seed = replay_file->seed;
    run_options.padding = replay_file->padding;
    run_options.size_model = replay_file->size_model;
  }
  std::unique_ptr<conformance::ImplUnderTest> impl;
  if (!conformance.impl_command.empty()) {
    impl = std::make_unique<conformance::CommandWorker>(conformance.impl_command,
                                                        conformance.timeout_seconds, limits);
  } else {
    impl = std::make_unique<conformance::ImplWorker>(conformance.impl_path,
                                                     conformance.timeout_seconds, limits);
  }
  ConformanceReport report = replay_file ? conformance::replay(*impl, replay_file->sequences, run_options, rules)
                                         : conformance::run(*impl, given, run_options, rules);
  const bool failed = std::any_of(report.functions.begin(), report.functions.end(),
                                  [](const FunctionReport& f) { return f.failure.has_value(); });
  const std::string replay_path = replay_file ? conformance.replay : failed ? conformance.write_replay : "";
  if (!replay_path.empty() && !replay_file) conformance::write_replay(replay_path, report, run_options);
  // A failure shown after earlier cases is reproduced by its sequence.
  for (FunctionReport& f : report.functions) {
    if (!f.failure || !f.failure->minimal.earlier_found) continue;
    f.failure->reproduce = replay_path.empty()
                               ? "--write-replay FILE writes its sequence; then tilecheck gate " + report.gate_flag +
                                     " --replay FILE"
                               : "tilecheck gate " + report.gate_flag + " --replay " + conformance::shell_quote(replay_path);
  }
  if (json) {
    print_json_report(std::cout, report, conformance.coverage);
  } else {
    print_text(std::cout, report, conformance.coverage);
  }
  if (!conformance.write_skips.empty()) write_skips(conformance.write_skips, report);
  if (!conformance.junit.empty()) write_junit(conformance.junit, report);
  if (report.checked_anything() && !report.ok()) throw ChecksFailed{};
  if (!report.checked_anything()) {
    // The first operation it offers, and how many layouts it was asked.
    const auto first = std::find_if(report.functions.begin(), report.functions.end(),
                                    [](const FunctionReport& f) { return f.exported; });
    const int64_t asked = first == report.functions.end() ? 0 : first->layouts_skipped;
    throw Error("'" + report.impl + "' supports none of the " + std::to_string(asked) +
                " layouts it was asked about: every answer was 'not supported'" +
                (report.unclaimed_layouts ? " (" + std::to_string(report.unclaimed_layouts) +
                                                " more it does not claim were not sent)"
                                          : std::string()));
  }
}

}  // namespace tilecheck::cli
