// The fast implementation of tiled layouts: compiled, immutable plans.
//
// A plan is built once from a shape with layout (validating it exactly as the
// spec does, throwing tilecheck::Error) and is then immutable, thread-safe
// and reusable; executing it is a cheap call (the plan/execute split of XLA's
// TransposePlan). This header is the contract that the properties, fuzzers,
// proofs (P4), the CLI and the C API program against.
//
// The impl depends on tilecheck/spec/model.h and tilecheck/spec/syntax.h only, never on the
// spec's algorithms (tilecheck/spec/semantics.h, tilecheck/spec/arith.h): the cross-checks are
// worth something only because the two were written differently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::impl {

// The compiled index function, as data: exactly what IndexPlan::linear_index
// executes, so that the proofs (P4) can evaluate it on symbolic coordinates.
//
// Registers 0..input_count-1 hold the logical coordinates e_0..e_{rank-1}
// (logical dim order, not physical). Step k reads a linear combination of
// earlier registers and writes two new registers:
//
//   g_k                       = sum over terms (coeff * reg[term.reg])   (g_k >= 0)
//   reg[input_count + 2k]     = floor(g_k / divisor)
//   reg[input_count + 2k + 1] = g_k mod divisor
//
// and linear_index = sum over result terms (coeff * reg[term.reg]).
// Every tiling level contributes one step per tiled group whose division is
// not trivial (divisor 1 or a group bound <= divisor fold away at build time);
// combined dims (D4) appear as multi-term combinations, the physical order
// (D1) as the choice of registers, D3's leading dims as nothing (index 0).
// The hot path runs these steps from a flattened copy made by transcription,
// with each division done by FastDiv (impl/fast_div.h, multiply and shift).
struct IndexProgram {
  struct Term {
    int64_t reg;
    int64_t coeff;
  };
  struct Step {
    std::vector<Term> terms;
    int64_t divisor;  // >= 2
  };
  int64_t input_count = 0;
  std::vector<Step> steps;
  std::vector<Term> result;
};

// Evaluates `program` with plain C++ division: the reference reading of the
// data above, used by the tests to tie program() to linear_index().
int64_t evaluate_index_program(const IndexProgram& program, std::span<const int64_t> element);

class IndexPlan;
namespace detail {
struct CompiledLayout;  // impl/compiled_layout.h
const CompiledLayout& compiled(const IndexPlan& plan);
}  // namespace detail

// Element <-> linear position. O(rank) per call, no hardware division on the
// hot path, no allocation (registers on the stack; only layouts needing more
// than 256 intermediate coordinates, hundreds of tile entries, use the heap).
class IndexPlan {
 public:
  // Throws Error for invalid layouts, symbolic dims, or sizes overflowing int64.
  explicit IndexPlan(const ShapeWithLayout& shape);
  ~IndexPlan();
  IndexPlan(IndexPlan&&) noexcept;
  IndexPlan& operator=(IndexPlan&&) noexcept;

  const ShapeWithLayout& shape() const;
  int64_t rank() const;
  int64_t element_count() const;         // product of logical dims
  int64_t padded_element_count() const;  // D5
  int64_t byte_size() const;             // D6
  int64_t dense_byte_size() const;       // element_count * ceil(bits/8)
  const std::vector<int64_t>& tiled_shape() const;

  // Precondition: element.size() == rank() and every coordinate in bounds
  // (unchecked: this is the hot path).
  int64_t linear_index(std::span<const int64_t> element) const;
  // Checked: throws Error naming the bad coordinate.
  int64_t linear_index_checked(std::span<const int64_t> element) const;
  // `elements` holds count*rank coordinates, row after row; writes count indices.
  void linear_index_batch(std::span<const int64_t> elements, std::span<int64_t> out) const;
  // The same, every coordinate checked first: throws Error naming the first
  // element out of bounds (its place in the batch and the coordinate), and
  // writes nothing then.
  void linear_index_batch_checked(std::span<const int64_t> elements, std::span<int64_t> out) const;
  // For each of count positions, the element stored there into `elements`
  // (count*rank coordinates, row after row), or a row of -1 for padding.
  // Throws Error naming the first position outside [0, padded_element_count()).
  void delinearize_batch(std::span<const int64_t> positions, std::span<int64_t> elements) const;
  // Writes the element stored at `position` into `element` (size rank) and
  // returns true, or returns false for padding. Throws Error unless
  // 0 <= position < padded_element_count().
  bool delinearize(int64_t position, std::span<int64_t> element) const;

  // Visits every element in physical order (increasing position), skipping
  // padding: visit(position, element). The element span is valid during the
  // call only.
  void for_each_in_physical_order(
      const std::function<void(int64_t position, std::span<const int64_t> element)>& visit) const;

  // The index function linear_index runs (see IndexProgram).
  const IndexProgram& program() const;

 private:
  friend const detail::CompiledLayout& detail::compiled(const IndexPlan& plan);
  struct State;
  std::unique_ptr<State> state_;
};

