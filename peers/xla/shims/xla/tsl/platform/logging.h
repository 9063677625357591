// Shim of XLA's xla/tsl/platform/logging.h (peers/xla/shims/README.md): what
// TransposePlan's files use of it is Abseil's CHECK, DCHECK, LOG(FATAL) and
// VLOG (absl/log, or its shims where the system's Abseil lacks it).
#pragma once

#include "absl/log/check.h"
#include "absl/log/log.h"
