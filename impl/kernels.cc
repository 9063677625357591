// Highway kernels of impl/kernels.h, compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "impl/kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/cache_control.h"

#if HWY_ARCH_X86
#include <immintrin.h>  // the AVX-512 16x16 transpose
#endif

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "impl/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace tilecheck::impl::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Each kernel: a vector loop over whole vectors of columns, then the scalar
// remainder.

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

#if HWY_TARGET != HWY_SCALAR
using D8 = hn::Full128<uint8_t>;
using D16 = hn::Full128<uint16_t>;

// 16 columns of 4 bytes each: out[4c + k] = v_k[c].
template <bool kStream>
HWY_INLINE void Put4Way(hn::Vec<D8> v0, hn::Vec<D8> v1, hn::Vec<D8> v2, hn::Vec<D8> v3, uint8_t* out) {
  const D8 d8;
  const D16 d16;
  const auto ab_lo = hn::BitCast(d16, hn::InterleaveLower(d8, v0, v1));
  const auto ab_hi = hn::BitCast(d16, hn::InterleaveUpper(d8, v0, v1));
  const auto cd_lo = hn::BitCast(d16, hn::InterleaveLower(d8, v2, v3));
  const auto cd_hi = hn::BitCast(d16, hn::InterleaveUpper(d8, v2, v3));
  Put<kStream>(hn::BitCast(d8, hn::InterleaveLower(d16, ab_lo, cd_lo)), d8, out);
  Put<kStream>(hn::BitCast(d8, hn::InterleaveUpper(d16, ab_lo, cd_lo)), d8, out + 16);
  Put<kStream>(hn::BitCast(d8, hn::InterleaveLower(d16, ab_hi, cd_hi)), d8, out + 32);
  Put<kStream>(hn::BitCast(d8, hn::InterleaveUpper(d16, ab_hi, cd_hi)), d8, out + 48);
}

// One vector step of each pack kernel: 8 (16-bit) or 16 (8-bit) columns.
template <bool kStream>
HWY_INLINE void Rows2U16Step(const uint16_t* r0, const uint16_t* r1, uint16_t* out) {
  const D16 d;
  const auto a = hn::LoadU(d, r0), b = hn::LoadU(d, r1);
  Put<kStream>(hn::InterleaveLower(d, a, b), d, out);
  Put<kStream>(hn::InterleaveUpper(d, a, b), d, out + 8);
}
template <bool kStream>
HWY_INLINE void Rows4U8Step(const uint8_t* r, int64_t stride, uint8_t* out) {
  const D8 d;
  Put4Way<kStream>(hn::LoadU(d, r), hn::LoadU(d, r + stride), hn::LoadU(d, r + 2 * stride),
                   hn::LoadU(d, r + 3 * stride), out);
}
template <bool kStream>
HWY_INLINE void Rows8U4Step(const uint8_t* r, int64_t stride, uint8_t* out) {
  const D8 d;
  const auto low = hn::Set(d, 0x0F);
  auto byte = [&](int k) {
    return hn::Or(hn::And(hn::LoadU(d, r + (2 * k) * stride), low),
                  hn::ShiftLeft<4>(hn::LoadU(d, r + (2 * k + 1) * stride)));
  };
  Put4Way<kStream>(byte(0), byte(1), byte(2), byte(3), out);
}
template <int kBit>
HWY_INLINE hn::Vec<D8> GatherBit(const uint8_t* row, hn::Vec<D8> acc) {
  const D8 d;
  return hn::Or(acc, hn::ShiftLeft<kBit>(hn::And(hn::LoadU(d, row), hn::Set(d, 1))));
}
template <bool kStream>
HWY_INLINE void Rows32U1Step(const uint8_t* r, int64_t s, uint8_t* out) {
  hn::Vec<D8> b[4];
  for (int k = 0; k < 4; ++k) {
    const uint8_t* q = r + (8 * k) * s;
    auto acc = hn::Zero(D8());
    acc = GatherBit<0>(q, acc);
    acc = GatherBit<1>(q + s, acc);
    acc = GatherBit<2>(q + 2 * s, acc);
    acc = GatherBit<3>(q + 3 * s, acc);
    acc = GatherBit<4>(q + 4 * s, acc);
    acc = GatherBit<5>(q + 5 * s, acc);
    acc = GatherBit<6>(q + 6 * s, acc);
    acc = GatherBit<7>(q + 7 * s, acc);
    b[k] = acc;
  }
  Put4Way<kStream>(b[0], b[1], b[2], b[3], out);
}
#endif

