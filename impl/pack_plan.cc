// PackPlan: execution of the loop nest of compiled_layout.h.
//
// The walk visits the digits of the final shape in physical order, so the
// physical side is written (pack) or read (unpack) front to back. At each
// depth the valid range of the digit is [0, limit) with
//   limit = min(extent, min over constraints k touching it of
//               ceil((bound_k - acc_k) / coeff_k)),
// acc_k being the constraint's sum over the enclosing digits; positions past
// the limit form one contiguous physical run of padding (the subtree of a
// row-major digit), zeroed in one go by pack and skipped by unpack. The
// walk stops at the leaf depth chosen once per plan (schedule.h,
// make_schedule), where one kernel call (kernels.h) takes over; threads take
// the shares of the outermost digit that split_work gives them.
#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "impl/compiled_layout.h"
#include "impl/kernels.h"
#include "impl/schedule.h"
#include <tilecheck/impl/plan.h>

namespace tilecheck::impl {

namespace {

using detail::CompiledLayout;
using detail::Digit;
using detail::LoopNest;
using detail::Schedule;
using detail::WorkSplit;
using detail::Touch;
using detail::check_buffer_size;
using detail::check_disjoint;
using Kind = PackPlan::LeafCall::Kind;
using LeafCall = PackPlan::LeafCall;

// Physical positions are counted in elements; this is where the bits live.
struct BitCursor {
  static void or_bits(uint8_t* buf, int64_t bit, int64_t bits, const uint8_t* value) {
    for (int64_t i = 0; i < bits; ++i) {
      if ((value[i >> 3] >> (i & 7)) & 1) buf[(bit + i) >> 3] |= static_cast<uint8_t>(1u << ((bit + i) & 7));
    }
  }
  // `sign`: the bits above `bits` copies of the top one (signed types).
  static void read_bits(const uint8_t* buf, int64_t bit, int64_t bits, uint8_t* value, int64_t nb,
                        bool sign) {
    const bool negative = sign && ((buf[(bit + bits - 1) >> 3] >> ((bit + bits - 1) & 7)) & 1);
    std::memset(value, negative ? 0xFF : 0, nb);
    for (int64_t i = 0; i < bits; ++i) {
      const uint8_t one = static_cast<uint8_t>(1u << (i & 7));
      if ((buf[(bit + i) >> 3] >> ((bit + i) & 7)) & 1) {
        value[i >> 3] |= one;
      } else {
        value[i >> 3] &= static_cast<uint8_t>(~one);
      }
    }
  }
};

// Moves elements between the dense array and the physical buffer.
// `dense` and `phys` offsets are in elements.
struct Mover {
  const uint8_t* src;  // dense for pack, physical for unpack
  uint8_t* dst;        // physical for pack, dense for unpack
  int64_t nb;          // dense bytes per element
  int64_t bits;
  bool pack;
  // Unpack of a signed type: sign-extend each value to its dense bytes.
  bool sign = false;
  // Sub-byte pack only: the buffer was not zeroed up front, every leaf
  // covers whole bytes and assigns them.
  bool assign_bytes = false;
  // Non-temporal stores in the SIMD interleave kernels (destinations far
  // larger than the caches; streams() decides). Plain block copies
  // measured faster without.
  bool stream = false;
  // PackPlan::leaf_calls: each leaf call is recorded, not made.
  std::vector<LeafCall>* trace = nullptr;
  size_t trace_max = 0;

  bool byte_elements() const { return bits % 8 == 0; }

  // Tracing: records the call and tells the caller not to make it.
  bool traced(Kind kind, int64_t dense, int64_t phys, int64_t columns, int64_t rows, int64_t column_stride,
              int64_t row_stride) const {
    if (trace == nullptr) return false;
    if (trace->size() < trace_max) {
      trace->push_back({kind, stream, dense, phys, columns, rows, column_stride, row_stride, nb});
    }
    return true;
  }

