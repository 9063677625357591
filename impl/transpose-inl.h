// The transposing panels (kernels.h, "A transposing panel"): column-major
// tiles to and from dense rows, in 16x16 blocks (AVX-512; AVX2 as four 8x8)
// or 4x4 blocks; and the element transposes of 1, 2, 4 and 8 bytes
// (kernels.h, transpose_elements).
// Highway per-target code: included by impl/kernels.cc once per SIMD target
// (hence the toggling include guard, not #pragma once).
#if defined(TILECHECK_IMPL_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TILECHECK_IMPL_TRANSPOSE_INL_H_
#undef TILECHECK_IMPL_TRANSPOSE_INL_H_
#else
#define TILECHECK_IMPL_TRANSPOSE_INL_H_
#endif

#if HWY_ARCH_X86
#include <immintrin.h>  // the AVX-512 16x16 and AVX2 8x8 transposes
#endif

#include <array>

#include "hwy/highway.h"
#include "impl/kernel_common-inl.h"
#include "impl/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace tilecheck::impl::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Transposing panels (kernels.h).

// Physical byte offset of column c, counted incrementally (no division).
struct ColumnCursor {
  const TransposePanel& p;
  int64_t group = 0, within = 0;
  int64_t offset() const { return group * p.group_stride + within * p.col_stride; }
  void next() {
    if (++within == p.col_group) within = 0, ++group;
  }
};

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// The 4x4 matrix of 128-bit blocks of x[0], x[s], x[2s], x[3s] transposed
// into y[0], y[s], y[2s], y[3s]: block b of y[i*s] = block i of x[b*s].
// Blocks move whole, whatever the lanes inside them.
HWY_INLINE void TransposeBlocks4x4(const __m512i* x, int s, __m512i* y) {
  constexpr __mmask16 kAll16 = 0xFFFF;  // every lane selected (Transpose16x16)
  const __m512i p0 = _mm512_maskz_shuffle_i32x4(kAll16, x[0], x[s], 0x44);  // blocks 0 1 of x[0], then of x[s]
  const __m512i p1 = _mm512_maskz_shuffle_i32x4(kAll16, x[0], x[s], 0xEE);  // blocks 2 3 of the same
  const __m512i p2 = _mm512_maskz_shuffle_i32x4(kAll16, x[2 * s], x[3 * s], 0x44);
  const __m512i p3 = _mm512_maskz_shuffle_i32x4(kAll16, x[2 * s], x[3 * s], 0xEE);
  y[0] = _mm512_maskz_shuffle_i32x4(kAll16, p0, p2, 0x88);      // blocks 0
  y[s] = _mm512_maskz_shuffle_i32x4(kAll16, p0, p2, 0xDD);      // blocks 1
  y[2 * s] = _mm512_maskz_shuffle_i32x4(kAll16, p1, p3, 0x88);  // blocks 2
  y[3 * s] = _mm512_maskz_shuffle_i32x4(kAll16, p1, p3, 0xDD);  // blocks 3
}

// v[i] lane j -> v[j] lane i, for 16 vectors of 16 32-bit lanes: pairs
// within 128-bit blocks, then the 4x4 matrix of blocks.
HWY_INLINE void Transpose16x16(__m512i* v) {
  // Zero-masked forms with every lane selected: the same instructions,
  // without the unmasked intrinsics' undefined pass-through operand that
  // GCC 12 reports as maybe-uninitialized.
  constexpr __mmask16 kAll16 = 0xFFFF;
  constexpr __mmask8 kAll8 = 0xFF;
  __m512i t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_maskz_unpacklo_epi32(kAll16, v[i], v[i + 1]);
    t[i + 1] = _mm512_maskz_unpackhi_epi32(kAll16, v[i], v[i + 1]);
  }
  // u[4g + k], block b: rows 4g..4g+3 of column 4b + k.
  __m512i u[16];
  for (int g = 0; g < 16; g += 4) {
    u[g] = _mm512_maskz_unpacklo_epi64(kAll8, t[g], t[g + 2]);
    u[g + 1] = _mm512_maskz_unpackhi_epi64(kAll8, t[g], t[g + 2]);
    u[g + 2] = _mm512_maskz_unpacklo_epi64(kAll8, t[g + 1], t[g + 3]);
    u[g + 3] = _mm512_maskz_unpackhi_epi64(kAll8, t[g + 1], t[g + 3]);
  }
  for (int k = 0; k < 4; ++k) TransposeBlocks4x4(u + k, 4, v + k);  // columns k, 4 + k, 8 + k, 12 + k
}
#endif

