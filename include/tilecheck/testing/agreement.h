// The contract "an implementation agrees with the spec", stated once.
//
// Each function below is given what an implementation answered to one
// question about a layout, asks the spec (the oracle) the same question, and
// returns nothing when the answers agree, or a Disagreement naming the
// question, the spec's answer and the implementation's:
//
//   sizes       element count, tiled shape, padded count, byte size and dense
//               byte size are the spec's (D5, D6);
//   index       linear_index(e) == spec linear_index(e) for an element e;
//   position    delinearize(p) is the spec's: the same element, or padding;
//   pack        pack(dense) is the spec's physical buffer byte for byte,
//               padding zero (D8);
//   unpack      unpack(physical) is the spec's dense buffer, whatever the
//               padding holds.
//
// For the impl's plans, plan_index_agrees and plan_position_agrees put the
// same question to every entry point (plain, checked and batch index;
// delinearize and its round trip). Everything that checks an implementation
// asks through these: the gate's impl checks (check/impl_checks.cc), the
// properties (properties/impl_properties.cc), the fuzz targets (fuzz/) and
// the conformance checker for external implementations (conformance/). They
// differ only in how they choose the questions — every element, random
// samples, bytes from a fuzzer — and in how they report a disagreement.
//
// The plan functions are inline, so a property executable linked with a
// deliberately broken impl (properties/mutants/) checks that impl.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::check {

using Element = std::vector<int64_t>;

struct Disagreement {
  std::string what;                                         // "wrong linear index"
  std::vector<std::pair<std::string, std::string>> details;  // ("element", "(1,2)"), ...
  std::string text() const;  // "wrong linear index: element (1,2), expected 5, actual 7"
};

// Nothing when the implementation agrees with the spec.
using Agreement = std::optional<Disagreement>;

// The sizes an implementation reports for a layout.
struct Sizes {
  int64_t element_count = 0;
  std::vector<int64_t> tiled_shape;
  int64_t padded_element_count = 0;
  int64_t byte_size = 0;
  // -1 when it does not fit int64, though the layout is valid: 2^62 + 1
  // elements of E(9), two dense bytes each.
  int64_t dense_byte_size = 0;
};

Agreement sizes_agree(const ShapeWithLayout& shape, const Sizes& sizes);
Agreement byte_size_agrees(const ShapeWithLayout& shape, int64_t bytes);
// The same against XLA's ShapeUtil::ArraySize (xla::array_size).
Agreement xla_array_size_agrees(const ShapeWithLayout& shape, int64_t bytes);
Agreement index_agrees(const ShapeWithLayout& shape, const Element& e, int64_t index);
Agreement position_agrees(const ShapeWithLayout& shape, int64_t p, const std::optional<Element>& element);
// linear_index_checked and linear_index_batch gave the same index as
// linear_index (`index`, already compared with the spec).
Agreement entry_points_agree(const Element& e, int64_t index, int64_t checked, int64_t batch);
// delinearize(p) gave `back` for p = linear_index(e): it must be e.
Agreement inverse_agrees(const Element& e, int64_t p, const std::optional<Element>& back);

// `physical` is what pack wrote for `dense`; `dense` what unpack wrote for
// `physical`. A difference names the first differing byte and what the
// layout keeps there (which element or padding).
Agreement pack_agrees(const ShapeWithLayout& shape, std::span<const uint8_t> dense,
                      std::span<const uint8_t> physical);
Agreement unpack_agrees(const ShapeWithLayout& shape, std::span<const uint8_t> physical,
                        std::span<const uint8_t> dense);

// The same comparison against an expected buffer computed once (by the spec,
// or by the implementation itself in another configuration). `physical` says
// whether the buffers are in the layout (pack) or dense (unpack), for naming
// what the first differing byte holds; `what` names the failure ("wrong
// packed bytes"). An element of whole bytes wider than one is shown whole,
// and with `source` (the buffer the operation read: the dense array of a
// pack, the physical buffer of an unpack) the disagreement names whose
// value the actual buffer holds there ("the value of element (0,1)").
Agreement bytes_agree(const ShapeWithLayout& shape, bool physical, std::string_view what,
                      std::span<const uint8_t> expected, std::span<const uint8_t> actual,
                      std::span<const uint8_t> source = {});

// Buffers up to this size are shown whole in a disagreement; a larger one
// as a window of half as many bytes around the first difference.
inline constexpr size_t kShownBufferBytes = 64;

// Space-separated lowercase hex: "0a ff 00".
std::string hex_bytes(std::span<const uint8_t> bytes);

// The impl's plans: every entry point.

inline Sizes sizes_of(const impl::IndexPlan& plan) {
  int64_t dense = -1;
  try {
    dense = plan.dense_byte_size();
  } catch (const Error&) {
  }
  return {plan.element_count(), plan.tiled_shape(), plan.padded_element_count(), plan.byte_size(), dense};
}

// linear_index, linear_index_checked and linear_index_batch of e are the
// spec's index p, and delinearize(p) gives e back.
inline Agreement plan_index_agrees(const ShapeWithLayout& shape, const impl::IndexPlan& plan,
                                   const Element& e) {
  const int64_t p = plan.linear_index(e);
  if (Agreement d = index_agrees(shape, e, p)) return d;
  const int64_t checked = plan.linear_index_checked(e);
  int64_t batch = -1;
  plan.linear_index_batch(e, std::span<int64_t>(&batch, 1));
  if (Agreement d = entry_points_agree(e, p, checked, batch)) return d;
  // p is the spec's index, which is one-to-one (proved): the spec's
  // delinearize(p) is e, so the impl's must be too.
  Element back(e.size(), -1);
  const bool stored = plan.delinearize(p, back);
  return inverse_agrees(e, p, stored ? std::optional<Element>(back) : std::nullopt);
}

// delinearize(p) is the spec's element or padding, and a stored element
// indexes back to p.
inline Agreement plan_position_agrees(const ShapeWithLayout& shape, const impl::IndexPlan& plan,
                                      int64_t p) {
  Element e(static_cast<size_t>(shape.rank()), -1);
  const bool stored = plan.delinearize(p, e);
  if (Agreement d = position_agrees(shape, p, stored ? std::optional<Element>(e) : std::nullopt)) return d;
  if (stored) return index_agrees(shape, e, plan.linear_index(e));
  return std::nullopt;
}

}  // namespace tilecheck::check