  void element_bits(int64_t dense, int64_t phys) const {
    const int64_t bit = phys * bits;
    if (pack) {
      uint8_t value[16] = {};
      std::memcpy(value, src + dense * nb, nb);
      if (bits % 8) value[bits / 8] &= static_cast<uint8_t>((1u << (bits % 8)) - 1);
      BitCursor::or_bits(dst, bit, bits, value);  // neighbours share bytes: OR into zeros
    } else {
      BitCursor::read_bits(src, bit, bits, dst + dense * nb, nb, sign);
    }
  }

  // 1-, 2- or 4-bit elements: runs of them move in whole physical bytes.
  bool sub_byte() const { return bits == 1 || bits == 2 || bits == 4; }

  // `count` runs of `bytes` whole physical bytes (kernels.h,
  // pack_sub_byte_runs): run i at dense element dense + i*dense_stride and
  // physical byte phys_byte + i*phys_stride.
  void sub_byte_runs(int64_t dense, int64_t dense_stride, int64_t phys_byte, int64_t phys_stride, int64_t count,
                     int64_t bytes) const {
    if (pack) {
      kernels::pack_sub_byte_runs(static_cast<int>(bits), src + dense, dense_stride, dst + phys_byte, phys_stride,
                                  count, bytes);
    } else {
      kernels::unpack_sub_byte_runs(static_cast<int>(bits), src + phys_byte, phys_stride, dst + dense, dense_stride,
                                    count, bytes, sign);
    }
  }

  // A contiguous run of 1-, 2- or 4-bit elements: whole physical bytes are
  // assigned (pack) or read (unpack) by the kernel, the elements of a byte
  // shared with a neighbour one by one (pack ORs them into the zeroed byte,
  // as element_bits does).
  void sub_byte_run(int64_t dense, int64_t phys, int64_t n) const {
    const int64_t per = 8 / bits;
    const int64_t head = std::min(n, (per - phys % per) % per);
    for (int64_t i = 0; i < head; ++i) element_bits(dense + i, phys + i);
    const int64_t bytes = (n - head) / per;
    if (bytes > 0) sub_byte_runs(dense + head, 0, (phys + head) / per, 0, 1, bytes);
    for (int64_t i = head + bytes * per; i < n; ++i) element_bits(dense + i, phys + i);
  }

  // `n` elements: dense at dense + i*dense_stride, physical at phys + i.
  void row(int64_t dense, int64_t dense_stride, int64_t phys, int64_t n) const {
    if (!byte_elements()) {
      if (dense_stride == 1 && sub_byte()) return sub_byte_run(dense, phys, n);
      for (int64_t i = 0; i < n; ++i) element_bits(dense + i * dense_stride, phys + i);
      return;
    }
    if (pack) {
      uint8_t* out = dst + phys * nb;
      const uint8_t* in = src + dense * nb;
      if (dense_stride == 1) {
        std::memcpy(out, in, n * nb);
      } else {
        for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * nb, in + i * dense_stride * nb, nb);
      }
    } else {
      const uint8_t* in = src + phys * nb;
      uint8_t* out = dst + dense * nb;
      if (dense_stride == 1) {
        std::memcpy(out, in, n * nb);
      } else {
        for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * dense_stride * nb, in + i * nb, nb);
      }
    }
  }

  // Transposed block of 1-, 2-, 4- or 8-byte elements whose dense columns
  // are adjacent: dense rows r (stride sb) become the n physical columns
  // (stride width).
  void transpose(int64_t dense, int64_t sb, int64_t phys, int64_t width, int64_t n, int64_t rows) const {
    if (pack) {
      kernels::transpose_elements(nb, src + dense * nb, sb * nb, dst + phys * nb, width * nb, rows, n, stream);
    } else {
      kernels::transpose_elements(nb, src + phys * nb, width * nb, dst + dense * nb, sb * nb, n, rows, stream);
    }
  }

  // A transposing panel (kernels.h) of `cols` columns at these offsets.
  void transpose_panel(const kernels::TransposePanel& shape, int64_t dense, int64_t phys, int64_t cols) const {
    if (traced(Kind::kTransposePanel, dense, phys, cols, shape.rows, 1, shape.row_stride / 4)) return;
    pack ? kernels::transpose_panel_pack(shape, src + dense * 4, dst + phys * 4, cols, stream)
         : kernels::transpose_panel_unpack(shape, src + phys * 4, dst + dense * 4, cols, stream);
  }