#if HWY_TARGET == HWY_AVX2
// v[i] lane j -> v[j] lane i, for 8 vectors of 8 32-bit lanes: pairs and
// quads within 128-bit halves, then the halves.
HWY_INLINE void Transpose8x8(__m256i* v) {
  __m256i t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_epi32(v[i], v[i + 1]);
    t[i + 1] = _mm256_unpackhi_epi32(v[i], v[i + 1]);
  }
  for (int g = 0; g < 8; g += 4) {  // u[g + k], half h: rows g..g+3 of column 4h + k
    u[g] = _mm256_unpacklo_epi64(t[g], t[g + 2]);
    u[g + 1] = _mm256_unpackhi_epi64(t[g], t[g + 2]);
    u[g + 2] = _mm256_unpacklo_epi64(t[g + 1], t[g + 3]);
    u[g + 3] = _mm256_unpackhi_epi64(t[g + 1], t[g + 3]);
  }
  for (int k = 0; k < 4; ++k) {
    v[k] = _mm256_permute2x128_si256(u[k], u[4 + k], 0x20);      // column k
    v[4 + k] = _mm256_permute2x128_si256(u[k], u[4 + k], 0x31);  // column 4 + k
  }
}
#endif

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// v[i] lane j -> v[j] lane i, for 8 vectors of 8 64-bit lanes: pairs within
// 128-bit blocks, then the 4x4 matrix of blocks.
HWY_INLINE void Transpose8x8Of64(__m512i* v) {
  constexpr __mmask8 kAll8 = 0xFF;
  __m512i t[8];  // t[2p + e], block k: column 2k + e of rows 2p, 2p + 1
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm512_maskz_unpacklo_epi64(kAll8, v[i], v[i + 1]);
    t[i + 1] = _mm512_maskz_unpackhi_epi64(kAll8, v[i], v[i + 1]);
  }
  for (int e = 0; e < 2; ++e) TransposeBlocks4x4(t + e, 2, v + e);  // columns e, 2 + e, 4 + e, 6 + e
}
#endif

#if HWY_TARGET == HWY_AVX2
// v[i] lane j -> v[j] lane i, for 4 vectors of 4 64-bit lanes.
HWY_INLINE void Transpose4x4Of64(__m256i* v) {
  const __m256i t0 = _mm256_unpacklo_epi64(v[0], v[1]), t1 = _mm256_unpackhi_epi64(v[0], v[1]);
  const __m256i t2 = _mm256_unpacklo_epi64(v[2], v[3]), t3 = _mm256_unpackhi_epi64(v[2], v[3]);
  v[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
  v[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
  v[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
  v[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}
#endif

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2
// TransposeLines (the AVX-512 16x16 and 8x8 transposes of 32- and 64-bit
// lanes; on AVX2 as 8x8 and 4x4 halves) and the kernels built on it.
#define TILECHECK_TRANSPOSE_LINES 1
// K = 64/kLane lines of K lanes of kLane (4 or 8) bytes, a cache line
// each: out_line(j)[i] = in_line(i)[j], each output line written whole
// before the next (two consecutive 32-byte stores on AVX2), so that
// streaming stores leave no line half written.
template <size_t kLane, bool kStream, class InLine, class OutLine>
HWY_INLINE void TransposeLines(InLine in_line, OutLine out_line) {
  constexpr int K = static_cast<int>(64 / kLane);
#if HWY_TARGET == HWY_AVX2
  constexpr int H = K / 2;
  for (int h = 0; h < 2; ++h) {  // input columns H*h..H*h+H-1: output lines H*h..H*h+H-1
    __m256i a[H], b[H];          // input rows 0..H-1 and H..K-1
    for (int i = 0; i < H; ++i) {
      a[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in_line(i) + 32 * h));
      b[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in_line(H + i) + 32 * h));
    }
    if constexpr (kLane == 4) {
      Transpose8x8(a);
      Transpose8x8(b);
    } else {
      Transpose4x4Of64(a);
      Transpose4x4Of64(b);
    }
    for (int j = 0; j < H; ++j) {
      __m256i* to = reinterpret_cast<__m256i*>(out_line(H * h + j));
      if constexpr (kStream) {
        _mm256_stream_si256(to, a[j]);
        _mm256_stream_si256(to + 1, b[j]);
      } else {
        _mm256_storeu_si256(to, a[j]);
        _mm256_storeu_si256(to + 1, b[j]);
      }
    }
  }
#else
  __m512i v[K];
  for (int k = 0; k < K; ++k) v[k] = _mm512_loadu_si512(in_line(k));
  if constexpr (kLane == 4) {
    Transpose16x16(v);
  } else {
    Transpose8x8Of64(v);
  }
  for (int k = 0; k < K; ++k) {
    if constexpr (kStream) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(out_line(k)), v[k]);
    } else {
      _mm512_storeu_si512(out_line(k), v[k]);
    }
  }
#endif
}
#endif

