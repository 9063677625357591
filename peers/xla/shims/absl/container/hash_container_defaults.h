// Shim of Abseil's absl/container/hash_container_defaults.h (20240116 on;
// peers/xla/shims/README.md): the system's own when its Abseil has one, else
// the default hash and equality of Abseil's hash containers under the names
// XLA's lru_cache.h uses.
#pragma once

#if __has_include_next(<absl/container/hash_container_defaults.h>)
#include_next <absl/container/hash_container_defaults.h>
#else
#include "absl/container/internal/hash_function_defaults.h"

namespace absl {

template <typename T>
using DefaultHashContainerHash = container_internal::hash_default_hash<T>;
template <typename T>
using DefaultHashContainerEq = container_internal::hash_default_eq<T>;

}  // namespace absl
#endif
