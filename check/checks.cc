#include "check/checks.h"

#include <algorithm>
#include <random>

#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/reshape_formulation.h>
#include <tilecheck/spec/semantics.h>

namespace tilecheck::check {
namespace {

using Rng = std::mt19937_64;

int64_t uniform(Rng& rng, int64_t lo, int64_t hi_exclusive) {
  return std::uniform_int_distribution<int64_t>(lo, hi_exclusive - 1)(rng);
}

// Precondition: no dim is 0.
Element random_element(const std::vector<int64_t>& dims, Rng& rng) {
  Element e;
  for (int64_t d : dims) e.push_back(uniform(rng, 0, d));
  return e;
}

std::string shown(const std::optional<Element>& e) { return e ? tuple(*e) : "padding"; }

// Calls visit(e) for every element, row-major, until it returns an error
// detail (non-empty), which is returned; counts the elements visited.
template <class Visit>
std::string visit_every_element(const std::vector<int64_t>& dims, int64_t& visited, Visit visit) {
  visited = 0;
  std::string error;
  gen::for_each_element(dims, [&](const Element& e) {
    ++visited;
    error = visit(e);
    return error.empty();
  });
  return error;
}

// The positions where index arithmetic of a narrower type breaks: both
// sides of 2^31 and of 2^32 (32-bit integers), and of 2^53 (the integers a
// double holds exactly; 2^53 + 1 is the first it does not), those below
// `padded`.
std::vector<int64_t> width_edges(int64_t padded) {
  std::vector<int64_t> out;
  constexpr int64_t k53 = int64_t{1} << 53;
  for (int64_t p : {(int64_t{1} << 31) - 1, int64_t{1} << 31, (int64_t{1} << 32) - 1, int64_t{1} << 32, k53 - 1,
                    k53, k53 + 1}) {
    if (p < padded) out.push_back(p);
  }
  return out;
}

// The elements a sample must not leave to chance: every corner (each
// coordinate 0 or its dim's last; the first 64 for ranks past 6), and the
// elements at the width edges (width_edges) where they are not padding.
std::vector<Element> edge_elements(const ShapeWithLayout& shape) {
  std::vector<Element> out;
  const size_t rank = shape.dims.size();
  const uint64_t corners = rank >= 6 ? 64 : uint64_t{1} << rank;
  for (uint64_t mask = 0; mask < corners; ++mask) {
    Element e(rank);
    for (size_t i = 0; i < rank; ++i) e[i] = i < 64 && ((mask >> i) & 1) ? shape.dims[i] - 1 : 0;
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(std::move(e));
  }
  for (int64_t p : width_edges(spec::padded_element_count(shape))) {
    if (std::optional<Element> e = spec::delinearize(shape, p)) out.push_back(std::move(*e));
  }
  return out;
}

// As visit_every_element when there are at most options.exhaustive_limit
// elements, else for the edge elements (edge_elements) and options.samples
// random ones.
template <class Visit>
std::string visit_elements(const ShapeWithLayout& shape, const GateOptions& options, Rng& rng,
                           int64_t& visited, Visit visit) {
  if (spec::element_count(shape) <= options.exhaustive_limit) {
    return visit_every_element(shape.dims, visited, visit);
  }
  visited = 0;
  for (const Element& e : edge_elements(shape)) {
    ++visited;
    if (std::string error = visit(e); !error.empty()) return error;
  }
  for (int64_t s = 0; s < options.samples; ++s) {
    ++visited;
    if (std::string error = visit(random_element(shape.dims, rng)); !error.empty()) return error;
  }
  return "";
}

std::string sampling_note(bool exhaustive, const GateOptions& options) {
  return exhaustive ? "exhaustive"
                    : "sampled " + std::to_string(options.samples) + " and the edges (seed " +
                          std::to_string(options.seed) + ")";
}

// Checks an element's round trip through index and delinearize.
std::string element_round_trip(const IndexMapping& m, const Element& e, int64_t* position) {
  const int64_t p = m.linear_index(e);
  if (p < 0 || p >= m.padded_element_count) {
    return "element " + tuple(e) + " -> " + std::to_string(p) + ", outside [0, " +
           std::to_string(m.padded_element_count) + ")";
  }
  const std::optional<Element> back = m.delinearize(p);
  if (back != e) {
    return "element " + tuple(e) + " -> " + std::to_string(p) + ", but delinearize(" +
           std::to_string(p) + ") = " + shown(back);
  }
  if (position) *position = p;
  return "";
}

CheckResult bijection_exhaustive(const ShapeWithLayout& shape, const IndexMapping& m) {
  const int64_t elements = spec::element_count(shape), padded = m.padded_element_count;
  std::vector<int64_t> owner(static_cast<size_t>(padded), -1);  // dense index stored there
  int64_t dense = 0, visited = 0;
  std::string error = visit_every_element(shape.dims, visited, [&](const Element& e) {
    int64_t p = 0;
    if (std::string bad = element_round_trip(m, e, &p); !bad.empty()) return bad;
    if (owner[p] >= 0) {
      return "elements " + tuple(gen::element_at(owner[p], shape.dims)) + " and " + tuple(e) +
             " both map to position " + std::to_string(p);
    }
    owner[p] = dense++;
    return std::string();
  });
  if (!error.empty()) return CheckResult::failed(error, visited);
  for (int64_t p = 0; p < padded; ++p) {
    if (owner[p] >= 0) continue;
    if (const std::optional<Element> e = m.delinearize(p)) {
      return CheckResult::failed("position " + std::to_string(p) +
                                     " is hit by no element, but delinearize says " + tuple(*e),
                                 elements + p);
    }
  }
  return CheckResult::passed(elements + padded,
                             std::to_string(elements) + " elements onto " +
                                 std::to_string(padded) + " positions (" +
                                 std::to_string(padded - dense) + " padding), exhaustive");
}

CheckResult bijection_sampled(const ShapeWithLayout& shape, const IndexMapping& m,
                              const GateOptions& options) {
  Rng rng(options.seed);
  int64_t visited = 0;
  std::string error = visit_elements(shape, options, rng, visited, [&](const Element& e) {
    return element_round_trip(m, e, nullptr);
  });
  if (!error.empty()) return CheckResult::failed(error, visited);
  for (int64_t s = 0; s < options.samples; ++s) {
    const int64_t p = uniform(rng, 0, m.padded_element_count);
    const std::optional<Element> e = m.delinearize(p);
    if (!e) continue;
    spec::validate_element(shape, *e);  // throws: a failure naming the coordinate
    if (const int64_t back = m.linear_index(*e); back != p) {
      return CheckResult::failed("delinearize(" + std::to_string(p) + ") = " + tuple(*e) +
                                     ", but that element maps to " + std::to_string(back),
                                 visited + s);
    }
  }
  return CheckResult::passed(visited + options.samples,
                             "elements and positions " + sampling_note(false, options));
}

}  // namespace

CheckResult check_bijection(const ShapeWithLayout& shape, const IndexMapping& mapping,
                            const GateOptions& options) {
  const int64_t elements = spec::element_count(shape);
  if (elements > mapping.padded_element_count) {
    return CheckResult::failed(std::to_string(elements) + " elements cannot fit in " +
                               std::to_string(mapping.padded_element_count) + " positions");
  }
  return mapping.padded_element_count <= options.exhaustive_limit
             ? bijection_exhaustive(shape, mapping)
             : bijection_sampled(shape, mapping, options);
}

std::vector<Element> elements_to_ask(const ShapeWithLayout& shape, const GateOptions& options) {
  Rng rng(options.seed);
  int64_t visited = 0;
  std::vector<Element> elements;
  visit_elements(shape, options, rng, visited, [&](const Element& e) {
    elements.push_back(e);
    return std::string();
  });
  return elements;
}

std::vector<int64_t> positions_to_ask(const ShapeWithLayout& shape, const GateOptions& options) {
  const int64_t padded = spec::padded_element_count(shape);
  std::vector<int64_t> positions;
  if (padded <= options.exhaustive_limit) {
    for (int64_t p = 0; p < padded; ++p) positions.push_back(p);
    return positions;
  }
  positions = {0, padded - 1};
  for (int64_t p : width_edges(padded)) positions.push_back(p);
  Rng rng(options.seed);
  for (int64_t s = 0; s < options.samples; ++s) positions.push_back(uniform(rng, 0, padded));
  return positions;
}

CheckResult ask_elements(const ShapeWithLayout& shape, const GateOptions& options,
                         const std::function<Agreement(const Element&)>& ask) {
  Rng rng(options.seed);
  int64_t visited = 0;
  std::string error = visit_elements(shape, options, rng, visited, [&](const Element& e) {
    const Agreement d = ask(e);
    return d ? d->text() : std::string();
  });
  if (!error.empty()) return CheckResult::failed(error, visited);
  return CheckResult::passed(
      visited, std::to_string(visited) + " elements, " +
                   sampling_note(spec::element_count(shape) <= options.exhaustive_limit, options));
}

CheckResult check_same_index(const ShapeWithLayout& shape, const IndexFn& a, const IndexFn& b,
                             const std::string& names, const GateOptions& options) {
  return ask_elements(shape, options, [&](const Element& e) -> Agreement {
    const int64_t pa = a(e), pb = b(e);
    if (pa == pb) return std::nullopt;
    return Disagreement{names + " disagree on element " + tuple(e) + ": " + std::to_string(pa) +
                            " vs " + std::to_string(pb),
                        {}};
  });
}

namespace {

bool bit(std::span<const uint8_t> bytes, int64_t i) { return (bytes[i / 8] >> (i % 8)) & 1; }

}  // namespace

std::optional<CheckResult> pack_limit_skip(const ShapeWithLayout& shape, const GateOptions& options) {
  const int64_t elements = spec::element_count(shape);
  if (elements > options.pack_limit) {
    return CheckResult::skipped(std::to_string(elements) + " elements, more than the pack limit " +
                                std::to_string(options.pack_limit));
  }
  const __int128 max_bytes = __int128{options.pack_limit} * 16;
  if (const int64_t bytes = spec::byte_size(shape); bytes > max_bytes) {
    return CheckResult::skipped("a physical buffer of " + std::to_string(bytes) +
                                " bytes, more than 16 per element of the pack limit " +
                                std::to_string(options.pack_limit));
  }
  return std::nullopt;
}

CheckResult check_pack_round_trip(const ShapeWithLayout& shape, const PackFunctions& functions,
                                  const IndexFn& index, const GateOptions& options) {
  if (std::optional<CheckResult> skip = pack_limit_skip(shape, options)) return *skip;
  const int64_t elements = spec::element_count(shape);
  const int64_t bits = shape.element_bits(), element_bytes = shape.dense_element_bytes();
  // Random dense data in canonical form (the bits above the element width
  // as unpack writes them).
  Rng rng(options.seed);
  std::vector<uint8_t> dense(static_cast<size_t>(elements * element_bytes));
  for (uint8_t& byte : dense) byte = static_cast<uint8_t>(rng());
  dense = spec::canonical_dense(shape, std::move(dense));
  std::vector<uint8_t> physical = functions.pack(dense);
  if (static_cast<int64_t>(physical.size()) != spec::byte_size(shape)) {
    return CheckResult::failed("pack wrote " + std::to_string(physical.size()) +
                               " bytes; the layout's byte size is " +
                               std::to_string(spec::byte_size(shape)));
  }
  // Each element's bits at its position; every other bit is padding and zero.
  std::vector<bool> element_bit(physical.size() * 8, false);
  int64_t i = 0;  // the element's dense index
  std::string misplaced;
  gen::for_each_element(shape.dims, [&](const Element& e) {
    const int64_t p = index(e);
    for (int64_t b = 0; b < bits; ++b) {
      element_bit[p * bits + b] = true;
      if (bit(physical, p * bits + b) != bit(dense, i * element_bytes * 8 + b)) {
        misplaced = "element " + tuple(e) + " (position " + std::to_string(p) + "): bit " +
                    std::to_string(b) + " differs after pack";
        return false;
      }
    }
    ++i;
    return true;
  });
  if (!misplaced.empty()) return CheckResult::failed(misplaced, i);
  for (size_t i = 0; i < element_bit.size(); ++i) {
    if (!element_bit[i] && bit(physical, i)) {
      return CheckResult::failed("padding bit " + std::to_string(i) + " (position " +
                                     std::to_string(i / bits) + ") is 1 after pack; D8 wants 0",
                                 elements);
    }
  }
  if (functions.unpack(physical) != dense) {
    return CheckResult::failed("unpack(pack(x)) != x", elements);
  }
  // Unpack must ignore padding: set every padding bit and unpack again.
  for (size_t i = 0; i < element_bit.size(); ++i) {
    if (!element_bit[i]) physical[i / 8] = static_cast<uint8_t>(physical[i / 8] | (1u << (i % 8)));
  }
  if (functions.unpack(physical) != dense) {
    return CheckResult::failed("unpack reads padding: with padding bits set it returns other data",
                               elements);
  }
  return CheckResult::passed(elements, std::to_string(elements) + " elements, " +
                                           std::to_string(physical.size()) + " bytes");
}

IndexMapping spec_mapping(const ShapeWithLayout& shape) {
  return {[shape](const Element& e) { return spec::linear_index(shape, e); },
          [shape](int64_t p) { return spec::delinearize(shape, p); },
          spec::padded_element_count(shape)};
}

PackFunctions spec_pack_functions(const ShapeWithLayout& shape) {
  return {[shape](std::span<const uint8_t> dense) { return spec::pack(shape, dense); },
          [shape](std::span<const uint8_t> physical) { return spec::unpack(shape, physical); }};
}

void add_spec_gate_checks(GateRegistry& registry) {
  registry.add_layout_check(
      "formulas_agree",
      "spec: the document's formula and pad-reshape-transpose give the same tiled shape and index",
      [](const ShapeWithLayout& shape, const GateOptions& options) {
        const std::vector<int64_t> formula = spec::tiled_shape(shape),
                                   reshape = spec::tiled_shape_by_reshape(shape);
        if (formula != reshape) {
          return CheckResult::failed("tiled shape " + tuple(formula) + " by the formula, " +
                                     tuple(reshape) + " by pad-reshape-transpose");
        }
        return check_same_index(
            shape, [&](const Element& e) { return spec::linear_index(shape, e); },
            [&](const Element& e) { return spec::linear_index_by_reshape(shape, e); },
            "formula and pad-reshape-transpose", options);
      });
  registry.add_layout_check(
      "bijection", "spec: index is one-to-one onto the non-padding positions, delinearize inverts it",
      [](const ShapeWithLayout& shape, const GateOptions& options) {
        return check_bijection(shape, spec_mapping(shape), options);
      });
  registry.add_layout_check(
      "pack_round_trip", "spec: unpack(pack(x)) == x, elements at their index, padding zero",
      [](const ShapeWithLayout& shape, const GateOptions& options) {
        return check_pack_round_trip(shape, spec_pack_functions(shape),
                                     spec_mapping(shape).linear_index, options);
      });
}

}  // namespace tilecheck::check