// Runs `step(c, stream)` over whole vector steps of `lanes` columns, then
// `scalar(c)` over the rest. Streams only with 16-byte-aligned output.
template <class Step, class Scalar>
HWY_INLINE void Columns(int64_t n, int64_t lanes, const void* out, bool stream, Step step, Scalar scalar) {
  int64_t c = 0;
#if HWY_TARGET != HWY_SCALAR
  if (stream && reinterpret_cast<uintptr_t>(out) % 16 == 0) {
    for (; c + lanes <= n; c += lanes) step(c, std::true_type());
  } else {
    for (; c + lanes <= n; c += lanes) step(c, std::false_type());
  }
#else
  (void)lanes, (void)out, (void)stream, (void)step;
#endif
  for (; c < n; ++c) scalar(c);
}

void PackRows2U16(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  const uint16_t* r0 = reinterpret_cast<const uint16_t*>(dense);
  const uint16_t* r1 = reinterpret_cast<const uint16_t*>(dense + row_stride);
  uint16_t* out = reinterpret_cast<uint16_t*>(phys);
  Columns(
      n, 8, out, stream,
      [&](int64_t c, auto s) { Rows2U16Step<decltype(s)::value>(r0 + c, r1 + c, out + 2 * c); },
      [&](int64_t c) { out[2 * c] = r0[c], out[2 * c + 1] = r1[c]; });
}

void PackRows4U8(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  Columns(
      n, 16, phys, stream,
      [&](int64_t c, auto s) { Rows4U8Step<decltype(s)::value>(dense + c, row_stride, phys + 4 * c); },
      [&](int64_t c) {
        for (int k = 0; k < 4; ++k) phys[4 * c + k] = dense[k * row_stride + c];
      });
}

// 4-bit: byte k of a column = row 2k (low nibble) | row 2k+1 (high nibble).
void PackRows8U4(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  Columns(
      n, 16, phys, stream,
      [&](int64_t c, auto s) { Rows8U4Step<decltype(s)::value>(dense + c, row_stride, phys + 4 * c); },
      [&](int64_t c) {
        for (int k = 0; k < 4; ++k) {
          phys[4 * c + k] = static_cast<uint8_t>((dense[(2 * k) * row_stride + c] & 0x0F) |
                                                 (dense[(2 * k + 1) * row_stride + c] << 4));
        }
      });
}

// 1-bit: bit i of byte k of a column = bit 0 of row 8k+i.
void PackRows32U1(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  Columns(
      n, 16, phys, stream,
      [&](int64_t c, auto s) { Rows32U1Step<decltype(s)::value>(dense + c, row_stride, phys + 4 * c); },
      [&](int64_t c) {
        for (int k = 0; k < 4; ++k) {
          uint8_t v = 0;
          for (int i = 0; i < 8; ++i) v |= static_cast<uint8_t>((dense[(8 * k + i) * row_stride + c] & 1) << i);
          phys[4 * c + k] = v;
        }
      });
}

void UnpackRows2U16(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint16_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const uint16_t* in = reinterpret_cast<const uint16_t*>(phys);
  uint16_t* r0 = reinterpret_cast<uint16_t*>(dense);
  uint16_t* r1 = reinterpret_cast<uint16_t*>(dense + row_stride);
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> a, b;
    hn::LoadInterleaved2(d, in + 2 * c, a, b);
    hn::StoreU(a, d, r0 + c);
    hn::StoreU(b, d, r1 + c);
  }
  for (; c < n; ++c) r0[c] = in[2 * c], r1[c] = in[2 * c + 1];
}


void UnpackRows4U8(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  uint8_t* r[4] = {dense, dense + row_stride, dense + 2 * row_stride, dense + 3 * row_stride};
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> a, b, e, f;
    hn::LoadInterleaved4(d, phys + 4 * c, a, b, e, f);
    hn::StoreU(a, d, r[0] + c);
    hn::StoreU(b, d, r[1] + c);
    hn::StoreU(e, d, r[2] + c);
    hn::StoreU(f, d, r[3] + c);
  }
  for (; c < n; ++c) {
    for (int k = 0; k < 4; ++k) r[k][c] = phys[4 * c + k];
  }
}

// Unpack may stream the dense rows when every row store is a whole
// vector-aligned vector (rows aligned, n whole vectors).
HWY_INLINE bool RowsStreamable(const uint8_t* dense, int64_t row_stride, int64_t n) {
  const int64_t N = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<uint8_t>()));
  return reinterpret_cast<uintptr_t>(dense) % static_cast<uintptr_t>(N) == 0 && row_stride % N == 0 && n % N == 0;
}

