// Shim of XLA's statusor.h, which XLA's files included until mid-2024
// (peers/xla/shims/README.md): XLA's StatusOr is Abseil's, with TSL's two
// macros that return an error.
#pragma once

#include "absl/status/statusor.h"
#include "xla/status.h"
#include "xla/tsl/platform/statusor.h"

namespace xla {

template <typename T>
using StatusOr = absl::StatusOr<T>;

}  // namespace xla
