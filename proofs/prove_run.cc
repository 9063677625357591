#include "proofs/prove_run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "proofs/obligations.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::proofs {

namespace {

using nlohmann::json;

std::string format_ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  return buf;
}

double round_ms(double ms) { return std::round(ms * 10) / 10; }

json to_json(const Outcome& o) {
  json j = {{"name", o.name}, {"result", verdict_name(o.verdict)}, {"ms", round_ms(o.ms)}};
  if (!o.detail.empty()) j["detail"] = o.detail;
  if (o.counterexample) {
    const Counterexample& c = *o.counterexample;
    j["counterexample"] = {{"dims", c.dims},
                           {"elements", c.elements},
                           {"positions", c.positions},
                           {"explanation", c.explanation}};
  }
  return j;
}

void print_outcome(const Outcome& o, const std::string& indent, std::ostream& out) {
  out << indent << o.name << " " << o.title << ": " << verdict_name(o.verdict) << " ("
      << format_ms(o.ms) << ")";
  if (!o.detail.empty()) out << " -- " << o.detail;
  out << "\n";
  if (o.counterexample) {
    const Counterexample& c = *o.counterexample;
    out << indent << "  counterexample: dims [" << join(c.dims) << "]: " << c.explanation
        << "\n";
  }
}

// The summary verdict of several outcomes as an exit status.
int exit_status(const std::vector<Outcome>& outcomes) {
  bool unknown = false;
  for (const Outcome& o : outcomes) {
    if (o.verdict == Verdict::kRefuted) return kSomeRefuted;
    if (o.verdict == Verdict::kUnknown) unknown = true;
  }
  return unknown ? kSomeUnknown : kAllProved;
}

ProofOptions proof_options(const std::string& smt2_dir, unsigned timeout_ms) {
  if (!smt2_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(smt2_dir, ec);
    if (ec) throw Error("cannot create directory " + smt2_dir + ": " + ec.message());
  }
  if (timeout_ms == 0) throw Error("--timeout must be at least 1 ms");
  return {timeout_ms, smt2_dir};
}

ShapeWithLayout all_dims_symbolic(ShapeWithLayout shape) {
  for (int64_t& d : shape.dims) d = kSymbolicDim;
  return shape;
}

// Runs a command body, turning bad input into exit 2 and a Z3 failure into
// exit 3 (unknown), each with its message on `err`.
template <class Body>
int guarded(std::ostream& err, Body body) {
  try {
    return body();
  } catch (const Error& e) {
    err << "error: " << e.what() << "\n";
    return kBadInput;
  } catch (const z3::exception& e) {
    err << "error: Z3: " << e.msg() << "\n";
    return kSomeUnknown;
  }
}

}  // namespace

int run_prove(const ProveOptions& options, std::ostream& out, std::ostream& err) {
  return guarded(err, [&] {
    if (options.catalog == !options.layout.empty()) {
      throw Error("give either a LAYOUT or --catalog");
    }
    Prover prover(proof_options(options.smt2_dir, options.timeout_ms));
    std::vector<std::pair<std::string, ShapeWithLayout>> layouts;
    if (options.catalog) {
      for (const CatalogEntry& entry : catalog()) {
        layouts.emplace_back(std::string(entry.name),
                             all_dims_symbolic(parse_shape(entry.layout)));
      }
    } else {
      layouts.emplace_back("", parse_shape(options.layout));
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Outcome> everything;
    json layouts_json = json::array();
    for (const auto& [name, shape] : layouts) {
      const std::string text = print_shape(shape);
      const std::vector<Outcome> outcomes = prover.prove_layout(shape);
      everything.insert(everything.end(), outcomes.begin(), outcomes.end());
      if (options.json) {
        json obligations = json::array();
        for (const Outcome& o : outcomes) obligations.push_back(to_json(o));
        json j = {{"layout", text}, {"obligations", obligations}};
        if (!name.empty()) j["name"] = name;
        layouts_json.push_back(j);
      } else {
        if (options.catalog) out << name << " " << text << "\n";
        for (const Outcome& o : outcomes) print_outcome(o, options.catalog ? "  " : "", out);
        out.flush();
      }
    }
    const double total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // The shared mixed-radix lemmas, proved once and used by every layout.
    const std::vector<Outcome>& lemmas = prover.shared_lemmas();
    everything.insert(everything.end(), lemmas.begin(), lemmas.end());
    if (options.json) {
      json lemmas_json = json::array();
      for (const Outcome& o : lemmas) lemmas_json.push_back(to_json(o));
      json j = options.catalog ? json{{"catalog", layouts_json}} : layouts_json[0];
      j["lemmas"] = lemmas_json;
      j["ms"] = round_ms(total_ms);
      out << j.dump() << "\n";
    } else {
      for (const Outcome& o : lemmas) print_outcome(o, "lemma ", out);
      size_t counts[3] = {0, 0, 0};
      for (const Outcome& o : everything) ++counts[static_cast<int>(o.verdict)];
      out << (options.catalog ? "catalogue: " + std::to_string(layouts.size()) + " layouts, "
                              : std::string())
          << everything.size() << " obligations and lemmas: " << counts[0] << " proved, "
          << counts[1] << " refuted, " << counts[2] << " unknown in " << format_ms(total_ms)
          << "\n";
    }
    return exit_status(everything);
  });
}

int run_equiv(const EquivOptions& options, std::ostream& out, std::ostream& err) {
  return guarded(err, [&] {
    const ShapeWithLayout a = parse_shape(options.first), b = parse_shape(options.second);
    // Positions count elements: of two element types, the same position is
    // not the same byte, so equal positions would not mean equal buffers.
    if (a.type != b.type || a.element_bits() != b.element_bits()) {
      const auto type = [](const ShapeWithLayout& s) {
        return std::string(element_type_name(s.type)) +
               (s.layout.element_size_bits ? " E(" + std::to_string(*s.layout.element_size_bits) + ")"
                                           : "");
      };
      const std::string types = type(a) + " and " + type(b);
      if (!options.any_types) {
        throw Error("equiv compares layouts of one element type; " + types +
                    " differ (--any-types compares their element positions anyway)");
      }
      err << "warning: " << types
          << " differ: equiv compares element positions, not bytes (--any-types)\n";
    }
    Prover prover(proof_options(options.smt2_dir, options.timeout_ms));
    const Outcome o = prover.equivalent(a, b);
    if (options.json) {
      json j = to_json(o);
      j["layouts"] = {print_shape(a), print_shape(b)};
      out << j.dump() << "\n";
    } else {
      out << print_shape(a) << " vs " << print_shape(b) << "\n";
      print_outcome(o, "", out);
    }
    return exit_status({o});
  });
}

}  // namespace tilecheck::proofs