  // Pack: zero rows [rows, width) of each of the n columns.
  void padding_columns(int64_t phys, int64_t width, int64_t n, int64_t rows) const {
    if (rows == width) return;
    for (int64_t c = 0; c < n; ++c) padding(phys + c * width + rows, width - rows);
  }

  template <class T>
  void block_scalar(int64_t dense, int64_t sa, int64_t sb, int64_t phys, int64_t width, int64_t n,
                    int64_t rows) const {
    if (pack) {
      const T* in = reinterpret_cast<const T*>(src) + dense;
      T* out = reinterpret_cast<T*>(dst) + phys;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < n; ++c) std::memcpy(out + c * width + r, in + r * sb + c * sa, sizeof(T));
      }
      padding_columns(phys, width, n, rows);
    } else {
      const T* in = reinterpret_cast<const T*>(src) + phys;
      T* out = reinterpret_cast<T*>(dst) + dense;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < n; ++c) std::memcpy(out + r * sb + c * sa, in + c * width + r, sizeof(T));
      }
    }
  }

  // The innermost two digits: n columns (dense stride sa, physical stride
  // width) of `rows` valid rows (dense stride sb, physical stride 1) out of
  // `width`. Physical range [phys, phys + n*width) is the block's own.
  // How block() moves a block: which kernels can take it, and (a speed
  // choice) the column-at-a-time copy only where each column is one run of
  // dense memory, or for elements no other loop moves.
  Kind block_kind(int64_t sa, int64_t sb, int64_t phys, int64_t width, int64_t rows) const {
    if (sa == 1 && rows == width && interleave(phys, width) != Interleave::kNone) return Kind::kInterleave;
    if (byte_elements() && (sb == 1 || (nb != 1 && nb != 2 && nb != 4 && nb != 8))) return Kind::kColumns;
    // Past the line above only elements of 1, 2, 4 or 8 bytes remain.
    if (byte_elements() && sa == 1) return Kind::kTranspose;
    if (byte_elements()) return Kind::kScalarBlock;
    return Kind::kBitBlock;
  }

  void block(int64_t dense, int64_t sa, int64_t sb, int64_t phys, int64_t width, int64_t n,
             int64_t rows) const {
    const Kind kind = block_kind(sa, sb, phys, width, rows);
    if (traced(kind, dense, phys, n, rows, sa, sb)) return;
    switch (kind) {
      case Kind::kInterleave:
        return interleave_rows(interleave(phys, width), dense, sb, phys, n);
      case Kind::kColumns:
        // Rows contiguous on both sides: one block copy per column.
        for (int64_t c = 0; c < n; ++c) {
          row(dense + c * sa, sb, phys + c * width, rows);
          padding(phys + c * width + rows, width - rows);
        }
        return;
      case Kind::kTranspose:
        transpose(dense, sb, phys, width, n, rows);
        padding_columns(phys, width, n, rows);
        return;
      case Kind::kScalarBlock:
        switch (nb) {
          case 1: return block_scalar<uint8_t>(dense, sa, sb, phys, width, n, rows);
          case 2: return block_scalar<uint16_t>(dense, sa, sb, phys, width, n, rows);
          case 4: return block_scalar<uint32_t>(dense, sa, sb, phys, width, n, rows);
          default: return block_scalar<uint64_t>(dense, sa, sb, phys, width, n, rows);
        }
      default:  // kBitBlock
        break;
    }
    if (sb == 1 && rows == width && sub_byte() && phys % (8 / bits) == 0 && width % (8 / bits) == 0) {
      // Every column a run of whole bytes, assigning the block's bytes.
      return sub_byte_runs(dense, sa, phys * bits / 8, width * bits / 8, n, width * bits / 8);
    }
    if (pack && assign_bytes) std::memset(dst + phys * bits / 8, 0, n * width * bits / 8);
    for (int64_t c = 0; c < n; ++c) {
      if (sb == 1) {
        row(dense + c * sa, 1, phys + c * width, rows);
        continue;
      }
      for (int64_t r = 0; r < rows; ++r) element_bits(dense + c * sa + r * sb, phys + c * width + r);
    }
  }

  // A leaf of the innermost digit alone: one run (traced here, not in row(),
  // which the column copies and the sub-byte blocks call per column).
  void run(int64_t dense, int64_t dense_stride, int64_t phys, int64_t n) const {
    if (!traced(Kind::kRun, dense, phys, n, 1, dense_stride, 0)) row(dense, dense_stride, phys, n);
  }

  // SIMD row interleaves: (2,1) of 16-bit, (4,1) of 8-bit, (8,1) of 4-bit,
  // (32,1) of 1-bit elements.
  enum class Interleave { kNone, kRows2, kRows4, kRows8, kRows32 };
  Interleave interleave(int64_t phys, int64_t width) const {
    if (bits == 16 && width == 2) {
      return Interleave::kRows2;
    }
    if (bits == 8 && width == 4) {
      return Interleave::kRows4;
    }
    if (bits == 4 && width == 8 && phys % 2 == 0) {
      return Interleave::kRows8;
    }
    if (bits == 1 && width == 32 && phys % 8 == 0) {
      return Interleave::kRows32;
    }
    return Interleave::kNone;
  }

  void interleave_rows(Interleave k, int64_t dense, int64_t sb, int64_t phys, int64_t n) const {
    using namespace kernels;
    switch (k) {
      case Interleave::kRows2:
        return pack ? pack_rows2_u16(src + dense * 2, sb * 2, dst + phys * 2, n, stream)
                    : unpack_rows2_u16(src + phys * 2, dst + dense * 2, sb * 2, n);
      case Interleave::kRows4:
        return pack ? pack_rows4_u8(src + dense, sb, dst + phys, n, stream)
                    : unpack_rows4_u8(src + phys, dst + dense, sb, n);
      case Interleave::kRows8:
        return pack ? pack_rows8_u4(src + dense, sb, dst + phys / 2, n, stream)
                    : unpack_rows8_u4(src + phys / 2, dst + dense, sb, n, stream, sign);
      case Interleave::kRows32:
        return pack ? pack_rows32_u1(src + dense, sb, dst + phys / 8, n, stream)
                    : unpack_rows32_u1(src + phys / 8, dst + dense, sb, n, stream, sign);
      case Interleave::kNone:
        return;
    }
  }

  // A panel (kernels.h) of `cols` valid columns at these element offsets.
  void panel(const kernels::Panel& shape, int64_t dense, int64_t phys, int64_t cols) const {
    if (traced(Kind::kPanel, dense, phys, cols, shape.group_rows * std::max<int64_t>(shape.groups, 1), 1,
               shape.row_stride / nb)) {
      return;
    }
    pack ? kernels::pack_panel(shape, src + dense * nb, dst + phys * nb, cols, stream)
         : kernels::unpack_panel(shape, src + phys * nb, dst + dense * nb, cols, stream);
  }

  // Physical padding [phys, phys+n): pack writes zeros unless the buffer was
  // zeroed up front; unpack ignores it.
  void padding(int64_t phys, int64_t n) const {
    if (!pack || n <= 0 || trace != nullptr) return;
    if (byte_elements()) {
      std::memset(dst + phys * nb, 0, n * nb);
    } else if (assign_bytes) {
      std::memset(dst + phys * bits / 8, 0, n * bits / 8);
    }
  }
};

