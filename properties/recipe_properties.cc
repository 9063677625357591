// Properties of the recipe itself: what it promises its users (the other
// properties, the fuzzers) — valid layouts within the budget, invalid layouts
// that really are invalid, elements in bounds, dense data of the right size —
// and that its weighted choices reach every feature it claims to cover.
#include <rapidcheck.h>

#include "properties/property_registry.h"
#include "properties/rc_layout_gen.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::props {
namespace {

void LayoutsAreValidAndWithinBudget() {
  const RecipeLimits limits;
  const bool plan_shaped = *rc::gen::arbitrary<bool>();  // make_plan_layout keeps the same promises
  const ShapeWithLayout shape =
      plan_shaped ? *gen_from_recipe([limits](RcChoices& c) { return make_plan_layout(c, limits); })
                  : *gen_layout(limits);
  RC_TAG(plan_shaped ? "make_plan_layout" : "make_layout");
  spec::validate(shape);
  RC_ASSERT(shape.rank() <= 6);
  RC_ASSERT(spec::element_count(shape) <= limits.max_elements);
  RC_ASSERT(spec::padded_element_count(shape) <= limits.max_padded_elements);
  RC_TAG(shape.layout.tiles.size());  // tile levels; the full feature tally is recipe_coverage_test
}

void ElementsAreInBounds() {
  const LayoutAndElement v = *gen_layout_and_element();
  spec::validate_element(v.shape, v.element);  // throws if out of bounds
  RC_ASSERT(spec::padded_element_count(v.shape) <= RecipeLimits{}.max_padded_elements);
}

void DenseDataHasTheDenseSize() {
  const LayoutAndData v = *gen_layout_and_data();
  RC_ASSERT(static_cast<int64_t>(v.dense.size()) == spec::dense_byte_size(v.shape));
}

// The invalid generator's struct form is rejected by the spec's validation.
void InvalidStructsAreInvalid() {
  const InvalidLayout invalid = *gen_invalid_layout();
  RC_TAG(invalid_kind_name(invalid.kind));
  if (!invalid.shape) return;
  RC_ASSERT_THROWS_AS(spec::validate(*invalid.shape), Error);
}

}  // namespace

std::vector<PropertyInfo> recipe_property_suite() {
  return {
      {"Recipe", "LayoutsAreValidAndWithinBudget", "recipe_valid",
       "recipe: generated layouts are valid and within the budget", &LayoutsAreValidAndWithinBudget},
      {"Recipe", "ElementsAreInBounds", "recipe_elements",
       "recipe: generated elements are in bounds", &ElementsAreInBounds},
      {"Recipe", "DenseDataHasTheDenseSize", "recipe_dense_data",
       "recipe: generated dense data has the dense size", &DenseDataHasTheDenseSize},
      {"Recipe", "InvalidStructsAreInvalid", "recipe_invalid",
       "recipe: generated invalid layouts are rejected by spec validation", &InvalidStructsAreInvalid},
  };
}

}  // namespace tilecheck::props
