// Shim of XLA's status.h for TransposePlan (peers/xla/shims/README.md): XLA's
// Status is Abseil's.
#pragma once

#include "absl/status/status.h"

namespace xla {

using Status = absl::Status;

inline Status OkStatus() { return absl::OkStatus(); }

}  // namespace xla
