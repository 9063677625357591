// Shim of TSL's tsl/platform/statusor.h, the path XLA's files included before
// TSL moved into xla/tsl (peers/xla/shims/README.md): a TSL the system has,
// else the shim of the new path.
#pragma once

#if __has_include_next(<tsl/platform/statusor.h>)
#include_next <tsl/platform/statusor.h>
#else
#include "xla/tsl/platform/statusor.h"
#endif