// kPack: dense rows -> physical columns; else the way back. The 16x16
// blocks finish each written line (a physical column's 16 rows, or a dense
// row's 16 columns) in consecutive 4x4 transposes.
template <bool kPack, bool kStream>
void TransposeBlocks(const TransposePanel& p, const uint8_t* in, uint8_t* out, int64_t cols) {
  const int64_t rs = p.row_stride;
  auto move = [&](int64_t r, int64_t col_offset, int64_t c) {
    if constexpr (kPack) {
      std::memcpy(out + col_offset + r * 4, in + r * rs + c * 4, 4);
    } else {
      std::memcpy(out + r * rs + c * 4, in + col_offset + r * 4, 4);
    }
  };
  int64_t r0 = 0;
#ifdef TILECHECK_TRANSPOSE_LINES
  // AVX-512 and AVX2: one 16x16 transpose in registers (TransposeLines),
  // each output line written whole.
  // Chunks of kChunk columns down all rows, 16 rows of the chunk at a time:
  // the physical side is written (pack) or read (unpack) a few tiles at a
  // time, front to back, and each dense row kChunk*4 bytes at a time.
  // While one chunk runs, the read side of the next is prefetched, step by
  // step: pack reads 16 dense rows per step, more streams than the hardware
  // prefetcher follows; unpack reads tiles whose pieces each start a new
  // page, where it restarts. Measured by CPU time on
  // f32[4096,4096]{0,1:T(8,128)} (bench/pack_memcpy_ratio): 64 columns
  // beat 16, 32, 128 and 256 (unpack 14.4 -> 16.7 GB/s against 16 columns
  // with the same prefetch; 16 columns without prefetch 13.3).
  //
  // Pack into physical columns a multiple of 4 KiB apart (tiles 1,024
  // elements wide, say) goes 16 columns at a time instead: all the
  // columns' lines fall in one L1 set, and 64 of them at once evict each
  // other (measured on f32[1024,1024]{0,1} in cache, when untiled matrices
  // took this kernel: pack 8.6 -> 17-19 GB/s at 16 columns,
  // bench/pack_memcpy_ratio). And the prefetch is for memory only: in
  // cache it costs more than it saves (f32[128,128]{0,1} then: pack and
  // unpack 41-44 -> 46-48 GB/s without it).
  constexpr int64_t kChunk = 64;
  const bool aliased = p.col_stride % 4096 == 0 && (p.col_group == 1 || p.group_stride % 4096 == 0);
  const int64_t chunk = kPack && aliased ? 16 : kChunk;
  // The line of column c0 + k, rows r..r+15 (physical column offsets o).
  auto in_line = [&](const int64_t* o, int64_t r, int64_t c0, int64_t k) {
    return kPack ? in + (r + k) * rs + c0 * 4 : in + o[k] + r * 4;
  };
  ColumnCursor col{p}, col_ahead{p};
  for (int64_t k = 0; k < chunk; ++k) col_ahead.next();
  const int64_t cols16 = cols / 16 * 16;
  for (int64_t cb = 0; cb < cols16; cb += chunk) {
    const int64_t ce = std::min(cb + chunk, cols16);
    int64_t off[kChunk], off_ahead[kChunk];  // of columns cb.. and cb + kChunk..
    for (int64_t c = 0; c < ce - cb; ++c, col.next(), col_ahead.next()) {
      off[c] = col.offset();
      off_ahead[c] = col_ahead.offset();
    }
    const bool prefetch = kStream && ce + chunk <= cols16;
    int64_t r = 0;
    for (; r + 16 <= p.rows; r += 16) {
      for (int64_t c0 = cb; c0 < ce; c0 += 16) {
        const int64_t* o = off + (c0 - cb);
        if (prefetch) {
          for (int64_t k = 0; k < 16; ++k) hwy::Prefetch(in_line(off_ahead + (c0 - cb), r, c0 + chunk, k));
        }
        TransposeLines<4, kStream>([&](int64_t k) { return in_line(o, r, c0, k); },
                                  [&](int64_t k) { return kPack ? out + o[k] + r * 4 : out + (r + k) * rs + c0 * 4; });
      }
    }
    for (; r < p.rows; ++r) {
      for (int64_t c = cb; c < ce; ++c) move(r, off[c - cb], c);
    }
  }
  int64_t c0 = cols16;
  for (; c0 < cols; ++c0, col.next()) {
    for (int64_t r = 0; r < p.rows; ++r) move(r, col.offset(), c0);
  }
  return;
#elif HWY_TARGET != HWY_SCALAR
  const hn::Full128<uint32_t> d;
  const hn::Full128<uint64_t> d64;
  // Transposes the 4x4 block whose rows are at src[0..3] into dst[0..3].
  auto block = [&](const uint8_t* const* src, uint8_t* const* dst) {
    const auto a = hn::LoadU(d, reinterpret_cast<const uint32_t*>(src[0]));
    const auto b = hn::LoadU(d, reinterpret_cast<const uint32_t*>(src[1]));
    const auto c = hn::LoadU(d, reinterpret_cast<const uint32_t*>(src[2]));
    const auto e = hn::LoadU(d, reinterpret_cast<const uint32_t*>(src[3]));
    const auto ab_lo = hn::BitCast(d64, hn::InterleaveLower(d, a, b));  // a0 b0 a1 b1
    const auto ce_lo = hn::BitCast(d64, hn::InterleaveLower(d, c, e));
    const auto ab_hi = hn::BitCast(d64, hn::InterleaveUpper(d, a, b));  // a2 b2 a3 b3
    const auto ce_hi = hn::BitCast(d64, hn::InterleaveUpper(d, c, e));
    Put<kStream>(hn::BitCast(d, hn::InterleaveLower(d64, ab_lo, ce_lo)), d, reinterpret_cast<uint32_t*>(dst[0]));
    Put<kStream>(hn::BitCast(d, hn::InterleaveUpper(d64, ab_lo, ce_lo)), d, reinterpret_cast<uint32_t*>(dst[1]));
    Put<kStream>(hn::BitCast(d, hn::InterleaveLower(d64, ab_hi, ce_hi)), d, reinterpret_cast<uint32_t*>(dst[2]));
    Put<kStream>(hn::BitCast(d, hn::InterleaveUpper(d64, ab_hi, ce_hi)), d, reinterpret_cast<uint32_t*>(dst[3]));
  };
  for (; r0 + 16 <= p.rows; r0 += 16) {
    ColumnCursor col{p};
    int64_t c0 = 0;
    for (; c0 + 16 <= cols; c0 += 16) {
      int64_t off[16];
      for (int64_t k = 0; k < 16; ++k, col.next()) off[k] = col.offset();
      const uint8_t* src[4];
      uint8_t* dst[4];
      if constexpr (kPack) {
        for (int64_t jj = 0; jj < 16; jj += 4) {
          for (int64_t ii = 0; ii < 16; ii += 4) {
            for (int64_t k = 0; k < 4; ++k) {
              src[k] = in + (r0 + ii + k) * rs + (c0 + jj) * 4;
              dst[k] = out + off[jj + k] + (r0 + ii) * 4;
            }
            block(src, dst);
          }
        }
      } else {
        for (int64_t ii = 0; ii < 16; ii += 4) {
          for (int64_t jj = 0; jj < 16; jj += 4) {
            for (int64_t k = 0; k < 4; ++k) {
              src[k] = in + off[jj + k] + (r0 + ii) * 4;
              dst[k] = out + (r0 + ii + k) * rs + (c0 + jj) * 4;
            }
            block(src, dst);
          }
        }
      }
    }
    for (; c0 < cols; ++c0, col.next()) {
      for (int64_t r = r0; r < r0 + 16; ++r) move(r, col.offset(), c0);
    }
  }
#endif
  for (; r0 < p.rows; ++r0) {  // rows past the last whole 16
    ColumnCursor col{p};
    for (int64_t c = 0; c < cols; ++c, col.next()) move(r0, col.offset(), c);
  }
}

