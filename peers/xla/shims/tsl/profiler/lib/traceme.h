// Shim of TSL's traceme.h for TransposePlan (peers/xla/shims/README.md): the
// peer runs no profiler, so a trace records nothing.
#pragma once

#include <string_view>

namespace tsl::profiler {

class TraceMe {
 public:
  explicit TraceMe(std::string_view /*name*/, int /*level*/ = 1) {}
};

}  // namespace tsl::profiler