struct Walker {
  const Schedule& schedule;
  const LoopNest& nest;
  const std::vector<std::vector<Touch>>& touches;  // per depth

  explicit Walker(const Schedule& s) : schedule(s), nest(s.nest), touches(s.touches) {}

  int64_t limit(size_t depth, const int64_t* acc) const {
    int64_t lim = nest.digits[depth].extent;
    for (const Touch& t : touches[depth]) {
      const int64_t room = nest.constraints[t.constraint].bound - acc[t.constraint];
      // ceil(room / coeff); the innermost digit of a constraint has coeff 1.
      lim = std::min(lim, t.coeff == 1 ? room : room / t.coeff + (room % t.coeff != 0 ? 1 : 0));
    }
    return lim;
  }

  // Visits digit `depth` over [begin, end) (end <= limit); the caller zeroes
  // [limit, extent).
  void walk(const Mover& m, size_t depth, int64_t begin, int64_t end, int64_t dense, int64_t phys,
            int64_t* acc) const {
    const Digit& d = nest.digits[depth];
    if (depth == schedule.leaf && schedule.transpose) {
      // No constraints (make_schedule): every tile is whole.
      const kernels::TransposePanel& shape = schedule.transpose_shape;
      const int64_t cols = (end - begin) * shape.col_group;
      m.transpose_panel(shape, dense + begin * d.src_stride, phys + begin * d.dst_stride, cols);
      return;
    }
    if (depth == schedule.leaf && schedule.panel) {
      // Every constraint here reads t*tile_cols + c (make_panel).
      const int64_t tc = schedule.panel_shape.tile_cols;
      int64_t cols = (end - begin) * tc;
      for (const Touch& t : touches[depth]) {
        cols = std::min(cols, nest.constraints[t.constraint].bound - acc[t.constraint] - begin * tc);
      }
      m.panel(schedule.panel_shape, dense + begin * d.src_stride, phys + begin * d.dst_stride, cols);
      return;
    }
    if (depth == schedule.leaf) {
      // Non-temporal stores only for whole tiles: a ragged tile's padding is
      // written with ordinary stores, and mixing the two on one cache line
      // is slow.
      Mover leaf = m;
      leaf.stream = m.stream && limit(depth, acc) == d.extent;
      if (schedule.block_leaf) {
        const Digit& b = nest.digits[depth + 1];
        const int64_t rows = limit(depth + 1, acc);  // no constraint ties b to d
        leaf.stream = leaf.stream && rows == b.extent;
        leaf.block(dense + begin * d.src_stride, d.src_stride, b.src_stride, phys + begin * d.dst_stride,
                b.extent, end - begin, rows);
      } else {
        leaf.run(dense + begin * d.src_stride, d.src_stride, phys + begin, end - begin);
      }
      return;
    }
    for (const Touch& t : touches[depth]) acc[t.constraint] += begin * t.coeff;
    for (int64_t f = begin; f < end; ++f) {
      const int64_t inner_dense = dense + f * d.src_stride;
      const int64_t inner_phys = phys + f * d.dst_stride;
      const int64_t lim = limit(depth + 1, acc);
      walk(m, depth + 1, 0, lim, inner_dense, inner_phys, acc);
      const Digit& next = nest.digits[depth + 1];
      m.padding(inner_phys + lim * next.dst_stride, (next.extent - lim) * next.dst_stride);
      for (const Touch& t : touches[depth]) acc[t.constraint] += t.coeff;
    }
    for (const Touch& t : touches[depth]) acc[t.constraint] -= end * t.coeff;
  }
};

}  // namespace

