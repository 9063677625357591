// The panel kernels (kernels.h, "A panel"): whole tiles per call, rows
// interleaved or copied in pieces, with prefetching and streaming stores for
// large arrays.
// Highway per-target code: included by impl/kernels.cc once per SIMD target
// (hence the toggling include guard, not #pragma once).
#if defined(TILECHECK_IMPL_PANEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TILECHECK_IMPL_PANEL_INL_H_
#undef TILECHECK_IMPL_PANEL_INL_H_
#else
#define TILECHECK_IMPL_PANEL_INL_H_
#endif

#include <algorithm>
#include <cstring>

#include "hwy/cache_control.h"

#include "hwy/highway.h"
#include "impl/kernel_common-inl.h"
#include "impl/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace tilecheck::impl::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Panels (kernels.h): whole tiles per call, full-width vectors.

// Panels of large arrays prefetch the data of the chunk about this many
// physical bytes on (whole tiles, at least one; past the call's last tile,
// into the caller's next calls). Measured by CPU time
// (bench/pack_memcpy_ratio): 16 KiB beat 4 and 8 KiB on bf16[8,64,96,200]
// and the 4096x4096 (2,1) and (4,1) cases, within noise on f32 (8,128);
// a distance counted in tiles within one call would leave panels of 2 tiles
// per call (bf16[8,64,96,200]) without any prefetch.
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

// True when `bytes` at `to` are whole aligned vectors: one row for the
// streaming rule (RowsStreamable).
HWY_INLINE bool WholeVectors(const void* to, int64_t bytes) { return RowsStreamable(to, 0, bytes); }

HWY_INLINE void Emit(const uint8_t* from, uint8_t* to, int64_t bytes, bool stream) {
  if (stream && WholeVectors(to, bytes)) {
    CopyBytes<true>(from, to, bytes);
  } else {
    CopyBytes<false>(from, to, bytes);
  }
}

