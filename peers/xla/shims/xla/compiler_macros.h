// Shim of XLA's compiler_macros.h for TransposePlan (peers/xla/shims/README.md):
// the SIMD kernels to compile, as XLA selects them for GCC and Clang, and its
// loop-unrolling and flattening hints.
#pragma once

#if (defined(__GNUC__) || defined(__clang__)) && defined(__SSE2__)
#define XLA_HAS_SSE2
#endif

#if defined(__ARM_NEON) && !defined(__ARM_BIG_ENDIAN)
#define XLA_HAS_ARM_NEON
#if defined(__aarch64__)
#define XLA_HAS_ARM64
#endif
#endif

#if defined(__clang__)
#define XLA_UNROLL _Pragma("unroll")
#else
#define XLA_UNROLL _Pragma("GCC unroll 128")
#endif

#define XLA_FLATTEN __attribute__((flatten))
