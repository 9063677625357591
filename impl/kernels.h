// Microkernels of pack/unpack. Three kinds: panels and transposing panels
// (below), which run the innermost three or four loops of a tiled layout
// in one call, and these row interleaves for the innermost two: a block of
// `rows` rows of `n` columns whose dense rows are `row_stride` bytes apart
// and whose physical form stores each column's `rows` elements together
// (the (2,1), (4,1), (8,1) and (32,1) row interleaves of TPU layouts).
//
//   pack:   phys[c*rows + r] = dense[r*row_stride + c]     (elements)
//   unpack: dense[r*row_stride + c] = phys[c*rows + r]
//
// SIMD with Highway, best target chosen at run time (HWY_DYNAMIC_DISPATCH),
// scalar on machines without one. For 4-bit elements a column's 8 elements
// become 4 bytes (low nibble first, D7); for 1-bit elements its 32 elements
// become 4 bytes (bit r%8 of byte r/8). Pack reads the low bits of each
// dense byte; unpack writes the high bits zero, or with `sign` as copies
// of the value's top bit (signed types, docs/PROTOCOL.md "Dense buffers"). With `stream`, pack stores with
// non-temporal stores where the output is 16-byte aligned (for outputs far
// larger than the caches), and the sub-byte unpacks where every dense row
// store is a whole aligned vector; flush_streams() must follow before the
// data is handed to another thread.
#pragma once

#include <cstdint>

namespace tilecheck::impl::kernels {

void pack_rows2_u16(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream);
void pack_rows4_u8(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream);
void pack_rows8_u4(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream);
void pack_rows32_u1(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream);

void unpack_rows2_u16(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n);
void unpack_rows4_u8(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n);
void unpack_rows8_u4(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream,
                     bool sign);
void unpack_rows32_u1(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream,
                      bool sign);

// Runs of 1-, 2- or 4-bit elements (`bits`), one dense byte per element:
// `count` runs, run i of `bytes` whole physical bytes at phys +
// i*phys_stride and its 8/bits*bytes elements at dense + i*dense_stride
// (strides in bytes), element j of a run in bits [(j % per)*bits,
// (j % per + 1)*bits) of physical byte j / per, per = 8/bits (low bits
// first, D7). Pack reads the low `bits` of each dense byte and assigns the
// physical bytes; unpack writes the high bits zero, or with `sign` as
// copies of the value's top bit. Cached stores.
void pack_sub_byte_runs(int bits, const uint8_t* dense, int64_t dense_stride, uint8_t* phys, int64_t phys_stride,
                        int64_t count, int64_t bytes);
void unpack_sub_byte_runs(int bits, const uint8_t* phys, int64_t phys_stride, uint8_t* dense, int64_t dense_stride,
                          int64_t count, int64_t bytes, bool sign);

// Whether a kernel may write rows with streaming stores: rows of `n`
// bytes, `row_stride` bytes apart from `dense`, each written in whole
// units of `unit_bytes` from its start, then a scalar tail. The unit is the
// vector where a kernel streams vectors of a line or wider straight to the
// rows (the 4-bit and 1-bit row unpacks, the panels' (2,1) and (4,1)
// unzips and their single-run copies), and the cache line where a kernel
// with narrower vectors stages whole lines and streams them out (the same
// kernels on AVX2, SSE4 and NEON, and the transposing panels). True only
// when every streamed store is aligned to the unit (Highway's Stream
// requires its vector's alignment: a misaligned one faults on x86) and no
// cache line is written partly by streamed and partly by cached stores;
// true at least when `dense`, `row_stride` and `n` are all whole units.
// Outside the per-target kernels, so that one property checks it at every
// unit from 16 to 256 bytes, on any CPU (StreamedRowStoresAreAligned; each
// condition's mutant: docs/COVERAGE.md).
bool rows_streamable(uintptr_t dense, int64_t row_stride, int64_t n, int64_t unit_bytes);

// A cache line: the unit a streaming store's write-combining buffer fills.
// A core has about ten such buffers, so a kernel that streams vectors
// narrower than a line (AVX2's 32 bytes, SSE4's and NEON's 16) into 8 or 32
// rows in turn evicts each buffer half full, and every partial line costs a
// read-modify-write in memory (pred unpack at 0.03x memcpy on AVX2).
inline constexpr int64_t kLineBytes = 64;

// How a kernel that writes rows in turn -- `n` bytes each, `row_stride`
// apart from `dense`, with vectors of `vector_bytes` -- stores them:
enum class RowStores {
  kCached,       // cached stores
  kStreamed,     // its vectors streamed straight to the rows
  kStagedLines,  // a block of whole lines per row staged in L1, streamed out line after line
};
// With `stream` (the destination far larger than the caches): streamed
// where every store is a whole aligned vector (rows_streamable at the
// vector) for vectors of a line or wider; staged where the rows are whole
// lines (rows_streamable at the line) for narrower vectors; else cached.
// Without `stream`, cached. Outside the per-target kernels, so that one
// property checks it at every vector width from 16 to 256 bytes
// (StreamedRowStoresAreAligned): every streamed store aligned, no line both
// streamed and cached, each line's streamed stores one after another (a
// whole line before the next), and streamed at least where the rows are
// whole units.
RowStores row_stores(bool stream, uintptr_t dense, int64_t row_stride, int64_t n, int64_t vector_bytes);

}  // namespace tilecheck::impl::kernels

