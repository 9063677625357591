// Fuzz target relayout_differential: the impl's RelayoutPlan against the spec,
// on two layouts of one shape and one physical buffer per input.
//
// The first layout comes from layout_source.h, shrunk into kDataLimits. The
// second:
//   TEXT mode: a second layout text. If its dims or element width differ
//     from the first text's, the constructor must throw Error (checked, then
//     done); else its type and layout (minor_to_major, tiles, L, E, S) go on
//     the first layout's (shrunk) dims. The type comes along because the width
//     may be the type's own (s4[..] partners s8[..]{..E(4)}).
//   RECIPE mode: the tiles, L(n) and S(n) of a second recipe layout and a
//     fresh minor_to_major, on the first layout's shape (tiles fit any rank,
//     D3). One input in eight relays a layout to itself.
// Either way trailing tiles are dropped while the second is over kDataLimits.
//
// Contract checked: for a source buffer of arbitrary bytes (garbage in its
// padding, which must be ignored), impl relayout(src) into a destination
// pre-filled with non-zero bytes == spec pack_B(spec unpack_A(src)), byte for
// byte (the destination's padding zero), with 1 or 2 threads.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/check.h"
#include "fuzz/layout_source.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::fuzz {
namespace {

// `partner` on `dims`, without trailing tiles that break kDataLimits.
ShapeWithLayout on_dims(ShapeWithLayout partner, const std::vector<int64_t>& dims) {
  partner.dims = dims;
  while (!partner.layout.tiles.empty() && !valid_within(partner, kDataLimits)) {
    partner.layout.tiles.pop_back();
  }
  return partner;
}

Layout second_layout_from_recipe(const ShapeWithLayout& first, Choices& choices) {
  if (gen::sometimes(choices, 1, 8)) return first.layout;
  const ShapeWithLayout donor = gen::make_layout(choices, kDataLimits);
  Layout layout = donor.layout;
  layout.minor_to_major = gen::make_minor_to_major(choices, first.rank());
  layout.element_size_bits = first.layout.element_size_bits;  // same width
  return layout;
}

void check_input(FuzzedDataProvider& input, Choices& choices) {
  const std::optional<ShapeWithLayout> first = consume_layout(input, choices, kDataLimits);
  if (!first) return;
  const std::optional<ShapeWithLayout> from = gen::fit_for_data(*first, kDataLimits);
  if (!from) return;

  ShapeWithLayout partner = *from;
  if (input.ConsumeBool()) {  // TEXT
    ShapeWithLayout second;
    try {
      second = parse_shape(input.ConsumeRandomLengthString());
    } catch (const Error&) {
      return;
    }
    if (second.dims != first->dims || second.element_bits() != first->element_bits()) {
      FUZZ_CHECK(error_of([&] { impl::RelayoutPlan mismatched(*first, second); }),
                 Printed{*first} << " -> " << Printed{second}
                                 << ": layouts of different shapes or widths accepted");
      return;
    }
    partner = second;
  } else {
    partner.layout = second_layout_from_recipe(*from, choices);
  }
  const ShapeWithLayout to = on_dims(partner, from->dims);
  if (!valid_within(to, kDataLimits)) return;  // e.g. an L(n) past the budget

  std::optional<impl::RelayoutPlan> plan;
  const std::optional<std::string> rejected = error_of([&] { plan.emplace(*from, to); });
  FUZZ_CHECK(!rejected, Printed{*from} << " -> " << Printed{to}
                                       << ": the spec accepts both, the impl rejects them: "
                                       << *rejected);
  const impl::ExecOptions options{gen::sometimes(choices, 1, 16) ? 2 : 1};
  const std::vector<uint8_t> src = gen::random_bytes(
      static_cast<uint64_t>(choices.in_range(0, INT64_MAX)), spec::byte_size(*from));
  const std::vector<uint8_t> expected = spec::pack(to, spec::unpack(*from, src));
  std::vector<uint8_t> dst(expected.size(), 0xA5);
  plan->run(src, dst, options);
  FUZZ_AGREE(check::bytes_agree(to, true, "relayout differs from the spec", expected, dst),
             Printed{*from} << " -> " << Printed{to} << " (threads " << options.threads << ")");
}

}  // namespace
}  // namespace tilecheck::fuzz

TILECHECK_DIFFERENTIAL_TARGET(tilecheck::fuzz::check_input)
TILECHECK_LAYOUT_MUTATOR(tilecheck::fuzz::kDataLimits, false)
