#include "cli/conformance.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>

#include "cli/common.h"
#include "cli/conformance_worker.h"
#include "cli/gate_checks.h"
#include "gen/layout_recipe.h"
#include "gen/sweep.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {
namespace {

enum class ImplFunction { kLinearIndex, kPack, kByteSize };
constexpr ImplFunction kFunctions[] = {ImplFunction::kLinearIndex, ImplFunction::kPack,
                                       ImplFunction::kByteSize};

// Each function's name, what one of its cases is, and its export flag.
struct FunctionInfo {
  const char* name;
  const char* case_unit;
  bool ImplExports::*exported;
};

const FunctionInfo& info(ImplFunction f) {
  static const FunctionInfo table[] = {{"linear_index", "elements", &ImplExports::linear_index},
                                       {"pack", "buffers", &ImplExports::pack},
                                       {"byte_size", "sizes", &ImplExports::byte_size}};
  return table[static_cast<int>(f)];
}

std::string function_name(ImplFunction f) { return info(f).name; }

// A word the shell passes through unchanged, quoted only when needed.
std::string shell_quote(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) ||
           std::string_view("_./-+=:,@").find(ch) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string hex_bytes(std::span<const uint8_t> bytes) {
  std::ostringstream out;
  out << std::hex << std::setfill('0');
  for (size_t i = 0; i < bytes.size(); ++i) out << (i ? " " : "") << std::setw(2) << int(bytes[i]);
  return out.str();
}

// Buffers up to this size are printed whole in a failure.
constexpr size_t kPrintedBufferBytes = 64;

// ---------------------------------------------------------------------------
// One function checked on one layout.

struct Verdict {
  enum class Status { kPassed, kSkipped, kFailed };
  Status status = Status::kPassed;
  int64_t cases = 0;
  std::string problem;  // a failure in one line: "wrong index", "crashed: ..."
  std::vector<std::pair<std::string, std::string>> details;  // what, value
  std::string spec_command;  // a tilecheck command printing the expected value

  bool failed() const { return status == Status::kFailed; }
  static Verdict passed(int64_t cases) { return {Status::kPassed, cases, "", {}, ""}; }
  static Verdict skipped() { return {Status::kSkipped, 0, "", {}, ""}; }
  static Verdict failure(std::string problem,
                         std::vector<std::pair<std::string, std::string>> details = {},
                         std::string spec_command = "") {
    return {Status::kFailed, 0, std::move(problem), std::move(details), std::move(spec_command)};
  }
  static Verdict crashed(const WorkerFailure& f,
                         std::vector<std::pair<std::string, std::string>> details) {
    if (!f.output.empty()) details.emplace_back("it printed", f.output);
    return failure(f.what, std::move(details));
  }
};

class Checker {
 public:
  Checker(ImplWorker& worker, const GateOptions& options) : worker_(worker), options_(options) {}

  // `one_at_a_time` sends elements one per request, to name the element a
  // crash happens on.
  Verdict check(ImplFunction f, const ShapeWithLayout& shape, bool one_at_a_time = false) {
    switch (f) {
      case ImplFunction::kLinearIndex:
        return check_index(shape, one_at_a_time);
      case ImplFunction::kPack:
        return check_pack(shape);
      case ImplFunction::kByteSize:
        return check_size(shape);
    }
    return Verdict::skipped();
  }

 private:
  static constexpr int64_t kBatch = 4096;  // elements per request

  std::vector<Element> elements_to_check(const ShapeWithLayout& shape) const {
    std::vector<Element> elements;
    const int64_t count = spec::element_count(shape);
    if (count == 0) return elements;
    if (count <= options_.exhaustive_limit) {
      gen::for_each_element(shape, [&](const Element& e) { elements.push_back(e); });
      return elements;
    }
    std::mt19937_64 rng(options_.seed);
    for (int64_t i = 0; i < options_.samples; ++i) {
      Element e;
      for (int64_t d : shape.dims)
        e.push_back(std::uniform_int_distribution<int64_t>(0, d - 1)(rng));
      elements.push_back(std::move(e));
    }
    return elements;
  }