namespace tilecheck::impl::kernels {

// Transpose of elements of 1, 2, 4 or 8 bytes between two strided
// matrices (strides in bytes, any alignment):
//
//   dst[c*dst_stride + r*elem_bytes .. +elem_bytes) = src[r*src_stride + c*elem_bytes ..]
//
// for r < rows, c < cols: the block of a pack whose dense rows and
// physical columns are both contiguous (a transposed matrix of bf16, s8,
// f32, f64, ..., a channel dim blocked alone: T(16,1,1)), and its unpack
// the other way. Moved one region after another (512 bytes a side through
// the caches, 1 KiB for 8-byte elements; 4 KiB when streamed), so that a
// large matrix's strided side stays on a bounded set of pages for a while,
// and inside a region in bands of columns (a line wide through the caches,
// the whole region when streamed), each walked source rows outer; the
// blocks are squares of 64 bytes a side (16 elements for 8-byte ones),
// each in 128-bit SIMD blocks of (16/elem_bytes)^2 elements (interleave
// stages), scalar at the edges and on targets whose vectors are sizeless
// (SVE, RVV: blocked scalar). On AVX-512 and AVX2,
// 4-byte elements go 16 rows at a time through 16x16 32-bit transposes,
// 8-byte ones 8 rows at a time through 8x8 64-bit transposes, and 1- and
// 2-byte ones 16*4/elem_bytes rows at a time through the 32-bit 16x16
// transposes (their rows interleaved into 32-bit lanes), every destination
// line written whole. `stream`: non-temporal stores where the
// destination's lines are whole (dst and dst_stride line-aligned): those
// whole lines on AVX-512 and AVX2; on the other x86 targets each whole
// square is transposed into a buffer in L1 and streamed out line by line.
// The caller flushes.
void transpose_elements(int64_t elem_bytes, const uint8_t* src, int64_t src_stride, uint8_t* dst,
                        int64_t dst_stride, int64_t rows, int64_t cols, bool stream);

}  // namespace tilecheck::impl::kernels

namespace tilecheck::impl::kernels {

// A panel: the innermost loops of a tiled layout whose tiles split a
// dense-contiguous run of columns, executed in one call (per-tile calls
// from the generic walk cost as much as the copying itself). Tile t (of
// tile_cols columns) holds `groups` chunks; chunk (t, j) starts at physical
// byte t*tile_phys_stride + j*group_phys_stride and stores, for column
// c < tile_cols and row r < group_rows, at chunk byte (c*group_rows + r)*elem_bytes
// the element at dense byte j*group_dense_stride + r*row_stride +
// (t*tile_cols + c)*elem_bytes, or zero (pack) when t*tile_cols + c >= cols.
// group_rows is 1 (any byte width: a copy), 2 with 2-byte or 4 with 1-byte
// elements (the (2,1) and (4,1) row interleaves). Only the ceil(cols /
// tile_cols) tiles holding columns are touched. A ragged tile is staged
// through a zero-padded buffer, so chunk bytes (group_rows * tile_cols *
// elem_bytes) are at most kMaxPanelChunk.
//
// `stream`: non-temporal stores wherever a whole chunk (pack) or row run
// (unpack) is written in aligned full vectors; the caller flushes.
struct Panel {
  int64_t elem_bytes = 0;
  int64_t group_rows = 1;
  int64_t row_stride = 0;  // dense bytes between the rows of a group
  int64_t groups = 1;
  int64_t group_dense_stride = 0;  // bytes
  int64_t group_phys_stride = 0;   // bytes
  int64_t tile_cols = 0;
  int64_t tile_phys_stride = 0;  // bytes; the dense side moves tile_cols*elem_bytes
  // Where the caller's next call will start, relative to this one (bytes;
  // 0 when unknown): the kernels prefetch into it.
  int64_t next_dense = 0;
  int64_t next_phys = 0;
};
constexpr int64_t kMaxPanelChunk = 4096;

void pack_panel(const Panel& panel, const uint8_t* dense, uint8_t* phys, int64_t cols, bool stream);

// A transposing panel of 4-byte elements (column-major tiles): `rows` dense
// rows of `cols` contiguous columns, where column c lives in physical
// column (c / col_group, c % col_group) and its rows run contiguously:
//
//   phys[(c / col_group)*group_stride + (c % col_group)*col_stride + r*4]
//     = dense[r*row_stride + c*4]        (bytes, 4 at a time)
//
// Runs 16x16 blocks (4x4 SIMD transposes) so that every 64-byte line it
// writes is written whole at once, and reads each dense row front to back
// (16 rows at a time). `stream`: non-temporal stores where lines are whole.
struct TransposePanel {
  int64_t rows = 0;
  int64_t row_stride = 0;  // dense bytes
  int64_t col_group = 1;
  int64_t col_stride = 0;    // physical bytes
  int64_t group_stride = 0;  // physical bytes
};
void transpose_panel_pack(const TransposePanel& panel, const uint8_t* dense, uint8_t* phys, int64_t cols,
                          bool stream);
void transpose_panel_unpack(const TransposePanel& panel, const uint8_t* phys, uint8_t* dense, int64_t cols,
                            bool stream);
void unpack_panel(const Panel& panel, const uint8_t* phys, uint8_t* dense, int64_t cols, bool stream);

}  // namespace tilecheck::impl::kernels

namespace tilecheck::impl::kernels {

// `count` runs of `bytes` bytes: run r from `from + r*from_stride` to
// `to + r*to_stride` (strides in bytes). `stream`: non-temporal stores where
// the runs are whole lines (`to`, `to_stride` and `bytes` whole lines,
// kernels.h rows_streamable at the line); else memcpy. The caller flushes.
void copy_runs(const uint8_t* from, int64_t from_stride, uint8_t* to, int64_t to_stride, int64_t count,
               int64_t bytes, bool stream);

// Orders earlier non-temporal stores (sfence on x86).
void flush_streams();

}  // namespace tilecheck::impl::kernels