// Streamed only where the written side is whole lines (LinesWhole).
void TransposePanelPack(const TransposePanel& p, const uint8_t* dense, uint8_t* phys, int64_t cols,
                        bool stream) {
  if (stream && LinesWhole(phys, p.col_stride, p.group_stride)) {
    TransposeBlocks<true, true>(p, dense, phys, cols);
  } else {
    TransposeBlocks<true, false>(p, dense, phys, cols);
  }
}

void TransposePanelUnpack(const TransposePanel& p, const uint8_t* phys, uint8_t* dense, int64_t cols,
                          bool stream) {
  if (stream && LinesWhole(dense, p.row_stride, 0)) {
    TransposeBlocks<false, true>(p, phys, dense, cols);
  } else {
    TransposeBlocks<false, false>(p, phys, dense, cols);
  }
}

// Element transposes (kernels.h, transpose_elements), in 128-bit blocks of
// M = 16/kElem rows: 2x2 and 4x4 (8- and 4-byte elements) on every SIMD
// target; 8x8 and 16x16 (2- and 1-byte) where vectors have a size, since
// they are held in arrays (not on SVE and RVV, whose vectors are sizeless:
// blocked scalar there).
#if HWY_TARGET != HWY_SCALAR
#define TILECHECK_TRANSPOSE_SIMD_4_8 1
#if HWY_TARGET != HWY_SVE && HWY_TARGET != HWY_SVE2 && HWY_TARGET != HWY_SVE_256 && \
    HWY_TARGET != HWY_SVE2_128 && HWY_TARGET != HWY_RVV
#define TILECHECK_TRANSPOSE_SIMD_1_2 1
using Bytes128 = hn::Vec<hn::Full128<uint8_t>>;

// One stage of an MxM transpose held in x[0..M) (row i in x[i]), with lanes
// of kLane bytes: pairs s apart within blocks of 2s interleave, low halves
// then high halves. log2(M) stages at lanes of 1, 2, 4, ... elements leave
// column j in x[j].
template <size_t kLane>
HWY_INLINE void InterleaveStage(Bytes128* x, int m, int s) {
  const hn::Full128<hwy::UnsignedFromSize<kLane>> d;
  const hn::Full128<uint8_t> d8;
  Bytes128 y[16];
  for (int b = 0; b < m; b += 2 * s) {
    for (int i = 0; i < s; ++i) {
      const auto lo = hn::BitCast(d, x[b + i]), hi = hn::BitCast(d, x[b + i + s]);
      y[b + 2 * i] = hn::BitCast(d8, hn::InterleaveLower(d, lo, hi));
      y[b + 2 * i + 1] = hn::BitCast(d8, hn::InterleaveUpper(d, lo, hi));
    }
  }
  for (int i = 0; i < m; ++i) x[i] = y[i];
}
#endif

