// What every kernel family stores with: Put, a store that is non-temporal
// when the destination is much larger than the caches.
// Highway per-target code: included once per SIMD target (hence the
// toggling include guard, not #pragma once).
#if defined(TILECHECK_IMPL_KERNEL_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TILECHECK_IMPL_KERNEL_COMMON_INL_H_
#undef TILECHECK_IMPL_KERNEL_COMMON_INL_H_
#else
#define TILECHECK_IMPL_KERNEL_COMMON_INL_H_
#endif

#include "hwy/highway.h"

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

}  // namespace tilecheck::impl::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // TILECHECK_IMPL_KERNEL_COMMON_INL_H_
