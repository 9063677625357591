// Fuzz target index_differential: the impl's IndexPlan against the spec's
// oracle, on one layout and one element per input (layout_source.h says how
// bytes become a layout; TEXT layouts may be invalid or huge, on purpose).
//
// Contract checked:
//   - agreement on validity: IndexPlan's constructor throws Error exactly when
//     spec::validate does (syntax aside, every D9 error class: overflow,
//     symbolic dims);
//   - sizes agree: element count, tiled shape, padded count (D5), byte size
//     (D6), dense byte size;
//   - for an in-bounds element e: impl linear_index(e) == spec linear_index(e),
//     also through linear_index_checked and linear_index_batch, and
//     delinearize(linear_index(e)) == e in both;
//   - for a position p in [0, padded count): impl and spec delinearize agree
//     on padding-or-not and on the element, and a non-padding p round-trips
//     through linear_index;
//   - out of range is a clear Error, never UB: a coordinate at its bound for
//     linear_index_checked, the position padded count for delinearize.
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

void check_sizes(const ShapeWithLayout& shape, const impl::IndexPlan& plan, const Printed& s) {
  FUZZ_CHECK(plan.element_count() == spec::element_count(shape), s << ": element count");
  FUZZ_CHECK(plan.tiled_shape() == spec::tiled_shape(shape),
             s << ": tiled shape impl " << Listed(plan.tiled_shape()) << " spec "
               << Listed(spec::tiled_shape(shape)));
  FUZZ_CHECK(plan.padded_element_count() == spec::padded_element_count(shape),
             s << ": padded count impl " << plan.padded_element_count() << " spec "
               << spec::padded_element_count(shape));
  FUZZ_CHECK(plan.byte_size() == spec::byte_size(shape),
             s << ": byte size impl " << plan.byte_size() << " spec " << spec::byte_size(shape));
  FUZZ_CHECK(plan.dense_byte_size() == spec::dense_byte_size(shape), s << ": dense byte size");
}

void check_element(const ShapeWithLayout& shape, const impl::IndexPlan& plan,
                   std::vector<int64_t> e, Choices& choices, const Printed& s) {
  const int64_t expected = spec::linear_index(shape, e);
  const int64_t fast = plan.linear_index(e);
  FUZZ_CHECK(fast == expected,
             s << ": linear_index" << Listed(e) << " impl " << fast << " spec " << expected);
  FUZZ_CHECK(plan.linear_index_checked(e) == expected, s << ": linear_index_checked" << Listed(e));
  int64_t batch = -1;
  plan.linear_index_batch(e, std::span<int64_t>(&batch, 1));
  FUZZ_CHECK(batch == expected, s << ": linear_index_batch" << Listed(e) << " gave " << batch);

  std::vector<int64_t> back(e.size(), -1);
  FUZZ_CHECK(plan.delinearize(expected, back) && back == e,
             s << ": impl delinearize(" << expected << ") gave " << Listed(back) << ", not "
               << Listed(e));
  const std::optional<std::vector<int64_t>> spec_back = spec::delinearize(shape, expected);
  FUZZ_CHECK(spec_back && *spec_back == e, s << ": spec delinearize(" << expected << ")");

  // One coordinate at (or past) its bound: a clear error from the checked call.
  if (e.empty()) return;
  const size_t dim = static_cast<size_t>(choices.in_range(0, shape.rank() - 1));
  e[dim] = choices.flip() ? -1 : shape.dims[dim];
  FUZZ_CHECK(error_of([&] { plan.linear_index_checked(e); }),
             s << ": linear_index_checked" << Listed(e) << " accepted an out-of-bounds element");
}

void check_position(const ShapeWithLayout& shape, const impl::IndexPlan& plan, Choices& choices,
                    const Printed& s) {
  const int64_t padded = plan.padded_element_count();
  std::vector<int64_t> element(shape.dims.size(), -1);
  if (padded > 0) {
    // The last position a quarter of the time (and when the input is used
    // up): where a division by the layout's extents goes wrong first.
    const int64_t p = gen::sometimes(choices, 3, 4) ? choices.in_range(0, padded - 1) : padded - 1;
    const bool stored = plan.delinearize(p, element);
    const std::optional<std::vector<int64_t>> expected = spec::delinearize(shape, p);
    FUZZ_CHECK(stored == expected.has_value(),
               s << ": position " << p << " is " << (stored ? "an element" : "padding")
                 << " in the impl, not in the spec");
    if (stored) {
      FUZZ_CHECK(element == *expected, s << ": delinearize(" << p << ") impl " << Listed(element)
                                         << " spec " << Listed(*expected));
      FUZZ_CHECK(plan.linear_index(element) == p, s << ": linear_index(delinearize(" << p << "))");
    }
  }
  FUZZ_CHECK(error_of([&] { plan.delinearize(padded, element); }),
             s << ": delinearize(" << padded << ") past the end did not throw");
}

void check_input(FuzzedDataProvider& input, Choices& choices) {
  const std::optional<ShapeWithLayout> shape = consume_layout(input, choices, {});
  if (!shape) return;
  const Printed s{*shape};

  std::optional<impl::IndexPlan> plan;
  const std::optional<std::string> spec_error = error_of([&] { spec::validate(*shape); });
  const std::optional<std::string> impl_error = error_of([&] { plan.emplace(*shape); });
  FUZZ_CHECK(spec_error.has_value() == impl_error.has_value(),
             s << ": validity differs: spec " << spec_error.value_or("accepts") << "; impl "
               << impl_error.value_or("accepts"));
  if (spec_error) return;

  check_sizes(*shape, *plan, s);
  if (plan->element_count() > 0) {
    check_element(*shape, *plan, gen::make_element(choices, *shape), choices, s);
  }
  check_position(*shape, *plan, choices, s);
}

}  // namespace
}  // namespace tilecheck::fuzz

TILECHECK_DIFFERENTIAL_TARGET(tilecheck::fuzz::check_input)