// The MxM block at src (rows ss bytes apart) into dst (rows ds apart),
// transposed: the same stages, written out for M = 2 and 4.
template <size_t kElem>
HWY_INLINE void TransposeBlock128(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds) {
  const hn::Full128<uint8_t> d8;
  if constexpr (kElem == 8) {
    const hn::Full128<uint64_t> d;
    const auto a = hn::BitCast(d, hn::LoadU(d8, src)), b = hn::BitCast(d, hn::LoadU(d8, src + ss));
    hn::StoreU(hn::BitCast(d8, hn::InterleaveLower(d, a, b)), d8, dst);
    hn::StoreU(hn::BitCast(d8, hn::InterleaveUpper(d, a, b)), d8, dst + ds);
  } else if constexpr (kElem == 4) {
    const hn::Full128<uint32_t> d;
    const hn::Full128<uint64_t> d64;
    const auto a = hn::BitCast(d, hn::LoadU(d8, src)), b = hn::BitCast(d, hn::LoadU(d8, src + ss));
    const auto c = hn::BitCast(d, hn::LoadU(d8, src + 2 * ss)), e = hn::BitCast(d, hn::LoadU(d8, src + 3 * ss));
    const auto ab_lo = hn::BitCast(d64, hn::InterleaveLower(d, a, b));  // a0 b0 a1 b1
    const auto ce_lo = hn::BitCast(d64, hn::InterleaveLower(d, c, e));
    const auto ab_hi = hn::BitCast(d64, hn::InterleaveUpper(d, a, b));  // a2 b2 a3 b3
    const auto ce_hi = hn::BitCast(d64, hn::InterleaveUpper(d, c, e));
    hn::StoreU(hn::BitCast(d8, hn::InterleaveLower(d64, ab_lo, ce_lo)), d8, dst);
    hn::StoreU(hn::BitCast(d8, hn::InterleaveUpper(d64, ab_lo, ce_lo)), d8, dst + ds);
    hn::StoreU(hn::BitCast(d8, hn::InterleaveLower(d64, ab_hi, ce_hi)), d8, dst + 2 * ds);
    hn::StoreU(hn::BitCast(d8, hn::InterleaveUpper(d64, ab_hi, ce_hi)), d8, dst + 3 * ds);
  } else {
#ifdef TILECHECK_TRANSPOSE_SIMD_1_2
    constexpr int kM = static_cast<int>(16 / kElem);
    Bytes128 x[16];
    for (int i = 0; i < kM; ++i) x[i] = hn::LoadU(d8, src + i * ss);
    InterleaveStage<kElem>(x, kM, 1);
    InterleaveStage<kElem * 2>(x, kM, 2);
    InterleaveStage<kElem * 4>(x, kM, 4);
    if constexpr (kM >= 16) InterleaveStage<kElem * 8>(x, kM, 8);
    for (int j = 0; j < kM; ++j) hn::StoreU(x[j], d8, dst + j * ds);
#endif
  }
}
#endif

// The blocks of a rows x cols matrix, `height` rows by `width` columns
// each, in bands of `band` columns (a multiple of `width`, or less: one
// block wide), rows outer within a band: f(r, c) for the block at row r,
// column c. A step reads a few source rows across the band, front to back,
// and writes one piece of each of the band's destination rows
// (TransposeElementsOf).
template <class F>
HWY_INLINE void ForEachBlockInBands(int64_t rows, int64_t cols, int64_t height, int64_t width, int64_t band, F f) {
  band = std::max(band, width);
  for (int64_t b0 = 0; b0 < cols; b0 += band) {
    const int64_t b1 = std::min(cols, b0 + band);
    for (int64_t r = 0; r < rows; r += height) {
      for (int64_t c = b0; c < b1; c += width) f(r, c);
    }
  }
}

