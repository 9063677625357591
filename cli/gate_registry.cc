// Every check `tilecheck gate` runs. To add yours: one line below calling the
// registration function that lives in your own file.
#include "check/checks.h"
#include "check/impl_checks.h"
#include "cli/gate.h"
#include "properties/property_registry.h"

namespace tilecheck::cli {

GateRegistry standard_gate() {
  GateRegistry registry;
  check::add_spec_gate_checks(registry);        // check/checks.cc
  props::add_property_gate_checks(registry);   // properties/gate_checks.cc
  check::add_impl_gate_checks(registry);        // check/impl_checks.cc
  check::add_proof_gate_checks(registry);       // check/proof_checks.cc
  return registry;
}

}  // namespace tilecheck::cli
