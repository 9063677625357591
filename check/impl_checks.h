// Gate checks of the fast implementation (impl/) against the spec, per layout:
//   impl_index        sizes and tiled shape equal, linear_index equal on every
//                     element (sampled above the exhaustive limit);
//   impl_delinearize  delinearize equal on every position (or sampled);
//   impl_pack         pack and unpack byte-for-byte equal to the spec's, with
//                     random dense bytes (high bits included) and a physical
//                     buffer with garbage padding, at 1 and 2 threads.
#pragma once

#include "check/gate.h"

namespace tilecheck::check {

void add_impl_gate_checks(GateRegistry& registry);

}  // namespace tilecheck::check
