// The generated properties (properties/) as gate checks: every property of
// the recipe, spec and impl suites runs through RapidCheck as one suite check
// (p<N>_... for property N of issue 4, recipe_... for the generators) with
// --cases successful cases (a quick 100 by default; ctest runs 1,000) from
// the gate's --seed. A failure's detail is RapidCheck's report: the minimal
// counterexample and how to reproduce it.
#include <string>

#include "cli/gate.h"
#include "properties/property_registry.h"

namespace tilecheck::cli {

void add_property_gate_checks(GateRegistry& registry) {
  for (auto suite : {props::recipe_property_suite, props::spec_property_suite,
                     props::impl_property_suite}) {
    for (const props::PropertyInfo& property : suite()) {
      registry.add_suite_check(property.check, property.what,
                               [property](const GateOptions& options) {
                                 const props::PropertyRun run = props::run_property(
                                     property, static_cast<int>(options.property_cases), options.seed);
                                 return run.ok ? CheckResult::passed(run.cases,
                                                                     std::to_string(run.cases) + " cases")
                                               : CheckResult::failed(run.message);
                               });
    }
  }
}

}  // namespace tilecheck::cli
