// Shim of XLA's xla/tsl/platform/errors.h (peers/xla/shims/README.md):
// TF_RETURN_IF_ERROR, which returns a failed absl::Status.
#pragma once

#include "absl/status/status.h"

#define TF_RETURN_IF_ERROR(expr)           \
  do {                                     \
    const ::absl::Status _status = (expr); \
    if (!_status.ok()) return _status;     \
  } while (false)