  Verdict check_index(const ShapeWithLayout& shape, bool one_at_a_time) {
    const std::string text = print_shape(shape);
    const std::vector<Element> elements = elements_to_check(shape);
    const int64_t batch = one_at_a_time ? 1 : kBatch;
    std::optional<bool> supported;  // decided by the first element
    for (size_t start = 0; start < elements.size(); start += batch) {
      const size_t end = std::min(elements.size(), start + static_cast<size_t>(batch));
      std::vector<int64_t> coords;
      for (size_t k = start; k < end; ++k)
        coords.insert(coords.end(), elements[k].begin(), elements[k].end());
      const auto reply =
          worker_.linear_index(text, shape.rank(), static_cast<int64_t>(end - start), coords);
      if (reply.failure) {
        const std::string where = end - start == 1 ? tuple(elements[start])
                                                   : "one of " + std::to_string(end - start) +
                                                         " elements from " + tuple(elements[start]);
        return Verdict::crashed(*reply.failure, {{"element", where}});
      }
      for (size_t k = start; k < end; ++k) {
        const IndexAnswer& a = (*reply.value)[k - start];
        const Element& e = elements[k];
        const bool ok = a.status == 0;
        if (!supported) supported = ok;
        if (ok != *supported) {
          return Verdict::failure(
              "inconsistent support: the first element was " +
                  std::string(*supported ? "supported" : "answered 'not supported'") +
                  ", this one " + (ok ? "was supported" : "returned " + std::to_string(a.status)),
              {{"element", tuple(e)}});
        }
        if (!ok) continue;
        const int64_t want = spec::linear_index(shape, e);
        if (a.index != want) {
          return Verdict::failure("wrong linear index",
                                  {{"element", tuple(e)},
                                   {"expected", std::to_string(want)},
                                   {"actual", std::to_string(a.index)}},
                                  "tilecheck index " + shell_quote(text) + " " +
                                      shell_quote(join(e)) + "   (prints " + std::to_string(want) +
                                      ")");
        }
      }
    }
    if (supported == false) return Verdict::skipped();
    return Verdict::passed(static_cast<int64_t>(elements.size()));
  }

  Verdict check_size(const ShapeWithLayout& shape) {
    const std::string text = print_shape(shape);
    const auto reply = worker_.byte_size(text);
    if (reply.failure) return Verdict::crashed(*reply.failure, {});
    if (reply.value->status != 0) return Verdict::skipped();
    const int64_t want = spec::byte_size(shape);
    if (reply.value->bytes != want) {
      return Verdict::failure(
          "wrong byte size",
          {{"expected", std::to_string(want) + " bytes"},
           {"actual", std::to_string(reply.value->bytes) + " bytes"}},
          "tilecheck size " + shell_quote(text) + "   (bytes " + std::to_string(want) + ")");
    }
    return Verdict::passed(1);
  }

  // The dense data of a pack check: seeded random bytes, the bits above the
  // element width cleared (the plugin contract's "values in the low bits").
  std::vector<uint8_t> dense_data(const ShapeWithLayout& shape) const {
    std::mt19937_64 rng(options_.seed);
    std::vector<uint8_t> dense(static_cast<size_t>(spec::dense_byte_size(shape)));
    for (uint8_t& b : dense) b = static_cast<uint8_t>(rng());
    return gen::canonical_dense(shape, std::move(dense));
  }

  // "position 5 = element (1,2)" for each position with bits in byte k.
  static std::string byte_contents(const ShapeWithLayout& shape, int64_t k) {
    const int64_t bits = shape.element_bits();
    const int64_t padded = spec::padded_element_count(shape);
    std::string out;
    for (int64_t p = k * 8 / bits; p <= (k * 8 + 7) / bits && p < padded; ++p) {
      const std::optional<Element> e = spec::delinearize(shape, p);
      out += (out.empty() ? "" : "; ") + ("position " + std::to_string(p) + " = ") +
             (e ? "element " + tuple(*e) : std::string("padding"));
    }
    return out.empty() ? "tail padding (L)" : out;
  }

