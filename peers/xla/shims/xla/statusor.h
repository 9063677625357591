// Shim of XLA's statusor.h for TransposePlan (peers/xla/shims/README.md):
// XLA's StatusOr is Abseil's, and TSL's two macros that return an error.
#pragma once

#include <utility>

#include "absl/status/statusor.h"
#include "xla/status.h"

namespace xla {

template <typename T>
using StatusOr = absl::StatusOr<T>;

}  // namespace xla

#define TF_RETURN_IF_ERROR(expr)          \
  do {                                    \
    const ::absl::Status _status = (expr); \
    if (!_status.ok()) return _status;    \
  } while (false)

#define TF_STATUS_MACROS_CONCAT_INNER(x, y) x##y
#define TF_STATUS_MACROS_CONCAT(x, y) TF_STATUS_MACROS_CONCAT_INNER(x, y)
#define TF_ASSIGN_OR_RETURN(lhs, rexpr) \
  TF_ASSIGN_OR_RETURN_IMPL(TF_STATUS_MACROS_CONCAT(_status_or_value, __LINE__), lhs, rexpr)
#define TF_ASSIGN_OR_RETURN_IMPL(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                             \
  if (!statusor.ok()) return statusor.status();        \
  lhs = std::move(statusor).value()
