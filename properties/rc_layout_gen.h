// RapidCheck generators over the layout recipe (tilecheck/gen/layout_recipe.h).
//
// RcChoices (<tilecheck/testing/rapidcheck.h>) turns every recipe choice
// into a `*rc::gen` pick inside rc::gen::exec, so RapidCheck records and
// shrinks the choices themselves, towards the simplest layout.
//
// showValue overloads make counterexamples print as layout text.
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <span>
#include <vector>

#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/testing/rapidcheck.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::props {

// The properties draw from the recipe of gen/ by its own names.
using namespace tilecheck::gen;

// RcChoices and gen_from_recipe are the testing kit's, which users' tests
// draw from too.
using tilecheck::testing::RcChoices;
using tilecheck::testing::gen_from_recipe;

inline rc::Gen<ShapeWithLayout> gen_layout(RecipeLimits limits = {}) {
  return gen_from_recipe([limits](RcChoices& c) { return make_layout(c, limits); });
}

inline rc::Gen<Shape> gen_xla_shape(RecipeLimits limits = {}) {
  return gen_from_recipe([limits](RcChoices& c) { return make_xla_shape(c, 2, limits); });
}

// A layout of 32-bit elements and a candidate bitcast result of it.
struct BitcastPair {
  ShapeWithLayout from, to;
};
inline rc::Gen<BitcastPair> gen_bitcast_pair(RecipeLimits limits = {}) {
  return gen_from_recipe([limits](RcChoices& c) {
    ShapeWithLayout from = make_layout(c, limits);
    from.type = ElementType::kS32;
    from.layout.element_size_bits.reset();
    return BitcastPair{from, make_bitcast_partner(c, from, limits)};
  });
}

inline rc::Gen<InvalidLayout> gen_invalid_layout(RecipeLimits limits = {}) {
  return gen_from_recipe([limits](RcChoices& c) { return make_invalid_layout(c, limits); });
}

// A layout with at least one element, and one of its elements.
struct LayoutAndElement {
  ShapeWithLayout shape;
  std::vector<int64_t> element;
};
inline rc::Gen<LayoutAndElement> gen_layout_and_element(RecipeLimits limits = {}) {
  return gen_from_recipe([limits](RcChoices& c) {
    ShapeWithLayout shape = make_nonempty_layout(c, limits);
    return LayoutAndElement{shape, make_element(c, shape)};
  });
}

// A layout and dense data for it.
struct LayoutAndData {
  ShapeWithLayout shape;
  std::vector<uint8_t> dense;
};
// The same for a layout of another recipe: `make_shape(c)` returns it.
template <class MakeShape>
rc::Gen<LayoutAndData> gen_layout_and_data_from(MakeShape make_shape) {
  return gen_from_recipe([make_shape](RcChoices& c) {
    ShapeWithLayout shape = make_shape(c);
    return LayoutAndData{shape, make_dense_data(c, shape)};
  });
}
inline rc::Gen<LayoutAndData> gen_layout_and_data(RecipeLimits limits = {}) {
  return gen_layout_and_data_from([limits](RcChoices& c) { return make_layout(c, limits); });
}

}  // namespace tilecheck::props

namespace tilecheck {

// showValue of a ShapeWithLayout is the testing kit's.
inline void showValue(const Shape& shape, std::ostream& os) { os << print_any_shape(shape); }

namespace gen {
inline void showValue(const InvalidLayout& invalid, std::ostream& os) {
  os << invalid_kind_name(invalid.kind) << ": " << invalid.text;
}
}  // namespace gen

namespace props {
inline void showValue(const LayoutAndElement& v, std::ostream& os) {
  os << print_shape(v.shape) << " element (";
  for (size_t i = 0; i < v.element.size(); ++i) os << (i ? "," : "") << v.element[i];
  os << ")";
}
inline void showValue(const BitcastPair& v, std::ostream& os) {
  os << print_shape(v.from) << " as " << print_shape(v.to);
}
inline void showValue(const LayoutAndData& v, std::ostream& os) {
  os << print_shape(v.shape) << " dense[" << v.dense.size() << "] =";
  for (size_t i = 0; i < v.dense.size() && i < 64; ++i) os << ' ' << int(v.dense[i]);
  if (v.dense.size() > 64) os << " ...";
}
}  // namespace props

}  // namespace tilecheck