template <bool kStream>
void UnpackRows8U4Impl(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto low = hn::Set(d, 0x0F);
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> b[4];
    hn::LoadInterleaved4(d, phys + 4 * c, b[0], b[1], b[2], b[3]);
    for (int k = 0; k < 4; ++k) {
      Put<kStream>(hn::And(b[k], low), d, dense + (2 * k) * row_stride + c);
      Put<kStream>(hn::ShiftRight<4>(b[k]), d, dense + (2 * k + 1) * row_stride + c);
    }
  }
  for (; c < n; ++c) {
    for (int k = 0; k < 4; ++k) {
      dense[(2 * k) * row_stride + c] = phys[4 * c + k] & 0x0F;
      dense[(2 * k + 1) * row_stride + c] = phys[4 * c + k] >> 4;
    }
  }
}

void UnpackRows8U4(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream) {
  if (stream && RowsStreamable(dense, row_stride, n)) {
    UnpackRows8U4Impl<true>(phys, dense, row_stride, n);
  } else {
    UnpackRows8U4Impl<false>(phys, dense, row_stride, n);
  }
}

// 1-bit: bit i of byte k of a column = bit 0 of row 8k+i.
template <bool kStream, int kBit, class D>
HWY_INLINE void ScatterBit(D d, hn::Vec<D> v, uint8_t* row) {
  Put<kStream>(hn::And(hn::ShiftRight<kBit>(v), hn::Set(d, 1)), d, row);
}

template <bool kStream>
void UnpackRows32U1Impl(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> b[4];
    hn::LoadInterleaved4(d, phys + 4 * c, b[0], b[1], b[2], b[3]);
    for (int k = 0; k < 4; ++k) {
      uint8_t* r = dense + (8 * k) * row_stride + c;
      ScatterBit<kStream, 0>(d, b[k], r);
      ScatterBit<kStream, 1>(d, b[k], r + row_stride);
      ScatterBit<kStream, 2>(d, b[k], r + 2 * row_stride);
      ScatterBit<kStream, 3>(d, b[k], r + 3 * row_stride);
      ScatterBit<kStream, 4>(d, b[k], r + 4 * row_stride);
      ScatterBit<kStream, 5>(d, b[k], r + 5 * row_stride);
      ScatterBit<kStream, 6>(d, b[k], r + 6 * row_stride);
      ScatterBit<kStream, 7>(d, b[k], r + 7 * row_stride);
    }
  }
  for (; c < n; ++c) {
    for (int k = 0; k < 4; ++k) {
      for (int i = 0; i < 8; ++i) dense[(8 * k + i) * row_stride + c] = (phys[4 * c + k] >> i) & 1;
    }
  }
}

void UnpackRows32U1(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream) {
  if (stream && RowsStreamable(dense, row_stride, n)) {
    UnpackRows32U1Impl<true>(phys, dense, row_stride, n);
  } else {
    UnpackRows32U1Impl<false>(phys, dense, row_stride, n);
  }
}

void TransposeU32(const uint8_t* const* src_rows, uint8_t* const* dst_rows, int64_t rows, int64_t cols,
                  bool dst_outer) {
  auto src = [&](int64_t i) { return reinterpret_cast<const uint32_t*>(src_rows[i]); };
  auto dst = [&](int64_t j) { return reinterpret_cast<uint32_t*>(dst_rows[j]); };
#if HWY_TARGET == HWY_SCALAR
  const int64_t rows4 = 0, cols4 = 0;  // no 128-bit vectors: all scalar
  (void)dst_outer;
#else
  const hn::Full128<uint32_t> d;
  const hn::Full128<uint64_t> d64;
  const int64_t rows4 = rows / 4 * 4, cols4 = cols / 4 * 4;
  auto block = [&](int64_t i, int64_t j) {
    const auto a = hn::LoadU(d, src(i) + j);
    const auto b = hn::LoadU(d, src(i + 1) + j);
    const auto c = hn::LoadU(d, src(i + 2) + j);
    const auto e = hn::LoadU(d, src(i + 3) + j);
    const auto ab_lo = hn::BitCast(d64, hn::InterleaveLower(d, a, b));  // a0 b0 a1 b1
    const auto ce_lo = hn::BitCast(d64, hn::InterleaveLower(d, c, e));
    const auto ab_hi = hn::BitCast(d64, hn::InterleaveUpper(d, a, b));  // a2 b2 a3 b3
    const auto ce_hi = hn::BitCast(d64, hn::InterleaveUpper(d, c, e));
    hn::StoreU(hn::BitCast(d, hn::InterleaveLower(d64, ab_lo, ce_lo)), d, dst(j) + i);
    hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(d64, ab_lo, ce_lo)), d, dst(j + 1) + i);
    hn::StoreU(hn::BitCast(d, hn::InterleaveLower(d64, ab_hi, ce_hi)), d, dst(j + 2) + i);
    hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(d64, ab_hi, ce_hi)), d, dst(j + 3) + i);
  };
  // The outer loop walks the side whose rows should be finished one after
  // another (the dense side: whole cache lines per row).
  if (dst_outer) {
    for (int64_t j = 0; j < cols4; j += 4) {
      for (int64_t i = 0; i < rows4; i += 4) block(i, j);
    }
  } else {
    for (int64_t i = 0; i < rows4; i += 4) {
      for (int64_t j = 0; j < cols4; j += 4) block(i, j);
    }
  }