  Verdict check_pack(const ShapeWithLayout& shape) {
    const std::string text = print_shape(shape);
    if (spec::element_count(shape) > options_.pack_limit) return Verdict::skipped();
    const std::vector<uint8_t> dense = dense_data(shape);
    const std::vector<uint8_t> want = spec::pack(shape, dense);
    const auto reply = worker_.pack(text, dense, want.size());
    std::vector<std::pair<std::string, std::string>> details;
    details.emplace_back("dense source",
                         dense.size() <= kPrintedBufferBytes
                             ? "[" + hex_bytes(dense) + "]"
                             : std::to_string(dense.size()) + " seeded random bytes");
    if (reply.failure) return Verdict::crashed(*reply.failure, details);
    const PackAnswer& a = *reply.value;
    if (a.status != 0) return Verdict::skipped();
    if (a.wrote_outside) return Verdict::failure("wrote outside the destination buffer", details);
    if (a.changed_source) return Verdict::failure("modified the source buffer", details);
    const auto differ = std::mismatch(want.begin(), want.end(), a.dst.begin());
    if (differ.first == want.end()) return Verdict::passed(1);
    const int64_t k = differ.first - want.begin();
    details.emplace_back("first differing byte", std::to_string(k) + " of " +
                                                     std::to_string(want.size()) + " (" +
                                                     byte_contents(shape, k) + ")");
    details.emplace_back("expected", "0x" + hex_bytes({&want[k], 1}));
    details.emplace_back("actual", "0x" + hex_bytes({&a.dst[k], 1}));
    if (want.size() <= kPrintedBufferBytes) {
      details.emplace_back("expected buffer", "[" + hex_bytes(want) + "]");
      details.emplace_back("actual buffer", "[" + hex_bytes(a.dst) + "]");
    }
    return Verdict::failure("wrong packed bytes", details);
  }

