#include "impl/schedule.h"

#include <algorithm>
#include <thread>

namespace tilecheck::impl::detail {
namespace {

// Folding (docs/PERFORMANCE.md, "Short runs folded into wider elements"):
// where the innermost digit's elements are adjacent on both sides (dense and
// physical stride 1) and no padding constraint reads it, each of its runs is
// one element `extent` times as wide, and the nest without that digit is the
// nest of the wider element. bf16 column-major tiles of (2,1) sub-tiles then
// move 4-byte pairs through the 32-bit transposing panel, and f32 tiles of
// two columns 8-byte pairs through the SIMD transposes, instead of one short
// run per call. Only to 2, 4 or 8 bytes, the widths the kernels move (a speed
// choice), and only where every other dense stride is a whole number of wide
// elements (a strided view may start a row at any element). Every other
// physical stride is one without a check: the final shape is row-major, so
// each is a multiple of the innermost extent.
void fold_innermost(const CompiledLayout& c, Schedule& s) {
  auto& dg = s.nest.digits;
  if (dg.size() < 2) return;  // a guard: the walk needs a digit
  const Digit& last = dg.back();
  const int64_t e = last.extent, width = e * c.dense_element_bytes;
  if (c.bits != 8 * c.dense_element_bytes || last.src_stride != 1) return;
  if (width != 2 && width != 4 && width != 8) return;
  for (const auto& k : s.nest.constraints) {
    if (k.coeff.back() != 0) return;
  }
  for (size_t j = 0; j + 1 < dg.size(); ++j) {
    if (dg[j].src_stride % e != 0) return;
  }
  dg.pop_back();
  for (Digit& d : dg) d.src_stride /= e, d.dst_stride /= e;
  for (auto& k : s.nest.constraints) k.coeff.pop_back();
  s.elem_bits = c.bits * e;
  s.elem_bytes = width;
}

// Recognises the panel pattern on the innermost digits (see Schedule).
bool make_panel(Schedule& s) {
  const auto& dg = s.nest.digits;
  const size_t n = dg.size();
  const int64_t nb = s.elem_bytes;
  if (s.elem_bits % 8 != 0 || n < 2) return false;
  int64_t g = 1, rs = 0;
  size_t ci = n - 1;  // C
  const Digit& last = dg[n - 1];
  if (last.dst_stride == 1 && last.src_stride != 1 &&
      ((nb == 2 && last.extent == 2) || (nb == 1 && last.extent == 4))) {
    g = last.extent;
    rs = last.src_stride;
    ci = n - 2;
  }
  if (ci < 1) return false;
  const Digit& col = dg[ci];
  if (col.src_stride != 1 || col.dst_stride != g || g * col.extent * nb > kernels::kMaxPanelChunk) return false;
  // T directly above C (no G), or G between them.
  size_t ti = ci - 1;
  if (dg[ti].src_stride != col.extent) {
    if (ci < 2) return false;
    ti = ci - 2;
  }
  const Digit& tile = dg[ti];
  if (tile.src_stride != col.extent) return false;
  for (const auto& k : s.nest.constraints) {
    for (size_t j = ti + 1; j < n; ++j) {
      if (j != ci && k.coeff[j] != 0) return false;  // G or R constrained
    }
    if (k.coeff[ti] == 0 && k.coeff[ci] == 0) continue;
    if (k.coeff[ti] != col.extent || k.coeff[ci] != 1) return false;
  }
  kernels::Panel& p = s.panel_shape;
  p.elem_bytes = nb;
  p.group_rows = g;
  p.row_stride = rs * nb;
  if (ti + 2 == ci) {
    p.groups = dg[ti + 1].extent;
    p.group_dense_stride = dg[ti + 1].src_stride * nb;
    p.group_phys_stride = dg[ti + 1].dst_stride * nb;
  }
  p.tile_cols = col.extent;
  p.tile_phys_stride = tile.dst_stride * nb;
  if (ti >= 1) {
    p.next_dense = dg[ti - 1].src_stride * nb;
    p.next_phys = dg[ti - 1].dst_stride * nb;
  }
  s.panel = true;
  s.leaf = ti;
  s.block_leaf = false;
  return true;
}

// The threads a call may use: options.threads, or the hardware's when 0.
int thread_count(const ExecOptions& options) {
  if (options.threads > 0) return options.threads;
  // Asked once: glibc answers hardware_concurrency() by reading sysfs, an
  // open, read and close that cost several microseconds, far more than
  // packing a small array.
  static const int cores = [] {
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : static_cast<int>(hw);
  }();
  return cores;
}

}  // namespace

namespace {

// The schedule without its touches (make_schedule adds them).
Schedule make_digit_schedule(const CompiledLayout& c, const LoopNest& nest) {
  Schedule s;
  s.nest = nest;
  s.elem_bits = c.bits;
  s.elem_bytes = c.dense_element_bytes;
  if (!s.nest.lowered) return s;
  fold_innermost(c, s);
  auto& digits = s.nest.digits;
  const size_t n = digits.size();
  s.block_leaf = n >= 2;
  for (const auto& k : s.nest.constraints) {
    if (n >= 2 && k.coeff[n - 2] != 0 && k.coeff[n - 1] != 0) s.block_leaf = false;
  }
  s.leaf = s.block_leaf ? n - 2 : n - 1;
  // Locality: when a leaf reads less than a cache line of each dense row it
  // touches (a transposing leaf), visit the outer digits by decreasing dense
  // stride, so that consecutive leaves read the rest of those lines while
  // they are cached. Only without padding constraints: the walk zeroes
  // padding as contiguous subtrees, which needs the physical order.
  int64_t run = 1;  // dense elements the leaf reads contiguously
  for (size_t j = s.leaf; j < n; ++j) {
    if (digits[j].src_stride == 1) run = digits[j].extent;
  }
  if (s.nest.constraints.empty() && run * s.elem_bytes < 64) {
    std::stable_sort(digits.begin(), digits.begin() + s.leaf,
                     [](const Digit& a, const Digit& b) { return a.src_stride > b.src_stride; });
  }
  if (make_panel(s)) return s;
  if (s.block_leaf && s.nest.constraints.empty() && s.elem_bits == 32 && s.leaf >= 1) {
    const Digit& above = digits[s.leaf - 1];
    const Digit& a = digits[s.leaf];
    const Digit& b = digits[s.leaf + 1];
    // Only under a tile digit: without one (an untiled transposed matrix,
    // a channel dim blocked alone) the block leaf's element transposes
    // (kernels.h, transpose_elements) run faster on every target
    // (f32_transpose, f32_nchw16c: docs/PERFORMANCE.md, "Machine E").
    if (a.src_stride == 1 && b.src_stride != 1 && b.dst_stride == 1 && above.src_stride == a.extent) {
      s.transpose = true;
      s.block_leaf = false;
      s.transpose_shape = {b.extent, b.src_stride * 4, a.extent, a.dst_stride * 4, above.dst_stride * 4};
      s.leaf -= 1;
      return s;
    }
  }
  if (c.bits % 8 != 0 && s.block_leaf) {
    bool aligned = (digits[n - 1].extent * c.bits) % 8 == 0;
    for (size_t j = 0; j < s.leaf; ++j) aligned = aligned && (digits[j].dst_stride * c.bits) % 8 == 0;
    s.assign_bytes = aligned;
  }
  return s;
}

}  // namespace

Schedule make_schedule(const CompiledLayout& c, const LoopNest& nest) {
  Schedule s = make_digit_schedule(c, nest);
  s.touches.resize(s.nest.digits.size());
  for (size_t k = 0; k < s.nest.constraints.size(); ++k) {
    for (size_t j = 0; j < s.nest.digits.size(); ++j) {
      if (s.nest.constraints[k].coeff[j] != 0) {
        s.touches[j].push_back({static_cast<int>(k), s.nest.constraints[k].coeff[j]});
      }
    }
  }
  return s;
}

int threads_for(const ExecOptions& options, int64_t bytes, int64_t units) {
  // Automatic thread count: arrays below parallel_bytes stay on one thread.
  if (options.threads == 0 && bytes < options.parallel_bytes) return 1;
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(thread_count(options), units)));
}

WorkSplit split_work(const CompiledLayout& c, const Schedule& schedule, bool pack, const ExecOptions& options,
                     int64_t lim) {
  const Digit& d0 = schedule.nest.digits[0];
  const bool bit_elements = c.bits % 8 != 0;
  int threads = threads_for(options, std::max(c.byte_size, c.dense_byte_size), lim);
  // Sub-byte pack: threads must not share a byte.
  if (pack && bit_elements && (d0.dst_stride * c.bits) % 8 != 0) threads = 1;
  return {lim, d0.dst_stride * schedule.elem_bits, std::max(threads, 1)};
}

PackPlan::ThreadShare WorkSplit::share(int t) const {
  PackPlan::ThreadShare s;
  s.begin = lim * t / threads;
  s.end = lim * (t + 1) / threads;
  s.first_bit = s.begin * bits_per_iteration;
  s.end_bit = s.end * bits_per_iteration;
  return s;
}

}  // namespace tilecheck::impl::detail
