// Where the kernels may stream (impl/kernels.h, rows_streamable).
#include "impl/kernels.h"

namespace tilecheck::impl::kernels {

bool rows_streamable(uintptr_t dense, int64_t row_stride, int64_t n, int64_t unit_bytes) {
  const auto aligned = [&](int64_t x) { return x % unit_bytes == 0; };
  return dense % static_cast<uintptr_t>(unit_bytes) == 0 && aligned(row_stride) && aligned(n);
}

}  // namespace tilecheck::impl::kernels