template <size_t kElem, bool kStream = false>
void TransposeSquares(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds, int64_t rows, int64_t cols,
                      int64_t band) {
  // Squares of 64 bytes a side (a cache line of every row on both sides;
  // 16 elements, two lines, for 8-byte ones), in bands of columns
  // (ForEachBlockInBands).
  constexpr int64_t kSquare = kElem == 8 ? 16 : static_cast<int64_t>(64 / kElem);
#if defined(TILECHECK_TRANSPOSE_SIMD_1_2)
  constexpr bool kSimd = true;
#elif defined(TILECHECK_TRANSPOSE_SIMD_4_8)
  constexpr bool kSimd = kElem >= 4;
#else
  constexpr bool kSimd = false;
#endif
  constexpr int64_t kM = static_cast<int64_t>(16 / kElem);
  constexpr int64_t kRun = kSquare * static_cast<int64_t>(kElem);  // a square's destination row, in bytes
  auto scalar = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      for (int64_t r = r0; r < r1; ++r) std::memcpy(dst + c * ds + r * kElem, src + r * ss + c * kElem, kElem);
    }
  };
  // kStream: a whole square is transposed into `stage` (in L1), then
  // streamed out one whole destination line after another (StreamRuns).
  // The 128-bit blocks would otherwise write a slice of kM lines at a time.
  HWY_ALIGN uint8_t stage[kStream ? kSquare * kRun : 1];
  ForEachBlockInBands(rows, cols, kSquare, kSquare, band, [&](int64_t r0, int64_t c0) {
    const int64_t r1 = std::min(rows, r0 + kSquare), c1 = std::min(cols, c0 + kSquare);
    int64_t rv = r0, cv = c0;  // the square's whole SIMD blocks: [r0, rv) x [c0, cv)
    if constexpr (kSimd) {
      rv = r0 + (r1 - r0) / kM * kM;
      cv = c0 + (c1 - c0) / kM * kM;
      const bool staged = kStream && r1 - r0 == kSquare && c1 - c0 == kSquare;
      for (int64_t c = c0; c < cv; c += kM) {
        for (int64_t r = r0; r < rv; r += kM) {
          if (staged) {
            TransposeBlock128<kElem>(src + r * ss + c * kElem, ss, stage + (c - c0) * kRun + (r - r0) * kElem, kRun);
          } else {
            TransposeBlock128<kElem>(src + r * ss + c * kElem, ss, dst + c * ds + r * kElem, ds);
          }
        }
      }
      if (staged) {
        StreamRuns(stage, kRun, kSquare, dst + c0 * ds + r0 * static_cast<int64_t>(kElem), ds);
        return;
      }
    }
    scalar(rv, r1, c0, cv);  // rows past the last whole block, in the blocks' columns
    scalar(r0, r1, cv, c1);  // columns past the last whole block
  });
}
#undef TILECHECK_TRANSPOSE_SIMD_1_2
#undef TILECHECK_TRANSPOSE_SIMD_4_8

#ifdef TILECHECK_TRANSPOSE_LINES
// 1- and 2-byte elements through the 32-bit transposes. The kG = 4/kElem
// source rows g*kG .. g*kG + kG-1 interleave into one row of 32-bit lanes
// whose lane c holds their elements of column c in row order: exactly the
// kG elements that destination row c holds at g*kG. Transposed as 32-bit
// lanes 16x16 at a time (TransposeLines), 16*kG source rows and 16
// columns at a time, every destination line is written whole (streamed
// when kStream), which the 128-bit blocks do not do; and each source line
// is read once, whole, into the interleaved rows (`stage`, in L1).
//
// Chunks of one line of each source row (32 bf16 or 64 s8 columns), in
// bands of columns (ForEachBlockInBands), the next chunk's source lines
// prefetched when streaming: a step reads each of its 16*kG rows' lines
// whole, once, and writes 64 bytes of each of the chunk's destination
// rows. The figures (bf16_transpose, s8_transpose): docs/PERFORMANCE.md.
//
// A whole chunk interleaves in full vectors (64 or 32 bytes), a partial one
// (the region's last, 16 to kChunk - 16 columns) in 128-bit ones.
// Interleaves act within 128-bit blocks, so full vectors leave the columns
// in another lane order (InterleavedColumn), which the transpose's output
// lines follow: each still holds one whole column.
template <size_t kElem, class D8>
HWY_INLINE void InterleaveRows(D8 d8, const uint8_t* src, int64_t ss, int64_t bytes, uint8_t* line) {
  const hn::Repartition<uint16_t, D8> d16;
  const int64_t V = static_cast<int64_t>(hn::Lanes(d8));
  for (int64_t x = 0; x < bytes; x += V) {
    const auto a = hn::LoadU(d8, src + x), b = hn::LoadU(d8, src + ss + x);
    if constexpr (kElem == 2) {  // lanes (a_c, b_c)
      const auto a16 = hn::BitCast(d16, a), b16 = hn::BitCast(d16, b);
      hn::StoreU(hn::BitCast(d8, hn::InterleaveLower(d16, a16, b16)), d8, line + 2 * x);
      hn::StoreU(hn::BitCast(d8, hn::InterleaveUpper(d16, a16, b16)), d8, line + 2 * x + V);
    } else {  // lanes (a_c, b_c, c_c, e_c)
      const auto c = hn::LoadU(d8, src + 2 * ss + x), e = hn::LoadU(d8, src + 3 * ss + x);
      const auto ab_lo = hn::BitCast(d16, hn::InterleaveLower(d8, a, b));
      const auto ab_hi = hn::BitCast(d16, hn::InterleaveUpper(d8, a, b));
      const auto ce_lo = hn::BitCast(d16, hn::InterleaveLower(d8, c, e));
      const auto ce_hi = hn::BitCast(d16, hn::InterleaveUpper(d8, c, e));
      hn::StoreU(hn::BitCast(d8, hn::InterleaveLower(d16, ab_lo, ce_lo)), d8, line + 4 * x);
      hn::StoreU(hn::BitCast(d8, hn::InterleaveUpper(d16, ab_lo, ce_lo)), d8, line + 4 * x + V);
      hn::StoreU(hn::BitCast(d8, hn::InterleaveLower(d16, ab_hi, ce_hi)), d8, line + 4 * x + 2 * V);
      hn::StoreU(hn::BitCast(d8, hn::InterleaveUpper(d16, ab_hi, ce_hi)), d8, line + 4 * x + 3 * V);
    }
  }
}

