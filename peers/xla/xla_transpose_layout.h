// XLA's PJRT TransposePlan (xla/pjrt/transpose.h) as an implementation of
// tiled layouts: the host-side code JAX uses to move arrays between dense
// buffers and tiled device layouts. A plan moves the elements of a row-major
// array A, optionally tiled, into the array B = A with its dims permuted,
// optionally tiled; a layout's physical buffer is such an array (its dims in
// physical order, most major first, D1), so pack, unpack and relayout are
// each one plan.
//
// What TransposePlan can express: elements of 1, 2, 4, 8 or 16 bytes (any
// type of that width, and E(n) of that width); one tile, on the most minor
// dims (TransposePlan::Tiling); a tile longer than the shape, as the shape
// extended with leading dims of size 1 (D3). Not: sub-byte widths, more
// than one tile, combined dims '*', L(n), split configs or sparse arrays.
// A plan takes a tiling on its input or on its output, not both: a relayout
// between two tiled layouts runs two plans, through the target's dims
// untiled.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::peers {

// A buffer in TransposePlan's terms: a row-major array of `dims`, tiled by
// `tiling` (on the most minor dims; empty when untiled).
struct XlaTransposeLayout {
  int64_t element_bytes = 0;
  std::vector<int64_t> dims;
  std::vector<int64_t> tiling;
  // For each of `dims`, the logical dim of the shape it holds, or -1 for a
  // leading dim of size 1 added for a tile longer than the shape (D3).
  std::vector<int64_t> logical;
};

// The physical buffer of `shape`'s layout in TransposePlan's terms, or why
// TransposePlan cannot express it (one sentence).
std::variant<XlaTransposeLayout, std::string> xla_transpose_layout(const ShapeWithLayout& shape);

// The dense array of `shape` (docs/PROTOCOL.md, "Dense buffers"): its
// logical dims row-major, untiled.
XlaTransposeLayout xla_transpose_dense(const ShapeWithLayout& shape);

// The byte size of `layout`'s buffer as TransposePlan states it: the output
// size (OutputNumElems) of the plan that packs the dense array into it.
int64_t xla_transpose_byte_size(const XlaTransposeLayout& dense, const XlaTransposeLayout& layout);

// The bytes a buffer of `layout` spans under TransposePlan's strides: every
// dim rounded up to its tile entry. The buffers the operations take and
// return have this size.
int64_t xla_transpose_buffer_bytes(const XlaTransposeLayout& layout);

// How a plan is told of an untiled input buffer: as byte strides
// (TransposePlan::Striding, what PJRT passes for a host buffer, and the
// default), or as an empty TransposePlan::Tiling (dense row-major). The two
// take different paths through plan creation.
enum class UntiledInput { kStriding, kTiling };
void set_xla_transpose_untiled_input(UntiledInput how);

// Moves the elements of `in`, a buffer of `from`, into `out`, a buffer of
// `to` (the same logical dims and element size), with TransposePlan; the
// padding of `out` is zero. One plan, or two when both are tiled. Throws
// std::runtime_error when TransposePlan refuses the plan; the sizes of `in`
// and `out` are the caller's to check (xla_transpose_buffer_bytes).
void xla_transpose(const XlaTransposeLayout& from, const XlaTransposeLayout& to, std::span<const uint8_t> in,
                   std::span<uint8_t> out);

// One plan made once and run many times, as PJRT keeps its plans in a
// cache: for measuring TransposePlan's speed (tilecheck_bench). Throws
// std::runtime_error when TransposePlan refuses the plan (both layouts
// tiled among them). Unlike xla_transpose it does not clear the output's
// padding, which a caller that reuses one output buffer clears once.
class XlaTransposeRun {
 public:
  XlaTransposeRun(const XlaTransposeLayout& from, const XlaTransposeLayout& to);
  ~XlaTransposeRun();
  XlaTransposeRun(const XlaTransposeRun&) = delete;
  XlaTransposeRun& operator=(const XlaTransposeRun&) = delete;
  void operator()(std::span<const uint8_t> in, std::span<uint8_t> out) const;

 private:
  struct Plan;
  std::unique_ptr<Plan> plan_;
};

}  // namespace tilecheck::peers