#endif
  // Edges: columns past cols4 for the vector rows, then rows past rows4.
  for (int64_t i = 0; i < rows4; ++i) {
    for (int64_t j = cols4; j < cols; ++j) dst(j)[i] = src(i)[j];
  }
  for (int64_t i = rows4; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) dst(j)[i] = src(i)[j];
  }
}

// ---------------------------------------------------------------------------
// Panels (kernels.h): whole tiles per call, full-width vectors.

// Panels of large arrays prefetch the data of the chunk about this many
// physical bytes on (whole tiles, at least one; past the call's last tile,
// into the caller's next calls). Measured by CPU time
// (bench/pack_memcpy_ratio): 16 KiB beat 4 and 8 KiB on bf16[8,64,96,200]
// and the 4096x4096 (2,1) and (4,1) cases, within noise on f32 (8,128);
// the earlier 2 tiles ahead, within the call only, left bf16[8,64,96,200]
// (2 tiles per call) without any.
constexpr int64_t kPrefetchBytes = 16384;

struct ChunkOffset {
  bool known;
  int64_t dense, phys;  // bytes from chunk (t, j) to the chunk ahead
};
HWY_INLINE ChunkOffset ChunkAhead(const Panel& p, int64_t t, int64_t tiles) {
  const int64_t tile_bytes = p.groups * p.group_rows * p.tile_cols * p.elem_bytes;
  const int64_t a = std::max<int64_t>(1, kPrefetchBytes / tile_bytes);
  const int64_t dense_tile = p.tile_cols * p.elem_bytes;
  if (t + a < tiles) return {true, a * dense_tile, a * p.tile_phys_stride};
  if (p.next_dense == 0 && p.next_phys == 0) return {false, 0, 0};
  // Tile (t + a) % tiles of the call (t + a) / tiles calls on.
  const int64_t calls = (t + a) / tiles, dt = (t + a) % tiles - t;
  return {true, calls * p.next_dense + dt * dense_tile, calls * p.next_phys + dt * p.tile_phys_stride};
}

HWY_INLINE void PrefetchBytes(const uint8_t* p, int64_t bytes) {
  for (int64_t b = 0; b < bytes; b += 64) hwy::Prefetch(p + b);
}
// Largest contiguous dense block UnpackPanel stages for streaming.
constexpr int64_t kMaxDenseStage = 16384;

// Copies `bytes`; with kStream every vector store is non-temporal (the
// caller checked that `to` is vector-aligned and `bytes` whole vectors).
template <bool kStream>
HWY_INLINE void CopyBytes(const uint8_t* HWY_RESTRICT from, uint8_t* HWY_RESTRICT to, int64_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + 4 * N <= bytes; i += 4 * N) {  // 4 vectors per step: fewer loop instructions
    const auto v0 = hn::LoadU(d, from + i), v1 = hn::LoadU(d, from + i + N);
    const auto v2 = hn::LoadU(d, from + i + 2 * N), v3 = hn::LoadU(d, from + i + 3 * N);
    Put<kStream>(v0, d, to + i);
    Put<kStream>(v1, d, to + i + N);
    Put<kStream>(v2, d, to + i + 2 * N);
    Put<kStream>(v3, d, to + i + 3 * N);
  }
  for (; i + N <= bytes; i += N) Put<kStream>(hn::LoadU(d, from + i), d, to + i);
  if (i < bytes) std::memcpy(to + i, from + i, static_cast<size_t>(bytes - i));
}

// True when `bytes` at `to` are whole aligned vectors (streamable).
HWY_INLINE bool WholeVectors(const void* to, int64_t bytes) {
  const int64_t N = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<uint8_t>()));
  return reinterpret_cast<uintptr_t>(to) % static_cast<uintptr_t>(N) == 0 && bytes % N == 0;
}