struct PackPlan::State {
  IndexPlan index;
  std::vector<int64_t> strides;  // dense elements per logical dim
  std::vector<int64_t> byte_strides;
  int64_t span_bytes = 0;
  // Two elements may share dense bytes (so unpack would be ill-defined).
  bool may_overlap = false;
  Schedule schedule;

  explicit State(const ShapeWithLayout& shape) : index(shape) {
    const CompiledLayout& c = detail::compiled(index);
    span_bytes = index.dense_byte_size();  // an Error when the dense buffer cannot exist
    strides = c.dense_strides;
    for (int64_t s : strides) byte_strides.push_back(s * c.dense_element_bytes);
    schedule = make_schedule(c, c.nest);
  }

  State(const ShapeWithLayout& shape, std::span<const int64_t> dense_byte_strides) : index(shape) {
    const CompiledLayout& c = detail::compiled(index);
    if (static_cast<int64_t>(dense_byte_strides.size()) != c.rank) {
      throw Error("dense strides: " + std::to_string(dense_byte_strides.size()) + " given for a shape of rank " +
                  std::to_string(c.rank));
    }
    const int64_t nb = c.dense_element_bytes;
    byte_strides.assign(dense_byte_strides.begin(), dense_byte_strides.end());
    int64_t last = 0;  // element offset of the last element
    for (int64_t l = 0; l < c.rank; ++l) {
      const int64_t s = byte_strides[l];
      if (s < 0 || s % nb != 0) {
        throw Error("dense stride of dim " + std::to_string(l) + " is " + std::to_string(s) +
                    " bytes; strides must be non-negative multiples of the element's " + std::to_string(nb) +
                    " bytes");
      }
      strides.push_back(s / nb);
      if (c.element_count != 0) {
        last = detail::checked_add(last, detail::checked_mul(c.shape.dims[l] - 1, s / nb, "dense span"),
                                   "dense span");
      }
    }
    span_bytes = c.element_count == 0 ? 0 : detail::checked_mul(last + 1, nb, "dense span");
    // Sufficient for distinct elements: by increasing stride, each stride
    // passes the span of the dims below it.
    std::vector<std::pair<int64_t, int64_t>> order;  // (stride, extent)
    for (int64_t l = 0; l < c.rank; ++l) {
      if (c.shape.dims[l] > 1) order.emplace_back(strides[l], c.shape.dims[l]);
    }
    std::sort(order.begin(), order.end());
    int64_t reach = 1;  // elements spanned by the dims so far
    for (const auto& [stride, extent] : order) {
      if (stride < reach) may_overlap = true;
      reach = stride * (extent - 1) + reach;  // <= last + 1: fits
    }
    schedule = make_schedule(c, detail::lower_loop_nest(c, strides));
  }
};