struct ExecOptions {
  // 0: all cores, and arrays below parallel_bytes stay single-threaded;
  // n > 0: exactly min(n, outermost extent) threads. Results are identical
  // for every value.
  int threads = 0;
  // The size thresholds that pick a code path; the results are identical
  // for every value, only the speed differs. The defaults are the
  // production choice (impl_test pins them); the properties and the fuzzers
  // lower them so that every path runs on small arrays.
  //
  // Destinations of at least stream_bytes (and 64-byte aligned) are written
  // with non-temporal stores: they would only evict the source from the
  // caches (glibc's memcpy does the same for large copies).
  int64_t stream_bytes = int64_t{8} << 20;
  // With threads == 0, arrays below parallel_bytes (the larger of the dense
  // and physical sizes) stay on one thread: starting and joining a thread
  // costs about 20 us, and on a 2-core machine two threads lost on the 4 MB
  // f32[1000,1000] case while winning from 16 MiB on.
  int64_t parallel_bytes = int64_t{8} << 20;
};

// Dense array <-> physical buffer, with the spec's buffer contract:
// dense: logical dims row-major, ceil(bits/8) bytes per element,
// little-endian, value in the low bits (pack ignores the bits above it;
// unpack writes them zero, or sign-extended for a signed integer type:
// docs/PROTOCOL.md, "Dense buffers"); physical: byte_size() bytes,
// element at position p in bits [p*bits, p*bits+bits) (D6, D7), padding
// zero (D8). Wrong buffer sizes or overlapping buffers throw Error before
// anything is written.
//
// A plan may instead be built for a dense array given by strides (a numpy
// view, a DLPack tensor, one slice of a larger array): element e at byte
// sum over l of e[l]*dense_byte_strides[l] from the start of the dense span.
// Strides are non-negative multiples of the dense element size; the dense
// span runs from the first element to the end of the last
// (dense_span_bytes()). Pack reads only the elements; unpack writes only
// them (the bytes between them are left as they are) and refuses a view
// whose elements overlap (a stride 0, as numpy's broadcast gives).
class PackPlan {
 public:
  explicit PackPlan(const ShapeWithLayout& shape);
  // Throws Error for a stride count other than the rank, a negative stride,
  // or one that is not a multiple of the dense element size.
  PackPlan(const ShapeWithLayout& shape, std::span<const int64_t> dense_byte_strides);
  ~PackPlan();
  PackPlan(PackPlan&&) noexcept;
  PackPlan& operator=(PackPlan&&) noexcept;

  const IndexPlan& index() const;
  // Per logical dim, the bytes between neighbouring dense elements
  // (row-major unless given).
  const std::vector<int64_t>& dense_byte_strides() const;
  // The size the dense buffer must have: dense_byte_size() when row-major.
  int64_t dense_span_bytes() const;
  // True when the strides may put two elements in the same bytes (unpack
  // refuses such a view). Sufficient rule: by increasing stride, each dim's
  // stride passes the span of the dims below it.
  bool dense_may_overlap() const;
  // True when the layout lowered to a loop nest of (extent, dense stride,
  // physical stride) digits; false when pack/unpack fall back to one index
  // computation per element (combined dims whose dense strides do not nest,
  // or a ragged tile above combined dims).
  bool lowered() const;
  void pack(std::span<const uint8_t> dense, std::span<uint8_t> physical,
            ExecOptions options = {}) const;
  void unpack(std::span<const uint8_t> physical, std::span<uint8_t> dense,
              ExecOptions options = {}) const;

  // How pack (or unpack) with `options` splits the work between threads:
  // one share per thread, in order. A share runs the outermost loop's
  // iterations [begin, end), which cover the physical bits [first_bit,
  // end_bit) (pack writes them, unpack reads them); the caller's thread
  // writes the physical buffer's remaining padding afterwards. The schedule
  // keeps two invariants, which a property checks for every generated plan:
  //   - the shares cover exactly what one thread covers, each iteration once:
  //     shares[0].begin == 0, shares[i].end == shares[i+1].begin, and the
  //     last end is the single share's end;
  //   - no two shares write into the same byte: pack of sub-byte elements
  //     ORs bits into bytes (a read-modify-write), so every share of it
  //     starts on a byte boundary (first_bit % 8 == 0).
  // Empty for an empty array or a plan that is not lowered (one thread).
  struct ThreadShare {
    int64_t begin = 0, end = 0;
    int64_t first_bit = 0, end_bit = 0;
  };
  std::vector<ThreadShare> thread_shares(bool pack, ExecOptions options = {}) const;