HWY_INLINE void Emit(const uint8_t* from, uint8_t* to, int64_t bytes, bool stream) {
  if (stream && WholeVectors(to, bytes)) {
    CopyBytes<true>(from, to, bytes);
  } else {
    CopyBytes<false>(from, to, bytes);
  }
}

// Cached panels without an interleave (group_rows 1), both directions: each
// dense row, front to back, as pieces of tile_cols elements one tile apart
// in physical memory, with running pointers and no per-piece index
// arithmetic. Measured on f32[1000,1000]{1,0:T(8,128)} with
// bench/pack_memcpy_ratio --rounds=21, old and new binaries alternating 5
// times: pack/memcpy 0.76-0.81 -> 0.81-0.87, unpack/memcpy 0.72-0.81 ->
// 0.82-0.89 (unpack used to go tile by tile). Pack zeroes the ragged last
// piece's padding.
template <bool kPack>
HWY_INLINE void CopyRowPieces(const Panel& p, const uint8_t* from, uint8_t* to, int64_t cols) {
  const int64_t piece = p.tile_cols * p.elem_bytes;
  const int64_t full = cols / p.tile_cols, tail = (cols - full * p.tile_cols) * p.elem_bytes;
  const int64_t from_step = kPack ? piece : p.tile_phys_stride;
  const int64_t to_step = kPack ? p.tile_phys_stride : piece;
  for (int64_t j = 0; j < p.groups; ++j) {
    const uint8_t* f = from + j * (kPack ? p.group_dense_stride : p.group_phys_stride);
    uint8_t* t = to + j * (kPack ? p.group_phys_stride : p.group_dense_stride);
    for (int64_t k = 0; k < full; ++k, f += from_step, t += to_step) CopyBytes<false>(f, t, piece);
    if (tail == 0) continue;
    CopyBytes<false>(f, t, tail);
    if (kPack) std::memset(t + tail, 0, static_cast<size_t>(piece - tail));
  }
}

// Row interleave of `nc` columns: out[(c*g + r)*nb] = row r, column c, for
// g = 2 (2-byte) or 4 (1-byte elements).
HWY_INLINE void Zip(int64_t g, const uint8_t* src, int64_t rs, uint8_t* out, int64_t nc) {
  int64_t c = 0;
  if (g == 2) {
    const hn::ScalableTag<uint16_t> d;
    const int64_t N = static_cast<int64_t>(hn::Lanes(d));
    const uint16_t* r0 = reinterpret_cast<const uint16_t*>(src);
    const uint16_t* r1 = reinterpret_cast<const uint16_t*>(src + rs);
    uint16_t* o = reinterpret_cast<uint16_t*>(out);
    for (; c + N <= nc; c += N) hn::StoreInterleaved2(hn::LoadU(d, r0 + c), hn::LoadU(d, r1 + c), d, o + 2 * c);
    for (; c < nc; ++c) {
      std::memcpy(out + 4 * c, src + 2 * c, 2);
      std::memcpy(out + 4 * c + 2, src + rs + 2 * c, 2);
    }
  } else {
    const hn::ScalableTag<uint8_t> d;
    const int64_t N = static_cast<int64_t>(hn::Lanes(d));
    for (; c + N <= nc; c += N) {
      hn::StoreInterleaved4(hn::LoadU(d, src + c), hn::LoadU(d, src + rs + c), hn::LoadU(d, src + 2 * rs + c),
                            hn::LoadU(d, src + 3 * rs + c), d, out + 4 * c);
    }
    for (; c < nc; ++c) {
      for (int64_t r = 0; r < 4; ++r) out[4 * c + r] = src[r * rs + c];
    }
  }
}

