// PackPlan and RelayoutPlan: execution of the loop nest of compiled_layout.h.
//
// The walk visits the digits of the final shape in physical order, so the
// physical side is written (pack) or read (unpack) front to back. At each
// depth the valid range of the digit is [0, limit) with
//   limit = min(extent, min over constraints k touching it of
//               ceil((bound_k - acc_k) / coeff_k)),
// acc_k being the constraint's sum over the enclosing digits; positions past
// the limit form one contiguous physical run of padding (the subtree of a
// row-major digit), zeroed in one go by pack and skipped by unpack. The
// innermost digit is a run handed to a row mover (block copy when both
// strides are 1).
#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

#include "impl/compiled_layout.h"
#include "impl/plan.h"

namespace tilecheck::impl {

namespace {

using detail::CompiledLayout;
using detail::Digit;
using detail::LoopNest;

// Physical positions are counted in elements; this is where the bits live.
struct BitCursor {
  static void or_bits(uint8_t* buf, int64_t bit, int64_t bits, const uint8_t* value) {
    for (int64_t i = 0; i < bits; ++i) {
      if ((value[i >> 3] >> (i & 7)) & 1) buf[(bit + i) >> 3] |= static_cast<uint8_t>(1u << ((bit + i) & 7));
    }
  }
  static void read_bits(const uint8_t* buf, int64_t bit, int64_t bits, uint8_t* value, int64_t nb) {
    std::memset(value, 0, nb);
    for (int64_t i = 0; i < bits; ++i) {
      if ((buf[(bit + i) >> 3] >> ((bit + i) & 7)) & 1) value[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
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

  bool byte_elements() const { return bits % 8 == 0; }

  // `n` elements: dense at dense + i*dense_stride, physical at phys + i.
  void row(int64_t dense, int64_t dense_stride, int64_t phys, int64_t n) const {
    if (byte_elements()) {
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
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      const int64_t d = (dense + i * dense_stride) * nb;
      const int64_t bit = (phys + i) * bits;
      if (pack) {
        // The buffer was zeroed first; sub-byte neighbours share bytes.
        uint8_t value[16] = {};
        std::memcpy(value, src + d, nb);
        if (bits % 8) value[bits / 8] &= static_cast<uint8_t>((1u << (bits % 8)) - 1);
        BitCursor::or_bits(dst, bit, bits, value);
      } else {
        BitCursor::read_bits(src, bit, bits, dst + d, nb);
      }
    }
  }
  // Physical padding [phys, phys+n): pack writes zeros (only needed when the
  // buffer was not zeroed up front), unpack ignores it.
  void padding(int64_t phys, int64_t n) const {
    if (pack && byte_elements() && n > 0) std::memset(dst + phys * nb, 0, n * nb);
  }
};

struct Touch {
  int constraint;
  int64_t coeff;
};

struct Walker {
  const LoopNest& nest;
  std::vector<std::vector<Touch>> touches;  // per depth

  explicit Walker(const LoopNest& n) : nest(n), touches(n.digits.size()) {
    for (size_t k = 0; k < n.constraints.size(); ++k) {
      for (size_t j = 0; j < n.digits.size(); ++j) {
        if (n.constraints[k].coeff[j] != 0) touches[j].push_back({static_cast<int>(k), n.constraints[k].coeff[j]});
      }
    }
  }

  int64_t limit(size_t depth, const int64_t* acc) const {
    int64_t lim = nest.digits[depth].extent;
    for (const Touch& t : touches[depth]) {
      const int64_t room = nest.constraints[t.constraint].bound - acc[t.constraint];
      lim = std::min(lim, room / t.coeff + (room % t.coeff != 0 ? 1 : 0));
    }
    return lim;
  }

  // Visits digit `depth` over [begin, end) (end <= limit).
  void walk(const Mover& m, size_t depth, int64_t begin, int64_t end, int64_t dense, int64_t phys,
            int64_t* acc) const {
    const Digit& d = nest.digits[depth];
    if (depth + 1 == nest.digits.size()) {
      m.row(dense + begin * d.src_stride, d.src_stride, phys + begin, end - begin);
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

int thread_count(const ExecOptions& options) {
  if (options.threads > 0) return options.threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

void check_disjoint(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  if (a.empty() || b.empty()) return;
  const auto a0 = reinterpret_cast<uintptr_t>(a.data()), b0 = reinterpret_cast<uintptr_t>(b.data());
  if (a0 < b0 + b.size() && b0 < a0 + a.size()) throw Error("source and destination buffers overlap");
}

void check_size(const char* what, size_t got, int64_t want) {
  if (static_cast<int64_t>(got) != want) {
    throw Error(std::string(what) + " buffer has " + std::to_string(got) + " bytes, expected " +
                std::to_string(want));
  }
}

}  // namespace

struct PackPlan::State {
  IndexPlan index;
  LoopNest nest;  // digits never empty when lowered
  explicit State(const ShapeWithLayout& shape) : index(shape) {}
};

PackPlan::PackPlan(const ShapeWithLayout& shape) : state_(std::make_unique<State>(shape)) {}
PackPlan::~PackPlan() = default;
PackPlan::PackPlan(PackPlan&&) noexcept = default;
PackPlan& PackPlan::operator=(PackPlan&&) noexcept = default;
const IndexPlan& PackPlan::index() const { return state_->index; }

namespace {

// Runs the lowered walk (or the per-element fallback) in one direction.
void execute(const IndexPlan& index, bool pack, const uint8_t* src, uint8_t* dst,
             const ExecOptions& options) {
  const CompiledLayout& c = detail::compiled(index);
  const Mover m{src, dst, c.dense_element_bytes, c.bits, pack};
  const bool bit_elements = c.bits % 8 != 0;
  if (pack) {
    const int64_t keep = bit_elements || !c.nest.lowered ? 0 : c.final_count * c.dense_element_bytes;
    if (c.byte_size > keep) std::memset(dst + keep, 0, c.byte_size - keep);  // all, or the L(n) tail
  }
  if (c.element_count == 0) return;
  if (!c.nest.lowered) {
    // One index computation per element, dense order.
    std::vector<int64_t> e(c.rank, 0);
    for (int64_t i = 0; i < c.element_count; ++i) {
      m.row(i, 1, index.linear_index(e), 1);
      for (int64_t l = c.rank - 1; l >= 0; --l) {
        if (++e[l] < c.shape.dims[l]) break;
        e[l] = 0;
      }
    }
    return;
  }
  Walker w(c.nest);
  std::vector<int64_t> acc0(c.nest.constraints.size(), 0);
  const int64_t lim = w.limit(0, acc0.data());
  const Digit& d0 = c.nest.digits[0];
  int threads = std::min<int64_t>(thread_count(options), lim);
  if (options.threads == 0 && c.element_count < (1 << 16)) threads = 1;
  // Sub-byte pack: threads must not share a byte.
  if (pack && bit_elements && (d0.dst_stride * c.bits) % 8 != 0) threads = 1;
  if (threads <= 1) {
    w.walk(m, 0, 0, lim, 0, 0, acc0.data());
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      const int64_t b = lim * t / threads, e = lim * (t + 1) / threads;
      pool.emplace_back([&, b, e] {
        std::vector<int64_t> acc(c.nest.constraints.size(), 0);
        w.walk(m, 0, b, e, 0, 0, acc.data());
      });
    }
    for (auto& th : pool) th.join();
  }
  m.padding(lim * d0.dst_stride, (d0.extent - lim) * d0.dst_stride);
}

}  // namespace

bool PackPlan::lowered() const { return detail::compiled(index()).nest.lowered; }

std::string PackPlan::describe() const {
  const LoopNest& n = detail::compiled(index()).nest;
  if (!n.lowered) return "per-element fallback: " + n.reason + "\n";
  std::string s;
  for (size_t j = 0; j < n.digits.size(); ++j) {
    const Digit& d = n.digits[j];
    s += "digit " + std::to_string(j) + ": extent " + std::to_string(d.extent) + ", dense stride " +
         std::to_string(d.src_stride) + ", physical stride " + std::to_string(d.dst_stride) + "\n";
  }
  for (const auto& k : n.constraints) {
    s += "valid when";
    for (size_t j = 0; j < k.coeff.size(); ++j) {
      if (k.coeff[j]) s += " +" + std::to_string(k.coeff[j]) + "*d" + std::to_string(j);
    }
    s += " < " + std::to_string(k.bound) + "\n";
  }
  return s;
}

void PackPlan::pack(std::span<const uint8_t> dense, std::span<uint8_t> physical,
                    ExecOptions options) const {
  check_size("dense", dense.size(), index().dense_byte_size());
  check_size("physical", physical.size(), index().byte_size());
  check_disjoint(dense, physical);
  execute(index(), true, dense.data(), physical.data(), options);
}

void PackPlan::unpack(std::span<const uint8_t> physical, std::span<uint8_t> dense,
                      ExecOptions options) const {
  check_size("physical", physical.size(), index().byte_size());
  check_size("dense", dense.size(), index().dense_byte_size());
  check_disjoint(dense, physical);
  execute(index(), false, physical.data(), dense.data(), options);
}

// ---------------------------------------------------------------------------
// Relayout: unpack the source into a dense scratch array, pack that into the
// destination. Two streaming passes, each running the lowered kernels.
struct RelayoutPlan::State {
  PackPlan from, to;
  State(const ShapeWithLayout& f, const ShapeWithLayout& t) : from(f), to(t) {}
};

namespace {
ShapeWithLayout checked_pair(const ShapeWithLayout& from, const ShapeWithLayout& to) {
  if (from.dims != to.dims) throw Error("relayout: the two shapes have different dims");
  if (from.element_bits() != to.element_bits()) {
    throw Error("relayout: element widths differ (" + std::to_string(from.element_bits()) + " vs " +
                std::to_string(to.element_bits()) + " bits)");
  }
  return from;
}
}  // namespace

RelayoutPlan::RelayoutPlan(const ShapeWithLayout& from, const ShapeWithLayout& to)
    : state_(std::make_unique<State>(checked_pair(from, to), to)) {}
RelayoutPlan::~RelayoutPlan() = default;
RelayoutPlan::RelayoutPlan(RelayoutPlan&&) noexcept = default;
RelayoutPlan& RelayoutPlan::operator=(RelayoutPlan&&) noexcept = default;

void RelayoutPlan::run(std::span<const uint8_t> src, std::span<uint8_t> dst, ExecOptions options) const {
  const IndexPlan& from = state_->from.index();
  const IndexPlan& to = state_->to.index();
  check_size("source", src.size(), from.byte_size());
  check_size("destination", dst.size(), to.byte_size());
  check_disjoint(src, dst);
  std::vector<uint8_t> dense(from.dense_byte_size());
  state_->from.unpack(src, dense, options);
  state_->to.pack(dense, dst, options);
}

}  // namespace tilecheck::impl
