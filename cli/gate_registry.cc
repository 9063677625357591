// Every check `tilecheck gate` runs. To add yours: one line below calling the
// registration function that lives in your own file.
#include "cli/gate.h"
#include "cli/gate_checks.h"
#include "cli/impl_gate_checks.h"

namespace tilecheck::cli {

GateRegistry standard_gate() {
  GateRegistry registry;
  add_spec_gate_checks(registry);  // cli/gate_checks.cc
  add_property_gate_checks(registry);  // cli/gate_properties.cc
  add_impl_gate_checks(registry);  // cli/impl_gate_checks.cc
  add_proof_gate_checks(registry);  // cli/prove.cc
  return registry;
}

}  // namespace tilecheck::cli