// The inverse of Zip, storing dense rows (non-temporal with kStream: the
// caller checked that every row store is a whole aligned vector).
template <bool kStream>
HWY_INLINE void Unzip(int64_t g, const uint8_t* in, uint8_t* dst, int64_t rs, int64_t nc) {
  int64_t c = 0;
  if (g == 2) {
    const hn::ScalableTag<uint16_t> d;
    const int64_t N = static_cast<int64_t>(hn::Lanes(d));
    const uint16_t* i16 = reinterpret_cast<const uint16_t*>(in);
    uint16_t* r0 = reinterpret_cast<uint16_t*>(dst);
    uint16_t* r1 = reinterpret_cast<uint16_t*>(dst + rs);
    for (; c + N <= nc; c += N) {
      hn::Vec<decltype(d)> a, b;
      hn::LoadInterleaved2(d, i16 + 2 * c, a, b);
      Put<kStream>(a, d, r0 + c);
      Put<kStream>(b, d, r1 + c);
    }
    for (; c < nc; ++c) {
      std::memcpy(dst + 2 * c, in + 4 * c, 2);
      std::memcpy(dst + rs + 2 * c, in + 4 * c + 2, 2);
    }
  } else {
    const hn::ScalableTag<uint8_t> d;
    const int64_t N = static_cast<int64_t>(hn::Lanes(d));
    for (; c + N <= nc; c += N) {
      hn::Vec<decltype(d)> a, b, e, f;
      hn::LoadInterleaved4(d, in + 4 * c, a, b, e, f);
      Put<kStream>(a, d, dst + c);
      Put<kStream>(b, d, dst + rs + c);
      Put<kStream>(e, d, dst + 2 * rs + c);
      Put<kStream>(f, d, dst + 3 * rs + c);
    }
    for (; c < nc; ++c) {
      for (int64_t r = 0; r < 4; ++r) dst[r * rs + c] = in[4 * c + r];
    }
  }
}

void PackPanel(const Panel& p, const uint8_t* dense, uint8_t* phys, int64_t cols, bool stream) {
  const int64_t nb = p.elem_bytes, g = p.group_rows, tc = p.tile_cols;
  const int64_t chunk = g * tc * nb;
  const int64_t tiles = (cols + tc - 1) / tc;
  HWY_ALIGN uint8_t stage[kMaxPanelChunk];
  // Inlined (GCC 12 kept it a function otherwise): f32[1000,1000] pack
  // 45.0-46.2 -> 45.2-47.8 GB/s by CPU time, 5 alternations (measured when
  // that layout still came through here).
  auto pack_chunk = [&](int64_t t, int64_t j) __attribute__((always_inline)) {
    const int64_t nc = std::min(tc, cols - t * tc);
    const int64_t valid = g * nc * nb;
    const uint8_t* src = dense + t * tc * nb + j * p.group_dense_stride;
    uint8_t* dst = phys + t * p.tile_phys_stride + j * p.group_phys_stride;
    // Large arrays: the dense side is read as g row pieces per chunk, a
    // few hundred bytes of each row, which the hardware prefetcher
    // follows poorly.
    if (stream) {
      const ChunkOffset ahead = ChunkAhead(p, t, tiles);
      if (ahead.known) {
        for (int64_t r = 0; r < g; ++r) PrefetchBytes(src + ahead.dense + r * p.row_stride, nc * nb);
      }
    }
    // Streamed chunks that are interleaved or ragged go through the stage,
    // so that they leave in whole vectors; the others are written in
    // place, a ragged one's padding zeroed after its valid bytes.
    const bool staged = stream && (nc < tc || g > 1);
    uint8_t* out = staged ? stage : dst;
    if (g > 1) {
      Zip(g, src, p.row_stride, out, nc);
    } else if (staged) {
      std::memcpy(out, src, static_cast<size_t>(valid));
    } else {
      Emit(src, dst, valid, stream);
    }
    if (staged) {
      Emit(stage, dst, chunk, stream);
    } else if (valid < chunk) {
      std::memset(dst + valid, 0, static_cast<size_t>(chunk - valid));
    }
  };
  // Streamed: tile by tile, the physical side written front to back.
  // Cached (smaller) arrays: row group by row group, the dense rows read
  // front to back; measured by CPU time on f32[1000,1000]{1,0:T(8,128)},
  // 44.0-46.2 -> 46.7-48.2 GB/s, before that layout (group_rows 1) moved
  // to CopyRowPieces.
  if (stream) {
    for (int64_t t = 0; t < tiles; ++t) {
      // The ragged tile's chunks fill only [0, valid) of the stage: zero
      // the rest once for all of them (whole tiles before it overwrote it).
      const int64_t valid = g * std::min(tc, cols - t * tc) * nb;
      if (valid < chunk) std::memset(stage + valid, 0, static_cast<size_t>(chunk - valid));
      for (int64_t j = 0; j < p.groups; ++j) pack_chunk(t, j);
    }
  } else if (g == 1) {
    CopyRowPieces<true>(p, dense, phys, cols);
  } else {
    for (int64_t j = 0; j < p.groups; ++j) {
      for (int64_t t = 0; t < tiles; ++t) pack_chunk(t, j);
    }
  }
}

