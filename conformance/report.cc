// The report's model (conformance/report.h), its JSON rendering and the
// skips file.
#include "conformance/report.h"

#include <fnmatch.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "conformance/coverage.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {

using Status = CaseOutcome::Status;

namespace {

// Each function's name, what one of its cases is, and its export flag.
struct FunctionInfo {
  const char* name;
  const char* case_unit;
  bool ImplExports::*exported;
};

const FunctionInfo& info(ImplFunction f) {
  static const FunctionInfo table[] = {{"linear_index", "elements", &ImplExports::linear_index},
                                       {"pack", "buffers", &ImplExports::pack},
                                       {"byte_size", "sizes", &ImplExports::byte_size},
                                       {"delinearize", "positions", &ImplExports::delinearize},
                                       {"unpack", "buffers", &ImplExports::unpack},
                                       {"relayout", "buffers", &ImplExports::relayout},
                                       {"parse", "texts", &ImplExports::parse}};
  return table[static_cast<int>(f)];
}

}  // namespace

const char* function_name(ImplFunction f) { return info(f).name; }

std::optional<ImplFunction> function_named(std::string_view name) {
  for (ImplFunction f : kFunctions) {
    if (name == function_name(f)) return f;
  }
  return std::nullopt;
}

std::string function_names() {
  std::string names;
  for (ImplFunction f : kFunctions) names += (names.empty() ? "" : ", ") + std::string(function_name(f));
  return names;
}
const char* case_unit(ImplFunction f) { return info(f).case_unit; }
bool is_buffer_function(ImplFunction f) {
  return f == ImplFunction::kPack || f == ImplFunction::kUnpack || f == ImplFunction::kRelayout;
}

std::string CaseOutcome::id() const { return std::string(function_name(function)) + ":" + layout; }

const char* status_name(CaseOutcome::Status s) {
  switch (s) {
    case CaseOutcome::Status::kPassed: return "passed";
    case CaseOutcome::Status::kSkipped: return "skipped";
    case CaseOutcome::Status::kFailed: return "failed";
    case CaseOutcome::Status::kNotRun: return "not run";
    case CaseOutcome::Status::kNotSent: return "not sent";
  }
  return "?";
}

bool offers(const ImplExports& exports, ImplFunction f) { return exports.*info(f).exported; }

bool LayoutStream::keeps(const ShapeWithLayout& shape) const {
  if (max_rank >= 0 && shape.rank() > max_rank) return false;
  return types.empty() || std::find(types.begin(), types.end(), shape.type) != types.end();
}

bool KnownGaps::matches(const std::string& id) const {
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
    // Literally (a case id holds '[' and may hold '*'), or as a shell glob.
    return p == id || fnmatch(p.c_str(), id.c_str(), 0) == 0;
  });
}

std::vector<const CaseOutcome*> ConformanceReport::cases_with(CaseOutcome::Status status,
                                                              bool listed) const {
  std::vector<const CaseOutcome*> out;
  for (const CaseOutcome& c : cases) {
    if (c.status == status && c.listed == listed) out.push_back(&c);
  }
  return out;
}

std::vector<ImplFunction> ConformanceReport::missing_required() const {
  std::vector<ImplFunction> out;
  for (ImplFunction f : rules.required) {
    const auto it = std::find_if(functions.begin(), functions.end(),
                                 [&](const FunctionReport& r) { return r.function == f; });
    if (it == functions.end() || !it->exported || it->layouts_checked == 0) out.push_back(f);
  }
  return out;
}

std::vector<std::string> ConformanceReport::failures() const {
  std::vector<std::string> out;
  for (const FunctionReport& f : functions) {
    if (f.failure) out.push_back(function_name(f.function));
  }
  const auto count = [](size_t n, const std::string& what) {
    return std::to_string(n) + " case" + (n == 1 ? "" : "s") + " " + what;
  };
  if (const size_t n = cases_with(CaseOutcome::Status::kSkipped, false).size()) {
    out.push_back(count(n, "skipped although claimed"));
  }
  if (rules.gaps.must_fail) {
    if (const size_t n = cases_with(CaseOutcome::Status::kPassed, true).size()) {
      out.push_back(count(n, "listed as known gaps that pass"));
    }
  }
  for (ImplFunction f : missing_required()) {
    out.push_back(std::string("required ") + function_name(f) + " not answered");
  }
  return out;
}

std::string RequestCase::id() const { return std::string(function_name(function)) + ":" + print_shape(shape); }

RequestCase parse_case_id(const std::string& id) {
  const size_t colon = id.find(':');
  const std::optional<ImplFunction> f = function_named(id.substr(0, colon));
  if (colon == std::string::npos || !f) {
    throw Error("'" + id + "' is not a case: expected OPERATION:LAYOUT with OPERATION one of " + function_names());
  }
  return {*f, parse_shape(id.substr(colon + 1))};
}

std::vector<RequestCase> Shrunk::sequence(ImplFunction f) const {
  std::vector<RequestCase> out = earlier;
  out.push_back({f, shape});
  return out;
}

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
    const std::optional<ImplFunction> g = function_named(f);
    return g ? static_cast<size_t>(*g) : std::size(kFunctions);
  };
  std::stable_sort(out.begin(), out.end(), [&](const TypeCounts& a, const TypeCounts& b) {
    return rank(a.function) < rank(b.function);
  });
  return out;
}

namespace {

nlohmann::json coverage_json(const ConformanceReport& r) {
  const Coverage cov = coverage_of(r);
  const auto cell_json = [](const CoverageCell& c) {
    return nlohmann::json{{"form", c.feature}, {"order", c.order}, {"width", c.width}, {"function", function_name(c.function)}};
  };
  nlohmann::json reached = nlohmann::json::array(), holes = nlohmann::json::array(), unclaimed = nlohmann::json::array();
  for (const auto& [c, n] : cov.reached) {
    nlohmann::json j = cell_json(c);
    j["cases"] = n;
    reached.push_back(j);
  }
  for (const CoverageCell& c : cov.holes) holes.push_back(cell_json(c));
  for (const CoverageCell& c : cov.unclaimed) unclaimed.push_back(cell_json(c));
  return {{"reached", reached}, {"holes", holes}, {"unclaimed", unclaimed}};
}

}  // namespace

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
      for (const RequestCase& c : m.earlier) earlier.push_back(c.id());
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
      j[status_name(st)] = it == k.count.end() ? 0 : it->second;
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

void print_skips(std::ostream& out, const ConformanceReport& r) {
  out << "# tilecheck gate --skip-file: the cases of " << r.impl
      << " that failed or were skipped\n";
  for (const CaseOutcome& c : r.cases) {
    if (c.status == Status::kFailed || c.status == Status::kSkipped) {
      out << c.id() << "  # " << status_name(c.status) << "\n";
    }
  }
}

}  // namespace tilecheck::conformance
