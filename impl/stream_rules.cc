// Where and how the kernels may stream (impl/kernels.h, rows_streamable and row_stores).
#include "impl/kernels.h"

namespace tilecheck::impl::kernels {

bool rows_streamable(uintptr_t dense, int64_t row_stride, int64_t n, int64_t unit_bytes) {
  const auto aligned = [&](int64_t x) { return x % unit_bytes == 0; };
  return dense % static_cast<uintptr_t>(unit_bytes) == 0 && aligned(row_stride) && aligned(n);
}

RowStores row_stores(bool stream, uintptr_t dense, int64_t row_stride, int64_t n, int64_t vector_bytes) {
  if (!stream) return RowStores::kCached;
  if (vector_bytes < kLineBytes) {
    return rows_streamable(dense, row_stride, n, kLineBytes) ? RowStores::kStagedLines : RowStores::kCached;
  }
  return rows_streamable(dense, row_stride, n, vector_bytes) ? RowStores::kStreamed : RowStores::kCached;
}

}  // namespace tilecheck::impl::kernels