// Unpacks into `dense` with row runs stored by the caller's choice.
HWY_INLINE void UnpackTiles(const Panel& p, const uint8_t* phys, uint8_t* dense, int64_t cols, bool stream,
                            bool prefetch) {
  const int64_t nb = p.elem_bytes, g = p.group_rows, tc = p.tile_cols;
  const int64_t lane_bytes = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<uint8_t>()));
  const int64_t tiles = (cols + tc - 1) / tc;
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t nc = std::min(tc, cols - t * tc);
    for (int64_t j = 0; j < p.groups; ++j) {
      const uint8_t* src = phys + t * p.tile_phys_stride + j * p.group_phys_stride;
      uint8_t* dst = dense + t * tc * nb + j * p.group_dense_stride;
      // Large arrays: each tile's pieces start a new page, where the
      // hardware prefetcher restarts, and ragged tiles leave gaps.
      if (prefetch) {
        const ChunkOffset ahead = ChunkAhead(p, t, tiles);
        if (ahead.known) PrefetchBytes(src + ahead.phys, g * nc * nb);
      }
      if (g == 1) {
        Emit(src, dst, nc * nb, stream);
      } else if (stream && WholeVectors(dst, nc * nb) && p.row_stride % lane_bytes == 0) {
        Unzip<true>(g, src, dst, p.row_stride, nc);
      } else {
        Unzip<false>(g, src, dst, p.row_stride, nc);
      }
    }
  }
}

void UnpackPanel(const Panel& p, const uint8_t* phys, uint8_t* dense, int64_t cols, bool stream) {
  // When the panel's dense rows are exactly its columns, one after another
  // (narrow arrays such as bf16[..,200]), its dense bytes are one block:
  // unpack it into the stage and stream the block out whole, which rows
  // whose ends are not vector-aligned would not allow.
  const int64_t nb = p.elem_bytes, g = p.group_rows;
  const int64_t row_bytes = cols * nb;
  const bool rows_adjacent = g == 1 ? (p.groups == 1 || p.group_dense_stride == row_bytes)
                                    : (p.row_stride == row_bytes && p.group_dense_stride == g * row_bytes);
  const int64_t block = p.groups * g * row_bytes;
  if (stream && rows_adjacent && block <= kMaxDenseStage && WholeVectors(dense, block)) {
    HWY_ALIGN uint8_t stage[kMaxDenseStage];
    UnpackTiles(p, phys, stage, cols, false, true);
    CopyBytes<true>(stage, dense, block);
    return;
  }
  if (!stream && g == 1) {
    CopyRowPieces<false>(p, phys, dense, cols);
    return;
  }
  UnpackTiles(p, phys, dense, cols, stream, stream);
}

