// Relayout between two tiled layouts (tilecheck/impl/plan.h RelayoutPlan).
//
// Three ways, the first that applies:
//
// 1. One pass. When one layout is untiled and row-major, its buffer is the
// dense array: the relayout is the other layout's pack (or unpack). And
// tile interiors: when both layouts share the first tile, which divides
// the array evenly (no padding), and one of them has no sub-tiles, each of
// its tiles is a row-major [t0, ..., tk-1] block: its buffer is the dense
// array of the shape [n*t0, t1, ..., tk-1] (n tiles, end to end), and the
// other layout's buffer is that shape's physical buffer under the other
// layout's tiles (its sub-tiles tile each tile on its own). One pack (or
// unpack) of that shape is the relayout: each element moves once (TPU
// (8,128) <-> (8,128)(2,1), (8,128) <-> (8,128)(4,1)). Whole-byte
// elements only: a tile of sub-byte elements is not a dense array.
//
// 2. When both layouts slice along the same dim (row_slice), band by
// band: unpack a band of rows of the source into a dense band sized to stay
// in the cache, pack it into the destination; the band's offsets are the
// same on every band but the last.
//
// 3. Otherwise unpack the whole source into a dense copy and pack that.
#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <exception>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "impl/compiled_layout.h"
#include "impl/schedule.h"
#include <tilecheck/impl/plan.h>