  // The calls the walk's leaves make, in order, for pack (or unpack) with
  // `options` into a destination at address `dst_address` (only its
  // alignment matters), as one thread makes them, without moving a byte;
  // the first `max_calls` of them. The plan's speed choices write the same
  // bytes whichever way they go, so this is where they can be checked
  // (docs/COVERAGE.md, "Speed choices"). Empty for an empty array.
  struct LeafCall {
    enum class Kind {
      kRun,             // one run of elements (the innermost digit, or one element)
      kInterleave,      // a SIMD row interleave: (2,1), (4,1), (8,1), (32,1)
      kColumns,         // a block copied column after column
      kTranspose,       // a block of 1-, 2-, 4- or 8-byte elements, transposed in SIMD blocks
      kScalarBlock,     // a block of 1-, 2-, 4- or 8-byte elements, element by element
      kBitBlock,        // a block of sub-byte elements, element by element
      kPanel,           // a panel: tiles of row groups in one call
      kTransposePanel,  // a transposing panel of 32-bit elements
    };
    Kind kind = Kind::kRun;
    bool stream = false;  // asked for non-temporal stores
    // Element offsets of the call's first element, dense and physical.
    int64_t dense = 0, phys = 0;
    // The columns and rows the call moves, and their dense strides in
    // elements (a run: its elements are the columns, one row; a panel:
    // its valid dense columns, the rows of its tile).
    int64_t columns = 0, rows = 0;
    int64_t column_stride = 0, row_stride = 0;
    // Dense bytes of the element the call moves, in which the offsets,
    // counts and strides above are counted: the layout's element, or a
    // short run of them adjacent on both sides, folded into one wider
    // element (docs/PERFORMANCE.md, "Short runs folded into wider elements").
    int64_t element_bytes = 0;
  };
  std::vector<LeafCall> leaf_calls(bool pack, ExecOptions options, uintptr_t dst_address,
                                   size_t max_calls) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Chunked transfers: the rows [begin, end) of the layout's physical-major
// dimension (dim = minor_to_major's last entry) occupy one contiguous range
// of the physical buffer, when begin and end are multiples of the
// layout's slice granularity (end may also be the dim's size). Packing the
// slice's dense elements with PackPlan(slice.shape, slice.dense_byte_strides)
// into that range, slice after slice, writes exactly the whole pack's bytes;
// unpacking each range back fills the whole dense array. See
// docs/PERFORMANCE.md, "Strided arrays and slices".
struct RowSlice {
  ShapeWithLayout shape;  // the slice alone: dims[dim] = end - begin, the same layout
  int64_t dim = 0;
  int64_t physical_offset = 0;  // bytes into the whole physical buffer
  int64_t physical_bytes = 0;   // the slice's byte_size()
  // Where the slice's first element is in the whole dense array and the
  // whole array's strides (row-major over the whole shape). For a strided
  // whole array, use begin * its stride of dim and its own strides instead.
  int64_t dense_offset = 0;
  std::vector<int64_t> dense_byte_strides;
};
// The granularity in rows of `dim`; throws Error naming the reason when
// the layout cannot be sliced (tail padding, or a tile level below the
// first that splits the major tile count).
int64_t row_slice_granularity(const ShapeWithLayout& whole);
// Throws Error unless 0 <= begin < end <= dims[dim], begin a multiple of
// the granularity and end a multiple of it or dims[dim].
RowSlice row_slice(const ShapeWithLayout& whole, int64_t begin, int64_t end);

// Physical buffer of one layout -> physical buffer of another layout of the
// same logical shape and element width, both sides tiled. Padding of the
// destination is zero. When one layout is untiled row-major, or both share
// their first tile and one of them has no sub-tiles, one pass (by_tiles);
// else, when both
// slice along the same dim (RowSlice), band by band through a dense band
// that stays in the cache (banded); else, when both layouts are whole
// tiles without padding, block by block through the cache (by_blocks); each
// way each element crosses memory once, read from the source and written
// to the destination. Otherwise through a dense copy of the whole array.
class RelayoutPlan {
 public:
  // The dense bytes of a band (at least one slice granularity of rows), and
  // four times a block's (at least both layouts' tiles); the default stays
  // inside a core's share of the L2 cache. The results are the same for
  // every value: the properties use tiny bands and blocks.
  static constexpr int64_t kDefaultBandBytes = int64_t{256} << 10;
  // Throws Error unless `from` and `to` have the same dims and element width.
  RelayoutPlan(const ShapeWithLayout& from, const ShapeWithLayout& to, int64_t band_bytes = kDefaultBandBytes);
  ~RelayoutPlan();
  RelayoutPlan(RelayoutPlan&&) noexcept;
  RelayoutPlan& operator=(RelayoutPlan&&) noexcept;

  void run(std::span<const uint8_t> src, std::span<uint8_t> dst, ExecOptions options = {}) const;
  // How run works (impl/relayout.cc): by_tiles, one pack or unpack, when
  // one layout is untiled row-major (its buffer is the dense array) or both
  // share an evenly dividing first tile and one has no sub-tiles; else
  // banded, band by band; else by_blocks; else through a dense copy of the
  // whole array.
  bool by_tiles() const;
  bool banded() const;
  // Neither of those, but both layouts are whole tiles without padding:
  // block by block, each block of whole tiles of both layouts staged in the
  // cache (impl/relayout.cc, way 3).
  bool by_blocks() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tilecheck::impl