// Row interleave of `nc` columns: out[(c*G + r)*nb] = row r, column c, for
// G = 2 (2-byte) or 4 (1-byte elements).
template <int G>
HWY_INLINE void ZipRows(const uint8_t* src, int64_t rs, uint8_t* out, int64_t nc) {
  int64_t c = 0;
  if constexpr (G == 2) {
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

// The inverse of ZipRows, storing dense rows (non-temporal with kStream:
// the caller checked that every row store is a whole aligned vector).
template <bool kStream, int G>
HWY_INLINE void UnzipRows(const uint8_t* in, uint8_t* dst, int64_t rs, int64_t nc) {
  int64_t c = 0;
  if constexpr (G == 2) {
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

// ZipRows and UnzipRows for a group size known only at run time.
HWY_INLINE void Zip(int64_t g, const uint8_t* src, int64_t rs, uint8_t* out, int64_t nc) {
  g == 2 ? ZipRows<2>(src, rs, out, nc) : ZipRows<4>(src, rs, out, nc);
}
template <bool kStream>
HWY_INLINE void Unzip(int64_t g, const uint8_t* in, uint8_t* dst, int64_t rs, int64_t nc) {
  g == 2 ? UnzipRows<kStream, 2>(in, dst, rs, nc) : UnzipRows<kStream, 4>(in, dst, rs, nc);
}

// Cached panels (destinations below ExecOptions::stream_bytes), both
// directions: tile by tile, each tile's row groups in turn, so the physical
// side is written (pack) or read (unpack) front to back, with running
// pointers and the group size a constant; pack zeroes the ragged last
// tile's padding. Against walking each dense row's pieces in turn (and the
// interleaves row group by row group) this is up to 1.6x faster in L2 and
// the same on f32[1000,1000]{1,0:T(8,128)} (bench/pack_memcpy_ratio, by
// CPU time, on the AMD EPYC Zen 5 of docs/BENCHMARKING.md).
template <bool kPack, int G>
HWY_INLINE void CachedTiles(const Panel& p, const uint8_t* from, uint8_t* to, int64_t cols) {
  const int64_t nb = p.elem_bytes, tc = p.tile_cols, tiles = (cols + tc - 1) / tc, chunk = G * tc * nb;
  const int64_t from_group = kPack ? p.group_dense_stride : p.group_phys_stride;
  const int64_t to_group = kPack ? p.group_phys_stride : p.group_dense_stride;
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t nc = std::min(tc, cols - t * tc), valid = G * nc * nb;
    const uint8_t* f = from + t * (kPack ? tc * nb : p.tile_phys_stride);
    uint8_t* o = to + t * (kPack ? p.tile_phys_stride : tc * nb);
    for (int64_t j = 0; j < p.groups; ++j, f += from_group, o += to_group) {
      if constexpr (G == 1) {
        CopyBytes<false>(f, o, valid);
      } else if constexpr (kPack) {
        ZipRows<G>(f, p.row_stride, o, nc);
      } else {
        UnzipRows<false, G>(f, o, p.row_stride, nc);
      }
      if (kPack && valid < chunk) std::memset(o + valid, 0, static_cast<size_t>(chunk - valid));
    }
  }
}
template <bool kPack>
HWY_INLINE void CachedPanel(const Panel& p, const uint8_t* from, uint8_t* to, int64_t cols) {
  switch (p.group_rows) {
    case 1: return CachedTiles<kPack, 1>(p, from, to, cols);
    case 2: return CachedTiles<kPack, 2>(p, from, to, cols);
    default: return CachedTiles<kPack, 4>(p, from, to, cols);
  }
}

void PackPanel(const Panel& p, const uint8_t* dense, uint8_t* phys, int64_t cols, bool stream) {
  if (!stream) return CachedPanel<true>(p, dense, phys, cols);
  const int64_t nb = p.elem_bytes, g = p.group_rows, tc = p.tile_cols;
  const int64_t chunk = g * tc * nb;
  const int64_t tiles = (cols + tc - 1) / tc;
  HWY_ALIGN uint8_t stage[kMaxPanelChunk];
  // Inlined: GCC 12 kept it a function otherwise.
  auto pack_chunk = [&](int64_t t, int64_t j) __attribute__((always_inline)) {
    const int64_t nc = std::min(tc, cols - t * tc);
    const int64_t valid = g * nc * nb;
    const uint8_t* src = dense + t * tc * nb + j * p.group_dense_stride;
    uint8_t* dst = phys + t * p.tile_phys_stride + j * p.group_phys_stride;
    // The dense side is read as g row pieces per chunk, a few hundred
    // bytes of each row, which the hardware prefetcher follows poorly.
    const ChunkOffset ahead = ChunkAhead(p, t, tiles);
    if (ahead.known) {
      for (int64_t r = 0; r < g; ++r) PrefetchBytes(src + ahead.dense + r * p.row_stride, nc * nb);
    }
    // Chunks that are interleaved or ragged go through the stage, so that
    // they leave in whole vectors; the others are written in place.
    const bool staged = nc < tc || g > 1;
    uint8_t* out = staged ? stage : dst;
    if (g > 1) {
      Zip(g, src, p.row_stride, out, nc);
    } else if (staged) {
      std::memcpy(out, src, static_cast<size_t>(valid));
    } else {
      Emit(src, dst, valid, true);
    }
    if (staged) Emit(stage, dst, chunk, true);
  };
  // Streamed: tile by tile, the physical side written front to back.
  for (int64_t t = 0; t < tiles; ++t) {
    // The ragged tile's chunks fill only [0, valid) of the stage: zero
    // the rest once for all of them (whole tiles before it overwrote it).
    const int64_t valid = g * std::min(tc, cols - t * tc) * nb;
    if (valid < chunk) std::memset(stage + valid, 0, static_cast<size_t>(chunk - valid));
    for (int64_t j = 0; j < p.groups; ++j) pack_chunk(t, j);
  }
}

// Unpacks a streamed panel into `dense`, prefetching its physical side,
// with row runs stored by the caller's choice.
HWY_INLINE void UnpackTiles(const Panel& p, const uint8_t* phys, uint8_t* dense, int64_t cols, bool stream) {
  const int64_t nb = p.elem_bytes, g = p.group_rows, tc = p.tile_cols;
  const int64_t tiles = (cols + tc - 1) / tc;
  HWY_ALIGN uint8_t stage[kMaxPanelChunk];  // one chunk: g rows of nc*nb bytes
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t nc = std::min(tc, cols - t * tc);
    for (int64_t j = 0; j < p.groups; ++j) {
      const uint8_t* src = phys + t * p.tile_phys_stride + j * p.group_phys_stride;
      uint8_t* dst = dense + t * tc * nb + j * p.group_dense_stride;
      // Each tile's pieces start a new page, where the hardware prefetcher
      // restarts, and ragged tiles leave gaps.
      const ChunkOffset ahead = ChunkAhead(p, t, tiles);
      if (ahead.known) PrefetchBytes(src + ahead.phys, g * nc * nb);
      if (g == 1) {
        Emit(src, dst, nc * nb, stream);
        continue;
      }
      // g rows in turn (kernels.h, row_stores): vectors narrower than a
      // line unzip into the stage, and each row's run streams out whole.
      switch (RowStoresHere(stream, dst, p.row_stride, nc * nb)) {
        case RowStores::kStagedLines:
          Unzip<false>(g, src, stage, nc * nb, nc);
          StreamRuns(stage, nc * nb, g, dst, p.row_stride);
          break;
        case RowStores::kStreamed:
          Unzip<true>(g, src, dst, p.row_stride, nc);
          break;
        case RowStores::kCached:
          Unzip<false>(g, src, dst, p.row_stride, nc);
          break;
      }
    }
  }
}

void UnpackPanel(const Panel& p, const uint8_t* phys, uint8_t* dense, int64_t cols, bool stream) {
  if (!stream) return CachedPanel<false>(p, phys, dense, cols);
  // When the panel's dense rows are exactly its columns, one after another
  // (narrow arrays such as bf16[..,200]), its dense bytes are one block:
  // unpack it into the stage and stream the block out whole, which rows
  // whose ends are not vector-aligned would not allow.
  const int64_t nb = p.elem_bytes, g = p.group_rows;
  const int64_t row_bytes = cols * nb;
  const bool rows_adjacent = g == 1 ? (p.groups == 1 || p.group_dense_stride == row_bytes)
                                    : (p.row_stride == row_bytes && p.group_dense_stride == g * row_bytes);
  const int64_t block = p.groups * g * row_bytes;
  if (rows_adjacent && block <= kMaxDenseStage && WholeVectors(dense, block)) {
    HWY_ALIGN uint8_t stage[kMaxDenseStage];
    UnpackTiles(p, phys, stage, cols, false);
    CopyBytes<true>(stage, dense, block);
    return;
  }
  UnpackTiles(p, phys, dense, cols, true);
}

}  // namespace tilecheck::impl::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // TILECHECK_IMPL_PANEL_INL_H_
