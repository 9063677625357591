// Shim of XLA's xla/tsl/platform/statusor.h (peers/xla/shims/README.md):
// TF_ASSIGN_OR_RETURN, which returns the status of a failed absl::StatusOr
// and otherwise assigns its value.
#pragma once

#include <utility>

#include "absl/status/statusor.h"
#include "xla/tsl/platform/errors.h"

#define TF_STATUS_MACROS_CONCAT_INNER(x, y) x##y
#define TF_STATUS_MACROS_CONCAT(x, y) TF_STATUS_MACROS_CONCAT_INNER(x, y)
#define TF_ASSIGN_OR_RETURN(lhs, rexpr) \
  TF_ASSIGN_OR_RETURN_IMPL(TF_STATUS_MACROS_CONCAT(_status_or_value, __LINE__), lhs, rexpr)
#define TF_ASSIGN_OR_RETURN_IMPL(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                             \
  if (!statusor.ok()) return statusor.status();        \
  lhs = std::move(statusor).value()
