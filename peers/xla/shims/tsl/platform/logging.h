// Shim of TSL's tsl/platform/logging.h, the path XLA's files included before
// TSL moved into xla/tsl (peers/xla/shims/README.md): a TSL the system has,
// else the shim of the new path.
#pragma once

#if __has_include_next(<tsl/platform/logging.h>)
#include_next <tsl/platform/logging.h>
#else
#include "xla/tsl/platform/logging.h"
#endif
