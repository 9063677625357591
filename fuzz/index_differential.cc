// Fuzz target index_differential: the impl's IndexPlan against the spec's
// oracle, on one layout and one element per input (layout_source.h says how
// bytes become a layout; TEXT layouts may be invalid or huge, on purpose).
//
// Contract checked (the agreements are tilecheck/testing/agreement.h's):
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

#include <tilecheck/testing/agreement.h>
#include "fuzz/check.h"
#include "fuzz/layout_source.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::fuzz {
namespace {

// One element: every index entry point is the spec's, delinearize inverts
// it; then one coordinate at (or past) its bound is a clear error from the
// checked call.
void check_element(const ShapeWithLayout& shape, const impl::IndexPlan& plan,
                   std::vector<int64_t> e, Choices& choices, const Printed& s) {
  FUZZ_AGREE(check::plan_index_agrees(shape, plan, e), s);
  if (e.empty()) return;
  const size_t dim = static_cast<size_t>(choices.in_range(0, shape.rank() - 1));
  e[dim] = choices.flip() ? -1 : shape.dims[dim];
  FUZZ_CHECK(error_of([&] { plan.linear_index_checked(e); }),
             s << ": linear_index_checked" << Listed(e) << " accepted an out-of-bounds element");
}

// One position (the last a quarter of the time, and when the input is used
// up: where a division by the layout's extents goes wrong first) is the
// spec's element or padding; the position past the end is a clear error.
void check_position(const ShapeWithLayout& shape, const impl::IndexPlan& plan, Choices& choices,
                    const Printed& s) {
  const int64_t padded = plan.padded_element_count();
  if (padded > 0) {
    const int64_t p = gen::sometimes(choices, 3, 4) ? choices.in_range(0, padded - 1) : padded - 1;
    FUZZ_AGREE(check::plan_position_agrees(shape, plan, p), s);
  }
  std::vector<int64_t> element(shape.dims.size(), -1);
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

  FUZZ_AGREE(check::sizes_agree(*shape, check::sizes_of(*plan)), s);
  if (plan->element_count() > 0) {
    check_element(*shape, *plan, gen::make_element(choices, *shape), choices, s);
  }
  check_position(*shape, *plan, choices, s);
}

}  // namespace
}  // namespace tilecheck::fuzz

TILECHECK_DIFFERENTIAL_TARGET(tilecheck::fuzz::check_input)
TILECHECK_LAYOUT_MUTATOR(tilecheck::gen::RecipeLimits{}, false)