// The column whose elements InterleaveRows with vectors of V bytes puts in
// 32-bit lane L of its output. Each step of V source bytes fills kG
// vectors of V/4 lanes; lane l of vector v, in 128-bit block k = l/4, holds
// column 4v + l%4 of that block's 16/kElem columns. For V = 16: L itself.
template <size_t kElem>
constexpr int64_t InterleavedColumn(int64_t L, int64_t V) {
  const int64_t step = V / static_cast<int64_t>(kElem), per = V / 4;  // columns per step, lanes per vector
  const int64_t t = L % step, v = t / per, l = t % per;
  return L - t + (l / 4) * (16 / static_cast<int64_t>(kElem)) + 4 * v + l % 4;
}

// rows a multiple of 16*kG, cols of 16.
template <size_t kElem, bool kStream>
void TransposeInterleaved(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds, int64_t rows, int64_t cols,
                          int64_t band) {
  // kChunk: one line of each source row per step.
  constexpr int64_t kG = static_cast<int64_t>(4 / kElem), kChunk = static_cast<int64_t>(64 / kElem), kLine = kChunk * 4;
  HWY_ALIGN uint8_t stage[16 * kLine];
  const hn::ScalableTag<uint8_t> full;
  const hn::Full128<uint8_t> d128;
  static constexpr std::array<int64_t, kChunk> column = [] {  // of lane L in a whole chunk
    std::array<int64_t, kChunk> c{};
    for (int64_t L = 0; L < kChunk; ++L) {
      c[L] = InterleavedColumn<kElem>(L, static_cast<int64_t>(hn::MaxLanes(hn::ScalableTag<uint8_t>())));
    }
    return c;
  }();
  ForEachBlockInBands(rows, cols, 16 * kG, kChunk, band, [&](int64_t r, int64_t cb) {
    const int64_t n = std::min(kChunk, cols - cb);
    const bool whole = n == kChunk;
    const bool prefetch = kStream && cb + 2 * kChunk <= cols;
    for (int64_t i = 0; i < 16; ++i) {
      const uint8_t* from = src + (r + i * kG) * ss + cb * kElem;
      if (prefetch) {
        for (int64_t g = 0; g < kG; ++g) {
          hwy::Prefetch(from + g * ss + kChunk * kElem);
        }
      }
      if (whole) {
        InterleaveRows<kElem>(full, from, ss, n * kElem, stage + i * kLine);
      } else {
        InterleaveRows<kElem>(d128, from, ss, n * kElem, stage + i * kLine);
      }
    }
    for (int64_t q = 0; q < n; q += 16) {
      TransposeLines<4, kStream>(
          [&](int64_t i) { return stage + i * kLine + q * 4; },
          [&](int64_t j) { return dst + (cb + (whole ? column[q + j] : q + j)) * ds + r * kElem; });
    }
  });
}
#endif

#ifdef TILECHECK_TRANSPOSE_LINES
// 4- and 8-byte elements K = 64/kElem at a time, KxK (TransposeLines),
// every destination line written whole (streamed when kStream), in bands
// of columns (ForEachBlockInBands), the source lines past each block
// prefetched when streaming. Rows and cols multiples of K, `band` of K.
template <size_t kElem, bool kStream>
void TransposeLinesOf(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds, int64_t rows, int64_t cols,
                      int64_t band) {
  constexpr int64_t K = static_cast<int64_t>(64 / kElem);
  ForEachBlockInBands(rows, cols, K, K, band, [&](int64_t r, int64_t cb) {
    const uint8_t* from = src + r * ss + cb * static_cast<int64_t>(kElem);
    if (kStream && cb + 2 * K <= cols) {
      for (int64_t i = 0; i < K; ++i) hwy::Prefetch(from + i * ss + 64);
    }
    TransposeLines<kElem, kStream>([&](int64_t i) { return from + i * ss; },
                                   [&](int64_t j) { return dst + (cb + j) * ds + r * static_cast<int64_t>(kElem); });
  });
}
#endif

#ifdef TILECHECK_TRANSPOSE_LINES
// The whole-line kernel of an element width (TransposeInterleaved for 1
// and 2 bytes, TransposeLinesOf for 4 and 8) over rows and columns that are whole
// multiples of its block: kRows and kCols.
template <size_t kElem>
struct WholeLines {
  static constexpr int64_t kRows = static_cast<int64_t>(64 / kElem);  // K, or 16*kG
  static constexpr int64_t kCols = kElem == 8 ? 8 : 16;
  template <bool kStream>
  static void Run(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds, int64_t rows, int64_t cols,
                  int64_t band) {
    if constexpr (kElem >= 4) {
      TransposeLinesOf<kElem, kStream>(src, ss, dst, ds, rows, cols, band);
    } else {
      TransposeInterleaved<kElem, kStream>(src, ss, dst, ds, rows, cols, band);
    }
  }
};
#endif