// ---------------------------------------------------------------------------
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
  for (int k = 0; k < 4; ++k) {
    const __m512i x0 = _mm512_maskz_shuffle_i32x4(kAll16, u[k], u[4 + k], 0x44);  // u0.b0 u0.b1 u1.b0 u1.b1
    const __m512i x1 = _mm512_maskz_shuffle_i32x4(kAll16, u[k], u[4 + k], 0xEE);  // u0.b2 u0.b3 u1.b2 u1.b3
    const __m512i x2 = _mm512_maskz_shuffle_i32x4(kAll16, u[8 + k], u[12 + k], 0x44);
    const __m512i x3 = _mm512_maskz_shuffle_i32x4(kAll16, u[8 + k], u[12 + k], 0xEE);
    v[k] = _mm512_maskz_shuffle_i32x4(kAll16, x0, x2, 0x88);       // column k
    v[4 + k] = _mm512_maskz_shuffle_i32x4(kAll16, x0, x2, 0xDD);   // column 4 + k
    v[8 + k] = _mm512_maskz_shuffle_i32x4(kAll16, x1, x3, 0x88);   // column 8 + k
    v[12 + k] = _mm512_maskz_shuffle_i32x4(kAll16, x1, x3, 0xDD);  // column 12 + k
  }
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
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // AVX-512: one 16x16 transpose in registers, each vector a whole line.
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
  constexpr int64_t kChunk = 64;
  // The line of column c0 + k, rows r..r+15 (physical column offsets o).
  auto in_line = [&](const int64_t* o, int64_t r, int64_t c0, int64_t k) {
    return kPack ? in + (r + k) * rs + c0 * 4 : in + o[k] + r * 4;
  };
  ColumnCursor col{p}, col_ahead{p};
  for (int64_t k = 0; k < kChunk; ++k) col_ahead.next();
  const int64_t cols16 = cols / 16 * 16;
  for (int64_t cb = 0; cb < cols16; cb += kChunk) {
    const int64_t ce = std::min(cb + kChunk, cols16);
    int64_t off[kChunk], off_ahead[kChunk];  // of columns cb.. and cb + kChunk..
    for (int64_t c = 0; c < ce - cb; ++c, col.next(), col_ahead.next()) {
      off[c] = col.offset();
      off_ahead[c] = col_ahead.offset();
    }
    const bool prefetch = ce + kChunk <= cols16;
    int64_t r = 0;
    for (; r + 16 <= p.rows; r += 16) {
      for (int64_t c0 = cb; c0 < ce; c0 += 16) {
        const int64_t* o = off + (c0 - cb);
        __m512i v[16];
        for (int64_t k = 0; k < 16; ++k) {
          if (prefetch) hwy::Prefetch(in_line(off_ahead + (c0 - cb), r, c0 + kChunk, k));
          v[k] = _mm512_loadu_si512(in_line(o, r, c0, k));
        }
        Transpose16x16(v);
        for (int64_t k = 0; k < 16; ++k) {
          uint8_t* to = kPack ? out + o[k] + r * 4 : out + (r + k) * rs + c0 * 4;
          if constexpr (kStream) {
            _mm512_stream_si512(reinterpret_cast<__m512i*>(to), v[k]);
          } else {
            _mm512_storeu_si512(to, v[k]);
          }
        }
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

// Whole lines everywhere: 64-byte aligned lines on the written side.
HWY_INLINE bool LinesWhole(const uint8_t* base, int64_t a, int64_t b) {
  return reinterpret_cast<uintptr_t>(base) % 64 == 0 && a % 64 == 0 && b % 64 == 0;
}

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

}  // namespace tilecheck::impl::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tilecheck::impl::kernels {

HWY_EXPORT(PackRows2U16);
HWY_EXPORT(PackRows4U8);
HWY_EXPORT(PackRows8U4);
HWY_EXPORT(PackRows32U1);
HWY_EXPORT(UnpackRows2U16);
HWY_EXPORT(UnpackRows4U8);
HWY_EXPORT(UnpackRows8U4);
HWY_EXPORT(UnpackRows32U1);
HWY_EXPORT(TransposeU32);
HWY_EXPORT(PackPanel);
HWY_EXPORT(TransposePanelPack);
HWY_EXPORT(TransposePanelUnpack);

void transpose_panel_pack(const TransposePanel& panel, const uint8_t* dense, uint8_t* phys, int64_t cols,
                          bool stream) {
  HWY_DYNAMIC_DISPATCH(TransposePanelPack)(panel, dense, phys, cols, stream);
}
void transpose_panel_unpack(const TransposePanel& panel, const uint8_t* phys, uint8_t* dense, int64_t cols,
                            bool stream) {
  HWY_DYNAMIC_DISPATCH(TransposePanelUnpack)(panel, phys, dense, cols, stream);
}
HWY_EXPORT(UnpackPanel);

void pack_panel(const Panel& panel, const uint8_t* dense, uint8_t* phys, int64_t cols, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackPanel)(panel, dense, phys, cols, stream);
}
void unpack_panel(const Panel& panel, const uint8_t* phys, uint8_t* dense, int64_t cols, bool stream) {
  HWY_DYNAMIC_DISPATCH(UnpackPanel)(panel, phys, dense, cols, stream);
}
void flush_streams() { hwy::FlushStream(); }

void transpose_u32(const uint8_t* const* src_rows, uint8_t* const* dst_rows, int64_t rows, int64_t cols,
                   bool dst_outer) {
  HWY_DYNAMIC_DISPATCH(TransposeU32)(src_rows, dst_rows, rows, cols, dst_outer);
}

void pack_rows2_u16(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows2U16)(dense, row_stride, phys, n, stream);
}
void pack_rows4_u8(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows4U8)(dense, row_stride, phys, n, stream);
}
void pack_rows8_u4(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows8U4)(dense, row_stride, phys, n, stream);
}
void pack_rows32_u1(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows32U1)(dense, row_stride, phys, n, stream);
}
void unpack_rows2_u16(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  HWY_DYNAMIC_DISPATCH(UnpackRows2U16)(phys, dense, row_stride, n);
}
void unpack_rows4_u8(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  HWY_DYNAMIC_DISPATCH(UnpackRows4U8)(phys, dense, row_stride, n);
}
void unpack_rows8_u4(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(UnpackRows8U4)(phys, dense, row_stride, n, stream);
}
void unpack_rows32_u1(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(UnpackRows32U1)(phys, dense, row_stride, n, stream);
}

}  // namespace tilecheck::impl::kernels
#endif
