// The property suites as data, so that one definition serves two runners:
// the GoogleTest binaries under ctest (props_main.cc registers each property
// as a test) and `tilecheck gate` (properties/gate_checks.cc runs them through
// RapidCheck directly with a chosen number of cases).
//
// A property body is a RapidCheck testable: a void() function that draws its
// inputs with `*gen` and checks with RC_ASSERT.
//
// The impl suite calls tilecheck/impl/plan.h but this library does not link the impl:
// each executable links the impl it checks (tilecheck_impl, or a mutant).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilecheck::check {
class GateRegistry;
}  // namespace tilecheck::check

namespace tilecheck::props {

struct PropertyInfo {
  std::string suite;  // GoogleTest suite name
  std::string name;   // GoogleTest test name
  std::string check;  // `tilecheck gate` check name: p<N>_..., recipe_...
  std::string what;   // one line: the property, with its number in docs/PROPERTIES.md
  void (*body)();
  // Of every 1,000 cases a runner asks for, how many this property runs
  // (at least one): fewer for a property whose every case is costly, such
  // as data movement past 2^20 elements. scaled_cases applies it.
  int cases_per_1000 = 1000;
};

// The cases `property` runs when a runner asks for `cases`.
inline int scaled_cases(const PropertyInfo& property, int cases) {
  const int64_t scaled = int64_t{cases} * property.cases_per_1000 / 1000;
  return static_cast<int>(scaled < 1 ? 1 : scaled);
}

std::vector<PropertyInfo> recipe_property_suite();  // recipe_properties.cc
std::vector<PropertyInfo> spec_property_suite();    // spec_properties.cc
std::vector<PropertyInfo> impl_property_suite();    // impl_properties.cc
std::vector<PropertyInfo> speed_choice_properties();  // speed_choices.cc, part of the impl suite

// Every property of the three suites as a suite check of the gate
// (properties/gate_checks.cc).
void add_property_gate_checks(check::GateRegistry& registry);

// The seed every runner uses unless told otherwise.
inline constexpr uint64_t kDefaultSeed = 20261122;

struct PropertyRun {
  bool ok = false;
  int64_t cases = 0;    // cases that passed
  std::string message;  // RapidCheck's report: on failure the minimal
                        // counterexample and the reproduce string
};

// Runs one property for `cases` successful cases from `seed`, shrinking a
// failure to its minimal counterexample. Never throws for a failing property.
PropertyRun run_property(const PropertyInfo& property, int cases, uint64_t seed = kDefaultSeed);

}  // namespace tilecheck::props