// One region of TransposeElementsOf.
template <size_t kElem>
void TransposeRegion(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds, int64_t rows, int64_t cols,
                     bool stream, int64_t band) {
#ifdef TILECHECK_TRANSPOSE_LINES
  using W = WholeLines<kElem>;
  const int64_t rw = rows / W::kRows * W::kRows, cw = cols / W::kCols * W::kCols;
  if (rw > 0 && cw > 0) {
    // Streamed only where every destination line is whole (LinesWhole):
    // rows [0, rw) are whole lines of each destination row.
    if (stream && LinesWhole(dst, ds, 0)) {
      W::template Run<true>(src, ss, dst, ds, rw, cw, band);
    } else {
      W::template Run<false>(src, ss, dst, ds, rw, cw, band);
    }
    TransposeSquares<kElem>(src + rw * ss, ss, dst + rw * kElem, ds, rows - rw, cols, band);
    TransposeSquares<kElem>(src + cw * kElem, ss, dst + cw * ds, ds, rw, cols - cw, band);
    return;
  }
#endif
#if HWY_ARCH_X86
  // 128-bit blocks, staged and streamed where the destination's lines are
  // whole (the whole squares' lines, then; TransposeSquares).
  if (stream && LinesWhole(dst, ds, 0)) return TransposeSquares<kElem, true>(src, ss, dst, ds, rows, cols, band);
#endif
  (void)stream;
  TransposeSquares<kElem>(src, ss, dst, ds, rows, cols, band);
}

// Regions (kernels.h, transpose_elements), each moved whole before the
// next: a large transpose's strided side then touches as many pages as a
// region has rows, again and again while the region lasts, where a walk of
// all rows touches a new page per row and per step (a TLB miss each, with
// 4 KiB pages). Inside a region, bands of columns, each walked rows outer
// (ForEachBlockInBands). Sizes in bytes a side, for a destination through
// the caches and for a streamed one, measured by CPU time
// (bench/pack_memcpy_ratio, AVX-512, AVX2 and SSE4, machine E of
// docs/BENCHMARKING.md):
// - Streamed: regions of 4 KiB, one band each (rows outer across the
//   region: each step reads a few source rows front to back over 4 KiB and
//   writes one line of each of the region's destination rows), beat
//   regions of 512 bytes to 16 KiB and bands of 64 and 512 bytes. Against
//   the cached sizes below, pack / unpack x memcpy on AVX-512:
//   f32[4096,4096]{0,1} 0.70 / 0.70 -> 1.12 / 1.08, f64[4096,2048]{0,1}
//   0.82 / 0.80 -> 1.15 / 1.12, bf16[4096,4096]{0,1} 0.86 / 0.70 -> 0.98 /
//   0.84; on SSE4, f32 0.56 / 0.57 -> 0.95 / 0.92.
// - Through the caches: those regions of 512 bytes (1 KiB for 8-byte
//   elements; 1 KiB beat 512 bytes and 2 KiB for f64[4096,2048]{0,1}) in
//   bands one line wide, each walked down all its rows. No other size (1
//   KiB in bands of 512 bytes, 512 bytes and 1 KiB in one band) beat them
//   on every width and target in cache (f32[256,256]{0,1}, bf16[256,256],
//   bf16[1024,1024], s8[1024,2048], f64[512,512]).
struct TransposeRegions {
  int64_t side, band;  // bytes
};

template <size_t kElem>
void TransposeElementsOf(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds, int64_t rows, int64_t cols,
                         bool stream) {
  constexpr TransposeRegions kCached{kElem == 8 ? 1024 : 512, 64}, kStreamed{4096, 4096};
  const TransposeRegions& regions = stream ? kStreamed : kCached;
  const int64_t side = regions.side / static_cast<int64_t>(kElem), band = regions.band / static_cast<int64_t>(kElem);
  for (int64_t c0 = 0; c0 < cols; c0 += side) {
    for (int64_t r0 = 0; r0 < rows; r0 += side) {
      TransposeRegion<kElem>(src + r0 * ss + c0 * static_cast<int64_t>(kElem), ss,
                             dst + c0 * ds + r0 * static_cast<int64_t>(kElem), ds, std::min(side, rows - r0),
                             std::min(side, cols - c0), stream, band);
    }
  }
}

void TransposeElements(int64_t elem_bytes, const uint8_t* src, int64_t src_stride, uint8_t* dst,
                       int64_t dst_stride, int64_t rows, int64_t cols, bool stream) {
  switch (elem_bytes) {
    case 1: return TransposeElementsOf<1>(src, src_stride, dst, dst_stride, rows, cols, stream);
    case 2: return TransposeElementsOf<2>(src, src_stride, dst, dst_stride, rows, cols, stream);
    case 4: return TransposeElementsOf<4>(src, src_stride, dst, dst_stride, rows, cols, stream);
    default: return TransposeElementsOf<8>(src, src_stride, dst, dst_stride, rows, cols, stream);
  }
}

#undef TILECHECK_TRANSPOSE_LINES

}  // namespace tilecheck::impl::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // TILECHECK_IMPL_TRANSPOSE_INL_H_
