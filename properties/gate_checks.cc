// The generated properties (properties/) as gate checks: every property of
// the recipe, spec and impl suites runs through RapidCheck as one suite check
// (p<N>_... for property N of docs/PROPERTIES.md, recipe_... for the generators) with
// --cases successful cases (a quick 100 by default; ctest runs 1,000) from
// the gate's --seed. A failure's detail is RapidCheck's report: the minimal
// counterexample and how to reproduce it.
#include <string>

#include "check/gate.h"
#include "properties/property_registry.h"

namespace tilecheck::props {

void add_property_gate_checks(check::GateRegistry& registry) {
  for (auto suite : {recipe_property_suite, spec_property_suite,
                     impl_property_suite}) {
    for (const PropertyInfo& property : suite()) {
      registry.add_suite_check(property.check, property.what,
                               [property](const check::GateOptions& options) {
                                 const PropertyRun run = run_property(
                                     property, static_cast<int>(options.property_cases), options.seed);
                                 return run.ok ? check::CheckResult::passed(run.cases,
                                                                     std::to_string(run.cases) + " cases")
                                               : check::CheckResult::failed(run.message);
                               });
    }
  }
}

}  // namespace tilecheck::props
