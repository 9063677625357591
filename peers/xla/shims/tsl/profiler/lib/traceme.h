// Shim of TSL's tsl/profiler/lib/traceme.h (peers/xla/shims/README.md): a
// TSL the system has, else a TraceMe that records nothing, as the peer runs
// no profiler. It takes a name or, as XLA's files since 2025 give it, a
// function that would make one (never called), with TraceMeEncode's
// arguments.
#pragma once

#if __has_include_next(<tsl/profiler/lib/traceme.h>)
#include_next <tsl/profiler/lib/traceme.h>
#else
#include <initializer_list>
#include <string>
#include <string_view>

namespace tsl::profiler {

class TraceMe {
 public:
  template <typename NameOrMaker>
  explicit TraceMe(NameOrMaker&& /*name*/, int /*level*/ = 1) {}
};

// One key and value of TraceMeEncode's list, of any type.
struct TraceMeArg {
  template <typename Key, typename Value>
  TraceMeArg(Key&& /*key*/, Value&& /*value*/) {}
};

inline std::string TraceMeEncode(std::string_view name, std::initializer_list<TraceMeArg> /*args*/) {
  return std::string(name);
}

}  // namespace tsl::profiler
#endif
