// Included first in each of XLA's files the peer compiles (peers/CMakeLists.txt,
// peers/xla/shims/README.md). XLA's plan-cache key (since 2025-12-16) hashes
// std::optional fields with absl::Hash. An Abseil built with its own
// absl::optional (ABSL_OPTION_USE_STD_OPTIONAL 0, as Debian's 20220623 is)
// hashes only that one; this gives std::optional the same hash there, as
// later Abseil releases do themselves. Any other Abseil is left as it is.
#pragma once

#include <optional>
#include <utility>

#include "absl/base/config.h"

#if !defined(ABSL_USES_STD_OPTIONAL) && defined(ABSL_LTS_RELEASE_VERSION) && ABSL_LTS_RELEASE_VERSION < 20230125
#include "absl/hash/hash.h"

namespace absl {
ABSL_NAMESPACE_BEGIN

// Found by argument-dependent lookup for a std::optional of an Abseil type
// (the key's absl::InlinedVector), which is all XLA hashes.
template <typename H, typename T>
H AbslHashValue(H state, const std::optional<T>& value) {
  if (value) state = H::combine(std::move(state), *value);
  return H::combine(std::move(state), value.has_value());
}

ABSL_NAMESPACE_END
}  // namespace absl
#endif