PackPlan::PackPlan(const ShapeWithLayout& shape) : state_(std::make_unique<State>(shape)) {}
PackPlan::PackPlan(const ShapeWithLayout& shape, std::span<const int64_t> dense_byte_strides)
    : state_(std::make_unique<State>(shape, dense_byte_strides)) {}
PackPlan::~PackPlan() = default;
PackPlan::PackPlan(PackPlan&&) noexcept = default;
PackPlan& PackPlan::operator=(PackPlan&&) noexcept = default;
const IndexPlan& PackPlan::index() const { return state_->index; }
const std::vector<int64_t>& PackPlan::dense_byte_strides() const { return state_->byte_strides; }
int64_t PackPlan::dense_span_bytes() const { return state_->span_bytes; }
bool PackPlan::dense_may_overlap() const { return state_->may_overlap; }

namespace {

// Mover::stream, a speed choice: non-temporal stores into a destination of
// at least stream_bytes (ExecOptions). Streaming needs cache-line-aligned
// tiles (a line shared between a streamed tile and an ordinary store is
// slow) and, measured, pays only when no tile is ragged (ragged tiles
// interleave ordinary stores) or when panels write the ragged tiles
// (staged, in whole vectors).
bool streams(const CompiledLayout& c, const Schedule& schedule, bool pack, uintptr_t dst,
             const ExecOptions& options) {
  return schedule.nest.lowered && (pack ? c.byte_size : c.dense_byte_size) >= options.stream_bytes && dst % 64 == 0 &&
         (schedule.nest.constraints.empty() || schedule.panel);
}

// Runs the lowered walk (or the per-element fallback) in one direction;
// with `trace`, records the leaf calls instead (PackPlan::leaf_calls), on
// one thread, and `dst` is only an address.
void execute(const IndexPlan& index, const Schedule& schedule, const std::vector<int64_t>& strides, bool pack,
             const uint8_t* src, uint8_t* dst, const ExecOptions& options, std::vector<LeafCall>* trace = nullptr,
             size_t trace_max = 0) {
  const CompiledLayout& c = detail::compiled(index);
  Mover m{src, dst, schedule.elem_bytes, schedule.elem_bits, pack};
  m.assign_bytes = schedule.assign_bytes;
  m.sign = !pack && is_signed_integral(c.shape.type) && c.bits % 8 != 0;
  m.stream = streams(c, schedule, pack, reinterpret_cast<uintptr_t>(dst), options);
  m.trace = trace;
  m.trace_max = trace_max;
  const bool bit_elements = c.bits % 8 != 0;
  if (pack && trace == nullptr) {
    // Zero up front: everything (per-element fallback, sub-byte OR-ing), or
    // only the tail past the final shape's bits (L(n), last partial byte).
    const bool all = !schedule.nest.lowered || (bit_elements && !schedule.assign_bytes);
    const int64_t keep = all ? 0 : c.final_count * c.bits / 8;
    if (c.byte_size > keep) std::memset(dst + keep, 0, c.byte_size - keep);
  }
  if (c.element_count == 0) return;
  if (!schedule.nest.lowered) {
    // One index computation per element, dense order.
    std::vector<int64_t> e(c.rank, 0);
    int64_t offset = 0;  // dense elements
    for (int64_t i = 0; i < c.element_count; ++i) {
      m.run(offset, 1, index.linear_index(e), 1);
      for (int64_t l = c.rank - 1; l >= 0; --l) {
        offset += strides[l];
        if (++e[l] < c.shape.dims[l]) break;
        offset -= e[l] * strides[l];
        e[l] = 0;
      }
    }
    return;
  }
  const Walker w(schedule);
  std::vector<int64_t> acc0(schedule.nest.constraints.size(), 0);
  const int64_t lim = w.limit(0, acc0.data());
  const Digit& d0 = schedule.nest.digits[0];
  if (trace != nullptr) {
    w.walk(m, 0, 0, lim, 0, 0, acc0.data());
    return;
  }
  const WorkSplit split = split_work(c, schedule, pack, options, lim);
  auto share = [&](int t, int64_t* acc) {
    const PackPlan::ThreadShare s = split.share(t);
    w.walk(m, 0, s.begin, s.end, 0, 0, acc);
    if (m.stream) kernels::flush_streams();
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < split.threads; ++t) {
    pool.emplace_back([&, t] {
      std::vector<int64_t> acc(schedule.nest.constraints.size(), 0);
      share(t, acc.data());
    });
  }
  share(0, acc0.data());  // the caller runs share 0
  for (auto& th : pool) th.join();
  m.padding(lim * d0.dst_stride, (d0.extent - lim) * d0.dst_stride);
}

}  // namespace

