// What every kernel family stores with: Put, a store that is non-temporal
// when the destination is much larger than the caches, and the whole-line
// rules for streaming stores (RowStoresHere, RowsStreamable, LinesWhole,
// StreamRuns).
// Highway per-target code: included once per SIMD target (hence the
// toggling include guard, not #pragma once).
#if defined(TILECHECK_IMPL_KERNEL_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TILECHECK_IMPL_KERNEL_COMMON_INL_H_
#undef TILECHECK_IMPL_KERNEL_COMMON_INL_H_
#else
#define TILECHECK_IMPL_KERNEL_COMMON_INL_H_
#endif

#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "impl/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace tilecheck::impl::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Pack kernels work on 128-bit vectors, where InterleaveLower/Upper are
// exact, and can store with non-temporal stores (`stream`, for destinations
// much larger than the caches: no read-for-ownership of the destination).
template <bool kStream, class D, class V, class T>
HWY_INLINE void Put(V v, D d, T* p) {
  if constexpr (kStream) {
    hn::Stream(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}

// The kernels stage whole lines where their vectors are narrower than a
// line (kernels.h, kLineBytes and row_stores) and stream them out with
// StreamRuns; every streamed kernel writes whole lines one after another.

// How this target's kernels store rows in turn (kernels.h, row_stores).
HWY_INLINE RowStores RowStoresHere(bool stream, const void* dense, int64_t row_stride, int64_t n) {
  const int64_t N = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<uint8_t>()));
  return row_stores(stream, reinterpret_cast<uintptr_t>(dense), row_stride, n, N);
}

// An unpack may stream its dense rows (`n` bytes each, `row_stride` apart
// from `dense`, whole vectors then a scalar tail) when every row store is a
// whole vector-aligned vector (kernels.h, rows_streamable).
HWY_INLINE bool RowsStreamable(const void* dense, int64_t row_stride, int64_t n) {
  const int64_t N = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<uint8_t>()));
  return rows_streamable(reinterpret_cast<uintptr_t>(dense), row_stride, n, N);
}

// The same rule with the cache line as the unit, for kernels that stage
// whole lines and stream them out (StreamRuns): true when `base`, `a` and
// `b` are all whole lines (an aligned address; byte counts or strides that
// are multiples of a line, 0 among them).
HWY_INLINE bool LinesWhole(const void* base, int64_t a, int64_t b) {
  return rows_streamable(reinterpret_cast<uintptr_t>(base), a, b, kLineBytes);
}

// Streams `rows` runs of `run` bytes, `run` bytes apart in the aligned
// `stage`, to `to`, `to + stride`, ..., each run written whole before the
// next. `to`, `run` and `stride` are whole lines (LinesWhole).
HWY_INLINE void StreamRuns(const uint8_t* stage, int64_t run, int64_t rows, uint8_t* to, int64_t stride) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t b = 0; b < run; b += N) hn::Stream(hn::Load(d, stage + r * run + b), d, to + r * stride + b);
  }
}

// kernels.h, copy_runs.
void CopyRuns(const uint8_t* from, int64_t from_stride, uint8_t* to, int64_t to_stride, int64_t count,
              int64_t bytes, bool stream) {
  if (!stream || !LinesWhole(to, to_stride, bytes)) {
    for (int64_t r = 0; r < count; ++r) std::memcpy(to + r * to_stride, from + r * from_stride, bytes);
    return;
  }
  // At most a line a vector: a whole line is whole vectors, each aligned.
  const hn::CappedTag<uint8_t, kLineBytes> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t r = 0; r < count; ++r) {
    for (int64_t b = 0; b < bytes; b += N) {
      hn::Stream(hn::LoadU(d, from + r * from_stride + b), d, to + r * to_stride + b);
    }
  }
}

}  // namespace tilecheck::impl::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // TILECHECK_IMPL_KERNEL_COMMON_INL_H_