  ImplWorker& worker_;
  const GateOptions& options_;
};

// ---------------------------------------------------------------------------
// Shrinking: candidates one step simpler than a failing layout.

bool valid_layout(const ShapeWithLayout& shape) {
  try {
    spec::validate(shape);
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::vector<ShapeWithLayout> simpler_layouts(const ShapeWithLayout& s) {
  std::vector<ShapeWithLayout> out;
  auto with = [&](auto change) {
    ShapeWithLayout c = s;
    change(c);
    if (!(c == s)) out.push_back(std::move(c));
  };
  with([](ShapeWithLayout& c) { c.layout.memory_space.reset(); });
  with([](ShapeWithLayout& c) { c.layout.tail_padding_alignment.reset(); });
  with([](ShapeWithLayout& c) { c.layout.element_size_bits.reset(); });
  for (size_t t = s.layout.tiles.size(); t-- > 0;) {
    with([&](ShapeWithLayout& c) { c.layout.tiles.erase(c.layout.tiles.begin() + t); });
  }
  with([](ShapeWithLayout& c) {
    c.layout.minor_to_major = default_layout(c.rank()).minor_to_major;
  });
  for (size_t i = 0; i < s.dims.size(); ++i) {  // drop dim i
    with([&](ShapeWithLayout& c) {
      c.dims.erase(c.dims.begin() + i);
      auto& m2m = c.layout.minor_to_major;
      m2m.erase(std::find(m2m.begin(), m2m.end(), static_cast<int64_t>(i)));
      for (int64_t& m : m2m) m -= m > static_cast<int64_t>(i);
    });
  }
  for (size_t i = 0; i < s.dims.size(); ++i) {
    for (int64_t smaller : {int64_t{1}, s.dims[i] / 2, s.dims[i] - 1}) {
      if (smaller >= 1 && smaller < s.dims[i])
        with([&](ShapeWithLayout& c) { c.dims[i] = smaller; });
    }
  }
  for (size_t t = 0; t < s.layout.tiles.size(); ++t) {
    const std::vector<int64_t>& entries = s.layout.tiles[t].dims;
    for (size_t j = 0; j < entries.size(); ++j) {  // a shorter tile
      with([&](ShapeWithLayout& c) {
        auto& d = c.layout.tiles[t].dims;
        d.erase(d.begin() + j);
      });
    }
    for (size_t j = 0; j < entries.size(); ++j) {
      const int64_t e = entries[j];
      for (int64_t smaller : {int64_t{1}, e / 2, e - 1}) {
        if (e != kCombineDim && smaller >= 1 && smaller < e) {
          with([&](ShapeWithLayout& c) { c.layout.tiles[t].dims[j] = smaller; });
        }
      }
    }
  }
  with([](ShapeWithLayout& c) { c.type = ElementType::kF32; });
  return out;
}

struct Shrunk {
  ShapeWithLayout shape;
  Verdict verdict;
  int steps = 0;
};

// Greedy: take the first simpler candidate that still fails, until none
// does (or the attempt budget is spent).
Shrunk shrink(Checker& checker, ImplFunction f, const ShapeWithLayout& failing, Verdict verdict) {
  constexpr int kMaxAttempts = 2000;
  Shrunk s{failing, std::move(verdict), 0};
  // A hang costs --timeout per attempt: report it as found.
  if (s.verdict.problem.rfind("hung", 0) == 0) return s;
  const int64_t budget =
      std::max(spec::padded_element_count(failing), gen::kExhaustiveLimits.max_padded_elements);
  int attempts = 0;
  bool progress = true;
  while (progress && attempts < kMaxAttempts) {
    progress = false;
    for (const ShapeWithLayout& c : simpler_layouts(s.shape)) {
      // Simpler never means more positions to check than now (or the budget).
      if (!valid_layout(c) || spec::padded_element_count(c) > budget ||
          (f == ImplFunction::kLinearIndex && spec::element_count(c) == 0)) {
        continue;
      }
      if (++attempts > kMaxAttempts) break;
      Verdict v = checker.check(f, c);
      if (v.failed()) {
        s = {c, std::move(v), s.steps + 1};
        progress = true;
        break;
      }
    }
  }
  // A crash inside a batch of elements: name the element.
  if (f == ImplFunction::kLinearIndex && s.verdict.problem.rfind("crashed", 0) == 0) {
    Verdict single = checker.check(f, s.shape, /*one_at_a_time=*/true);
    if (single.failed()) s.verdict = std::move(single);
  }
  return s;
}

// ---------------------------------------------------------------------------
// The run and its report.

struct FailureReport {
  std::string origin;  // where the failing layout came from
  std::string original_layout;
  Shrunk minimal;
  std::string reproduce;
};

struct FunctionReport {
  ImplFunction function = ImplFunction::kLinearIndex;
  bool exported = false;
  int64_t layouts_checked = 0, layouts_skipped = 0, cases = 0;
  std::optional<FailureReport> failure;

  std::string result() const {
    if (!exported) return "not exported";
    if (failure) return "FAILED";
    return layouts_checked ? "passed" : "skipped";
  }
};

struct ConformanceReport {
  std::string impl_path;
  ImplExports exports;
  int64_t catalogue_layouts = 0, generated_layouts = 0, given_layouts = 0;
  uint64_t seed = 0;
  std::vector<FunctionReport> functions;
  // linear_index (required) answered on at least one layout.
  bool checked_anything() const { return functions.front().layouts_checked > 0; }
  bool ok() const {
    return std::none_of(functions.begin(), functions.end(),
                        [](const FunctionReport& f) { return f.failure.has_value(); });
  }
};

struct OriginLayout {
  std::string origin;
  ShapeWithLayout shape;
};

// Deterministic choices for the recipe: a splitmix64 stream from --seed.
class SeededChoices : public gen::PicksFromRange<SeededChoices> {
 public:
  explicit SeededChoices(uint64_t seed) : state_(seed) {}
  int64_t in_range(int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(gen::splitmix64(state_) % span);
  }

 private:
  uint64_t state_;
};

// Calls visit(layout) for every layout of the run, in order.
void for_each_layout(const std::vector<std::string>& given, const GateOptions& options,
                     ConformanceReport& report,
                     const std::function<void(const OriginLayout&)>& visit) {
  if (!given.empty()) {
    for (const std::string& text : given) {
      ++report.given_layouts;
      visit({"--layout", parse_layout_argument(text)});
    }
    return;
  }
  for (const CatalogEntry& entry : catalog()) {
    ++report.catalogue_layouts;
    visit({"catalogue entry " + std::string(entry.name), parse_shape(entry.layout)});
  }
  SeededChoices choices(options.seed);
  for (int64_t k = 0; k < options.property_cases; ++k) {
    ++report.generated_layouts;
    visit({"generated layout " + std::to_string(k + 1) + " (seed " + std::to_string(options.seed) +
               ")",
           gen::make_layout(choices, gen::kExhaustiveLimits)});
  }
}

ConformanceReport run(ImplWorker& worker, const ConformanceOptions& conformance,
                      const std::vector<std::string>& given, const GateOptions& options) {
  ConformanceReport report;
  report.impl_path = conformance.impl_path;
  report.exports = worker.exports();
  report.seed = options.seed;
  for (ImplFunction f : kFunctions) {
    FunctionReport fr;
    fr.function = f;
    fr.exported = worker.exports().*info(f).exported;
    report.functions.push_back(fr);
  }
  Checker checker(worker, options);
  for_each_layout(given, options, report, [&](const OriginLayout& layout) {
    for (FunctionReport& fr : report.functions) {
      if (!fr.exported || fr.failure) continue;
      if (fr.function == ImplFunction::kLinearIndex && spec::element_count(layout.shape) == 0)
        continue;
      Verdict v = checker.check(fr.function, layout.shape);
      switch (v.status) {
        case Verdict::Status::kPassed:
          ++fr.layouts_checked;
          fr.cases += v.cases;
          break;
        case Verdict::Status::kSkipped:
          ++fr.layouts_skipped;
          break;
        case Verdict::Status::kFailed: {
          Shrunk minimal = shrink(checker, fr.function, layout.shape, std::move(v));
          std::string reproduce = "tilecheck gate --impl " + shell_quote(conformance.impl_path) +
                                  " --layout " + shell_quote(print_shape(minimal.shape));
          if (fr.function == ImplFunction::kPack)
            reproduce += " --seed " + std::to_string(options.seed);
          fr.failure = FailureReport{layout.origin, print_shape(layout.shape), std::move(minimal),
                                     std::move(reproduce)};
          break;
        }
      }
    }
  });
  return report;
}

std::string layouts_line(const ConformanceReport& r) {
  if (r.given_layouts) return std::to_string(r.given_layouts) + " given with --layout";
  return std::to_string(r.catalogue_layouts) + " from the catalogue, then " +
         std::to_string(r.generated_layouts) + " generated (seed " + std::to_string(r.seed) + ")";
}

void print_text(std::ostream& out, const ConformanceReport& r) {
  out << "conformance of " << r.impl_path << " to the spec\n"
      << "layouts: " << layouts_line(r) << "\n\n";
  out << std::left << std::setw(14) << "function" << std::setw(14) << "result" << std::setw(17)
      << "layouts checked" << std::setw(9) << "skipped"
      << "cases checked\n";
  for (const FunctionReport& f : r.functions) {
    out << std::setw(14) << function_name(f.function) << std::setw(14) << f.result();
    if (f.exported) {
      out << std::setw(17) << f.layouts_checked << std::setw(9) << f.layouts_skipped << f.cases
          << " " << info(f.function).case_unit;
    }
    out << "\n";
  }
  std::vector<std::string> failed;
  for (const FunctionReport& f : r.functions) {
    if (!f.failure) continue;
    failed.push_back(function_name(f.function));
    const FailureReport& fail = *f.failure;
    const Shrunk& m = fail.minimal;
    out << "\nFAILED " << function_name(f.function) << ": " << m.verdict.problem << "\n"
        << "  found on:      " << fail.origin << ": " << fail.original_layout << "\n"
        << "  minimal case (" << m.steps << " shrinking step" << (m.steps == 1 ? "" : "s")
        << "):\n";
    const auto detail = [&](const std::string& what, const std::string& value) {
      out << "    " << std::setw(22) << what << value << "\n";
    };
    detail("layout", print_shape(m.shape));
    for (const auto& [what, value] : m.verdict.details) detail(what, value);
    out << "  reproduce:     " << fail.reproduce << "\n";
    if (!m.verdict.spec_command.empty())
      out << "  the spec says: " << m.verdict.spec_command << "\n";
  }
  out << "\n";
  if (failed.empty()) {
    out << (r.checked_anything() ? "conformance: passed\n" : "conformance: nothing checked\n");
  } else {
    std::string names;
    for (const std::string& n : failed) names += (names.empty() ? "" : ", ") + n;
    out << "conformance: FAILED (" << names << ")\n";
  }
}

void print_json_report(std::ostream& out, const ConformanceReport& r) {
  nlohmann::json functions = nlohmann::json::array();
  for (const FunctionReport& f : r.functions) {
    nlohmann::json j = {{"function", function_name(f.function)},
                        {"exported", f.exported},
                        {"result", f.result()},
                        {"layouts_checked", f.layouts_checked},
                        {"layouts_skipped", f.layouts_skipped},
                        {"cases_checked", f.cases},
                        {"case_unit", info(f.function).case_unit}};
    if (f.failure) {
      const Shrunk& m = f.failure->minimal;
      nlohmann::json details = nlohmann::json::object();
      for (const auto& [what, value] : m.verdict.details) details[what] = value;
      j["failure"] = {{"problem", m.verdict.problem},
                      {"found_on", f.failure->origin},
                      {"original_layout", f.failure->original_layout},
                      {"minimal_layout", print_shape(m.shape)},
                      {"shrinking_steps", m.steps},
                      {"details", details},
                      {"reproduce", f.failure->reproduce},
                      {"spec_command", m.verdict.spec_command}};
    }
    functions.push_back(j);
  }
  out << nlohmann::json{{"impl", r.impl_path},
                        {"ok", r.ok() && r.checked_anything()},
                        {"seed", r.seed},
                        {"layouts",
                         {{"catalogue", r.catalogue_layouts},
                          {"generated", r.generated_layouts},
                          {"given", r.given_layouts}}},
                        {"functions", functions}}
             .dump(2)
      << "\n";
}

}  // namespace

void add_conformance_options(CLI::App* gate, ConformanceOptions& options) {
  gate->add_option("--impl", options.impl_path,
                   "check the implementation in this shared library against the spec instead "
                   "(tilecheck/conformance_plugin.h); --cases generated layouts after the catalogue");
  gate->add_option(
          "--timeout", options.timeout_seconds,
          "with --impl: seconds to wait for one answer before the implementation counts as hung "
          "(loading the library gets at least 30)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
}

void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json) {
  // Bad --layout text is bad input (exit 2) before anything is loaded.
  for (const std::string& text : layouts) parse_layout_argument(text);
  ImplWorker worker(conformance.impl_path, conformance.timeout_seconds);
  const ConformanceReport report = run(worker, conformance, layouts, options);
  if (json) {
    print_json_report(std::cout, report);
  } else {
    print_text(std::cout, report);
  }
  if (!report.ok()) throw ChecksFailed{};
  if (!report.checked_anything()) {
    throw Error("'" + conformance.impl_path + "' supports none of the " +
                std::to_string(report.functions.front().layouts_skipped) +
                " layouts: every tilecheck_impl_linear_index call returned nonzero");
  }
}

}  // namespace tilecheck::cli