std::vector<PackPlan::ThreadShare> PackPlan::thread_shares(bool pack, ExecOptions options) const {
  const CompiledLayout& c = detail::compiled(index());
  if (!state_->schedule.nest.lowered || c.element_count == 0) return {};
  const Walker w(state_->schedule);
  std::vector<int64_t> acc0(state_->schedule.nest.constraints.size(), 0);
  const WorkSplit split = split_work(c, state_->schedule, pack, options, w.limit(0, acc0.data()));
  std::vector<ThreadShare> shares;
  for (int t = 0; t < split.threads; ++t) shares.push_back(split.share(t));
  return shares;
}

bool PackPlan::lowered() const { return state_->schedule.nest.lowered; }

std::vector<PackPlan::LeafCall> PackPlan::leaf_calls(bool pack, ExecOptions options, uintptr_t dst_address,
                                                     size_t max_calls) const {
  std::vector<LeafCall> calls;
  // Never dereferenced: every leaf call is recorded instead of made.
  uint8_t* dst = reinterpret_cast<uint8_t*>(dst_address);  // NOLINT(performance-no-int-to-ptr)
  execute(index(), state_->schedule, state_->strides, pack, nullptr, dst, options, &calls, max_calls);
  return calls;
}

void PackPlan::pack(std::span<const uint8_t> dense, std::span<uint8_t> physical,
                    ExecOptions options) const {
  check_buffer_size("dense", dense.size(), state_->span_bytes);
  check_buffer_size("physical", physical.size(), index().byte_size());
  check_disjoint(dense, physical);
  execute(index(), state_->schedule, state_->strides, true, dense.data(), physical.data(), options);
}

void PackPlan::unpack(std::span<const uint8_t> physical, std::span<uint8_t> dense,
                      ExecOptions options) const {
  check_buffer_size("physical", physical.size(), index().byte_size());
  check_buffer_size("dense", dense.size(), state_->span_bytes);
  if (state_->may_overlap) {
    throw Error("unpack into a strided dense view whose elements may overlap (strides " +
                join(state_->byte_strides) + " bytes)");
  }
  check_disjoint(dense, physical);
  execute(index(), state_->schedule, state_->strides, false, physical.data(), dense.data(), options);
}

}  // namespace tilecheck::impl
