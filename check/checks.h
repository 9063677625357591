// Reusable bodies of gate checks, generic over the functions under check, so
// the same bijection, agreement and round-trip checks serve the spec today and
// the impl (or any external implementation) later:
//
//   bijection       index maps the elements one-to-one onto the non-padding
//                   positions and delinearize inverts it:
//                     for every element e:  0 <= index(e) < padded count,
//                                           delinearize(index(e)) == e,
//                                           no two elements share a position;
//                     for every position p no element maps to: delinearize(p)
//                     says padding; so #non-padding positions == #elements.
//   same_index      two index functions give the same position for every element.
//   pack_round_trip unpack(pack(x)) == x for random x, each element's bits sit
//                   at bits [index(e)*b, index(e)*b + b) of the buffer, and
//                   every other bit (padding, D8) is zero.
//
// Each is exhaustive when the layout has at most options.exhaustive_limit
// positions and otherwise checks options.samples random elements and
// positions (deterministic seed); the result's detail says which.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/testing/agreement.h>
#include "check/gate.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::check {

using IndexFn = std::function<int64_t(const Element&)>;
using DelinearizeFn = std::function<std::optional<Element>(int64_t)>;
using BufferFn = std::function<std::vector<uint8_t>(std::span<const uint8_t>)>;

// A layout's element <-> position mapping as some implementation computes it.
struct IndexMapping {
  IndexFn linear_index;
  DelinearizeFn delinearize;
  int64_t padded_element_count = 0;
};

struct PackFunctions {
  BufferFn pack;    // dense -> physical
  BufferFn unpack;  // physical -> dense
};

// The elements a check asks about: every one, row-major, when there are at
// most options.exhaustive_limit, else options.samples random ones drawn with
// options.seed.
std::vector<Element> elements_to_ask(const ShapeWithLayout& shape, const GateOptions& options);

// The positions a check asks about: every one of the padded element count
// when there are at most options.exhaustive_limit, else options.samples
// random ones drawn with options.seed.
std::vector<int64_t> positions_to_ask(const ShapeWithLayout& shape, const GateOptions& options);

// Asks every element of elements_to_ask; the first disagreement fails the
// check. Passes with "N elements, exhaustive" or "N elements, sampled ...".
CheckResult ask_elements(const ShapeWithLayout& shape, const GateOptions& options,
                         const std::function<Agreement(const Element&)>& ask);

CheckResult check_bijection(const ShapeWithLayout& shape, const IndexMapping& mapping,
                            const GateOptions& options);

// `names` says which two they are, for the detail: "spec formula vs reshape".
CheckResult check_same_index(const ShapeWithLayout& shape, const IndexFn& a, const IndexFn& b,
                             const std::string& names, const GateOptions& options);

// The skip of a pack check on a layout too large to hold in memory: more
// elements than options.pack_limit, or a physical buffer (padding included:
// one element of u8[1,1]{1,0:T(2147483648,2147483648)} pads to 2^62 bytes)
// of more than 16 bytes per element of that limit. nullopt when it fits.
std::optional<CheckResult> pack_limit_skip(const ShapeWithLayout& shape, const GateOptions& options);

// `index` places elements in the buffer (the reference to check pack against).
CheckResult check_pack_round_trip(const ShapeWithLayout& shape, const PackFunctions& functions,
                                  const IndexFn& index, const GateOptions& options);

// The spec's own mapping and pack/unpack, for the checks above.
IndexMapping spec_mapping(const ShapeWithLayout& shape);
PackFunctions spec_pack_functions(const ShapeWithLayout& shape);

// formulas_agree, bijection, pack_round_trip over the spec (the gate's checks
// of the spec against itself).
void add_spec_gate_checks(GateRegistry& registry);
void add_proof_gate_checks(GateRegistry& registry);  // check/proof_checks.cc: Z3 proofs of the catalogue

}  // namespace tilecheck::check
