// A library with the required function that supports no layout (always
// nonzero, tilecheck/conformance_plugin.h): `gate --impl` has nothing to check
// and must exit 2 rather than pass.
#include <cstdint>

extern "C" int tilecheck_impl_linear_index(const char*, int64_t, const int64_t*, int64_t*) {
  return 1;
}