namespace tilecheck::impl {

using detail::check_buffer_size;
using detail::check_disjoint;

namespace {

// Way 3's dense copy of the whole array: not zeroed (unpack writes every
// byte), and in 2 MiB pages where the kernel gives them on request
// (transparent huge pages in "madvise" mode): in 4 KiB pages the first
// touch of a 64 MiB copy is 16,384 page faults, which cost more than the
// unpack itself.
class DenseCopy {
 public:
  explicit DenseCopy(int64_t bytes) : size_(static_cast<size_t>(bytes)) {
    constexpr size_t kHuge = size_t{2} << 20;
    const size_t align = size_ >= kHuge ? kHuge : 64;
    const size_t rounded = std::max((size_ + align - 1) / align * align, align);
    data_.reset(static_cast<uint8_t*>(std::aligned_alloc(align, rounded)));
    if (!data_) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (align == kHuge) madvise(data_.get(), rounded, MADV_HUGEPAGE);  // a hint: failure is harmless
#endif
  }
  std::span<uint8_t> span() const { return {data_.get(), size_}; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  size_t size_;
  std::unique_ptr<uint8_t, Free> data_;
};

struct Bands {
  int64_t count = 0, rows = 0;
  int64_t src_bytes = 0, dst_bytes = 0;  // of a full band
  std::optional<PackPlan> from, to, last_from, last_to;  // last: the final band
};

std::optional<Bands> make_bands(const ShapeWithLayout& from, const ShapeWithLayout& to, int64_t band_bytes) {
  int64_t g_from = 0, g_to = 0;
  try {
    g_from = row_slice_granularity(from);
    g_to = row_slice_granularity(to);
  } catch (const Error&) {
    return std::nullopt;  // not sliceable: the whole-array path
  }
  const int64_t dim = from.layout.minor_to_major.back();
  if (to.layout.minor_to_major.back() != dim) return std::nullopt;
  const int64_t rows = from.dims[dim];
  const int64_t unit = std::lcm(g_from, g_to);
  if (rows == 0 || unit >= rows) return std::nullopt;
  int64_t row_bytes = from.dense_element_bytes();
  for (size_t l = 0; l < from.dims.size(); ++l) {
    if (static_cast<int64_t>(l) != dim) row_bytes = detail::checked_mul(row_bytes, from.dims[l], "band");
  }
  if (row_bytes == 0) return std::nullopt;
  Bands b;
  b.rows = unit * std::max<int64_t>(1, band_bytes / row_bytes / unit);
  if (b.rows >= rows) return std::nullopt;
  b.count = (rows + b.rows - 1) / b.rows;
  const RowSlice f = row_slice(from, 0, b.rows), t = row_slice(to, 0, b.rows);
  b.src_bytes = f.physical_bytes;
  b.dst_bytes = t.physical_bytes;
  b.from.emplace(f.shape);
  b.to.emplace(t.shape);
  const int64_t last = (b.count - 1) * b.rows;
  b.last_from.emplace(row_slice(from, last, rows).shape);
  b.last_to.emplace(row_slice(to, last, rows).shape);
  return b;
}

// Way 1: the shape whose dense array is the plain side's buffer and whose
// physical buffer is the sub-tiled side's, or nothing.
struct Interiors {
  std::optional<PackPlan> plan;
  bool pack = true;  // from is the plain side
};

// An untiled row-major layout of whole-byte elements: its buffer is the
// dense array.
bool is_dense(const ShapeWithLayout& s) {
  const Layout& l = s.layout;
  if (!l.tiles.empty() || s.element_bits() != 8 * s.dense_element_bytes() || l.tail_padding_alignment.value_or(1) != 1) {
    return false;
  }
  for (size_t j = 0; j < l.minor_to_major.size(); ++j) {
    if (l.minor_to_major[j] != static_cast<int64_t>(l.minor_to_major.size() - 1 - j)) return false;
  }
  return true;
}

Interiors make_interiors(const ShapeWithLayout& from, const ShapeWithLayout& to) {
  const Layout& a = from.layout;
  const Layout& b = to.layout;
  if (is_dense(from) != is_dense(to)) {  // one side is the dense array itself
    Interiors r;
    r.pack = is_dense(from);
    r.plan.emplace(r.pack ? to : from);
    return r;
  }
  if (from.element_bits() % 8 != 0 || from.dims.empty() || a.tiles.empty() || b.tiles.empty() ||
      a.tiles[0] != b.tiles[0] || a.minor_to_major != b.minor_to_major ||
      a.tail_padding_alignment.value_or(1) != 1 || b.tail_padding_alignment.value_or(1) != 1 ||
      (a.tiles.size() == 1) == (b.tiles.size() == 1)) {
    return {};
  }
  const std::vector<int64_t>& tile = a.tiles[0].dims;
  const size_t rank = from.dims.size(), k = tile.size();
  if (k > rank) return {};
  const ShapeWithLayout& tiled = a.tiles.size() == 1 ? to : from;
  for (const Tile& t : tiled.layout.tiles) {
    if (t.dims.size() > k) return {};  // a sub-tile reaching past the tile
  }
  // Physical order, major first: the tile's entries cover the last k dims.
  int64_t tiles = 1;
  for (size_t j = 0; j < rank; ++j) {
    const int64_t d = from.dims[a.minor_to_major[rank - 1 - j]];
    if (j < rank - k) {
      tiles *= d;
      continue;
    }
    const int64_t t = tile[j - (rank - k)];
    if (t <= 0 || d % t != 0) return {};  // '*', or a ragged tile
    tiles *= d / t;
  }
  ShapeWithLayout shape = tiled;
  shape.dims.assign(tile.begin(), tile.end());
  shape.dims[0] = detail::checked_mul(tiles, tile[0], "relayout");
  shape.layout.minor_to_major.clear();
  for (size_t j = k; j-- > 0;) shape.layout.minor_to_major.push_back(static_cast<int64_t>(j));
  shape.dynamic_dims.clear();
  Interiors r;
  r.plan.emplace(shape);
  r.pack = a.tiles.size() == 1;
  // Every tile whole, every sub-tile whole: the sizes agree exactly.
  const int64_t plain = detail::checked_mul(r.plan->index().element_count(), from.dense_element_bytes(), "relayout");
  if (r.plan->index().byte_size() != plain || IndexPlan(from).byte_size() != plain || IndexPlan(to).byte_size() != plain) {
    return {};
  }
  return r;
}

}  // namespace

struct RelayoutPlan::State {
  PackPlan from, to;
  Interiors interiors;
  std::optional<Bands> bands;
  State(const ShapeWithLayout& f, const ShapeWithLayout& t, int64_t band_bytes)
      : from(f), to(t), interiors(make_interiors(f, t)) {
    if (!interiors.plan) bands = make_bands(f, t, band_bytes);
  }
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

RelayoutPlan::RelayoutPlan(const ShapeWithLayout& from, const ShapeWithLayout& to, int64_t band_bytes)
    : state_(std::make_unique<State>(checked_pair(from, to), to, band_bytes)) {}
RelayoutPlan::~RelayoutPlan() = default;
RelayoutPlan::RelayoutPlan(RelayoutPlan&&) noexcept = default;
RelayoutPlan& RelayoutPlan::operator=(RelayoutPlan&&) noexcept = default;

bool RelayoutPlan::banded() const { return state_->bands.has_value(); }
bool RelayoutPlan::by_tiles() const { return state_->interiors.plan.has_value(); }

void RelayoutPlan::run(std::span<const uint8_t> src, std::span<uint8_t> dst, ExecOptions options) const {
  const IndexPlan& from = state_->from.index();
  const IndexPlan& to = state_->to.index();
  check_buffer_size("source", src.size(), from.byte_size());
  check_buffer_size("destination", dst.size(), to.byte_size());
  check_disjoint(src, dst);
  if (const Interiors& in = state_->interiors; in.plan) {
    in.pack ? in.plan->pack(src, dst, options) : in.plan->unpack(src, dst, options);
    return;
  }
  if (!state_->bands) {
    const DenseCopy dense(from.dense_byte_size());
    state_->from.unpack(src, dense.span(), options);
    state_->to.pack(dense.span(), dst, options);
    return;
  }
  const Bands& b = *state_->bands;
  // The band stays in the cache: never streamed; the destination is, when
  // the whole of it is large.
  const ExecOptions into_band{.threads = 1, .stream_bytes = INT64_MAX};
  const ExecOptions out_of_band{.threads = 1, .stream_bytes = to.byte_size() >= options.stream_bytes ? 0 : INT64_MAX};
  const int threads = detail::threads_for(options, std::max(from.byte_size(), to.byte_size()), b.count);
  auto share = [&](int t) {
    std::vector<uint8_t> band(b.from->index().dense_byte_size());
    for (int64_t i = b.count * t / threads; i < b.count * (t + 1) / threads; ++i) {
      const bool last = i == b.count - 1;
      const PackPlan& f = last ? *b.last_from : *b.from;
      const PackPlan& p = last ? *b.last_to : *b.to;
      const std::span<uint8_t> dense(band.data(), f.index().dense_byte_size());
      f.unpack(src.subspan(i * b.src_bytes, f.index().byte_size()), dense, into_band);
      p.pack(dense, dst.subspan(i * b.dst_bytes, p.index().byte_size()), out_of_band);
    }
  };
  // A worker's exception is rethrown here, after every thread has joined.
  std::vector<std::exception_ptr> failed(threads);
  std::vector<std::thread> pool;
  auto guarded = [&](int t) {
    try {
      share(t);
    } catch (...) {
      failed[t] = std::current_exception();
    }
  };
  for (int t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
  guarded(0);
  for (auto& th : pool) th.join();
  for (const std::exception_ptr& e : failed) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace tilecheck::impl
