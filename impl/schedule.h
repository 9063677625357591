// Planning of pack and unpack: how the loop nest of compiled_layout.h is
// executed, decided once per layout (make_schedule), and how one call's work
// is split between threads (split_work). pack_plan.cc executes the plan.
//
// The schedule reorders the digits for locality and picks the leaf: the depth
// at which one kernel call (kernels.h) takes over the innermost digits — a
// panel or transposing panel for three or four digits where the pattern
// allows, else a block of the two innermost digits, else a run of the
// innermost one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "impl/compiled_layout.h"
#include "impl/kernels.h"
#include <tilecheck/impl/plan.h>

namespace tilecheck::impl::detail {

// A constraint that digit j's iterations advance: its index in
// LoopNest::constraints and the digit's coefficient in it.
struct Touch {
  int constraint;
  int64_t coeff;
};

// The loop nest as executed: digits reordered for locality, and the depth
// at which the leaf takes over (the last digit alone, or the last two as a
// block when no constraint ties them).
struct Schedule {
  LoopNest nest;
  // The element the walk moves (pack_plan.cc, Mover), in bits and dense
  // bytes: the layout's own, or a run of them side by side where the
  // innermost digit runs contiguously on both sides and was folded into
  // the element (schedule.cc, fold_innermost).
  int64_t elem_bits = 0;
  int64_t elem_bytes = 0;
  size_t leaf = 0;
  bool block_leaf = false;
  // Sub-byte pack only: every leaf covers whole bytes and assigns them, so
  // the buffer need not be zeroed up front (pack_plan.cc, Mover).
  bool assign_bytes = false;
  // Transposing panel leaf (kernels.h) of 32-bit elements, column-major
  // tiles: the leaf digit is the tile digit above the block, so a call
  // covers whole dense rows (a column-major source is read 32 bytes per row
  // per tile otherwise) and writes whole physical lines.
  bool transpose = false;
  kernels::TransposePanel transpose_shape;
  // Panel leaf (kernels.h): the leaf digit is the tile digit T above the
  // digits G (row groups), C (columns) and, interleaved, R (rows of a
  // group); the kernel runs all of them in one call. Every constraint
  // touching T or C reads t*tile_cols + c (the dense column), none touches
  // G or R, so the valid columns are one count per call.
  bool panel = false;
  kernels::Panel panel_shape;
  // Per digit of `nest` (as reordered), the constraints it advances: made
  // with the plan, so that a call allocates nothing.
  std::vector<std::vector<Touch>> touches;
};

// `nest`: c.nest, or the nest of a strided view of the dense array
// (lower_loop_nest).
Schedule make_schedule(const CompiledLayout& c, const LoopNest& nest);

// How a lowered, non-empty walk with `lim` outermost iterations is split
// between threads (PackPlan::thread_shares states the invariants). Computed
// per call without allocating: the single-thread case is the hot one.
struct WorkSplit {
  int64_t lim = 0, bits_per_iteration = 0;
  int threads = 1;
  // Share t covers [lim*t/threads, lim*(t+1)/threads).
  PackPlan::ThreadShare share(int t) const;
};

// The threads for `units` independent pieces of work on `bytes` bytes:
// options.threads (at most units), or automatically one below
// options.parallel_bytes and the machine's cores above.
int threads_for(const ExecOptions& options, int64_t bytes, int64_t units);

// The split of a call whose outermost digit has `lim` valid iterations.
WorkSplit split_work(const CompiledLayout& c, const Schedule& schedule, bool pack, const ExecOptions& options,
                     int64_t lim);

}  // namespace tilecheck::impl::detail
