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
// 3. By blocks of whole tiles, when neither of the above applies (a change
// of the physical-major dim: row-major tiles to column-major tiles). A
// block is a box of the logical array made of whole tiles of both layouts
// (per dim a multiple of both tile extents), grown to about a quarter of
// the band size. Each layout stores a block's tiles as runs of whole tiles;
// gathered in order, the source's runs are the source layout's buffer of
// the block's shape alone, which unpacks into a dense block; that packs
// into the destination layout's buffer of the block, whose runs scatter to
// the destination. The three block buffers stay in the cache: each element
// crosses memory once, read from the source and written to the
// destination. Both layouts must have no padding at all (every tile
// extent divides its dim, every sub-tile its tile) and whole-byte tiles.
//
// 4. Otherwise unpack the whole source into a dense copy and pack that.
#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
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
#include "impl/kernels.h"
#include "impl/schedule.h"
#include <tilecheck/impl/plan.h>

namespace tilecheck::impl {

using detail::check_buffer_size;
using detail::check_disjoint;

namespace {

// Way 4's dense copy of the whole array: not zeroed (unpack writes every
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

// Way 3: a layout's first-level tiles as its buffer stores them, in
// physical order (major first): position j holds logical dim dim[j], split
// into grid[j] tiles of tile[j] (1 above the tiled dims; an untiled
// layout's tile is one element), tile after tile of tile_bytes each.
struct TileGrid {
  std::vector<int64_t> dim, tile, grid;
  int64_t tile_bytes = 0;

  // A block's runs (per logical dim the block's extent, whole tiles): the
  // innermost positions the block spans whole lie in one run with the
  // position above them, which the block does not span whole (or position
  // 0), and which ends the run.
  struct Run {
    int64_t bytes = 0;
    size_t position = 0;
  };
  Run run(const std::vector<int64_t>& block) const {
    Run r{tile_bytes, dim.size() - 1};
    for (;; --r.position) {
      const int64_t n = block[dim[r.position]] / tile[r.position];
      r.bytes *= n;
      if (n < grid[r.position] || r.position == 0) return r;
    }
  }
};

// The grid of a layout, or nothing when its buffer is not whole tiles alone:
// padding anywhere (a ragged tile, a sub-tile that does not divide its
// tile, L(n)), a scalar, a first tile of more dims than the array, a
// sub-tile of more dims than the first tile (it spans tiles), a '*' entry,
// or a tile of a fraction of a byte.
std::optional<TileGrid> tile_grid(const IndexPlan& plan) {
  const ShapeWithLayout& s = plan.shape();
  const Layout& l = s.layout;
  const size_t rank = s.dims.size();
  if (plan.padded_element_count() != plan.element_count()) return std::nullopt;
  const std::vector<int64_t> none;
  const std::vector<int64_t>& first = l.tiles.empty() ? none : l.tiles[0].dims;
  const size_t k = first.size();
  if (rank == 0 || k > rank) return std::nullopt;
  for (const Tile& t : l.tiles) {
    if (t.dims.size() > k) return std::nullopt;
  }
  TileGrid g;
  int64_t tile_elements = 1;
  for (size_t j = 0; j < rank; ++j) {
    const int64_t d = l.minor_to_major[rank - 1 - j];
    const int64_t t = j < rank - k ? 1 : first[j - (rank - k)];
    if (t <= 0) return std::nullopt;
    g.dim.push_back(d);
    g.tile.push_back(t);
    g.grid.push_back(s.dims[d] / t);  // exact: no padding
    tile_elements *= t;               // at most the element count
  }
  if (tile_elements * s.element_bits() % 8 != 0) return std::nullopt;
  g.tile_bytes = tile_elements * s.element_bits() / 8;
  return g;
}

// True when a block's buffer is its dense array, byte for byte: whole-byte
// elements whose tiles stack into whole rows, so that the loop nest lowers
// to one digit (without padding, one digit of every element steps by one
// on both sides). That side needs no unpack (or pack).
bool is_dense_block(const PackPlan& plan) {
  const detail::CompiledLayout& c = detail::compiled(plan.index());
  return c.bits == 8 * c.dense_element_bytes && c.nest.lowered && c.nest.digits.size() == 1;
}

// One layout's side of a block: its buffer of the block's shape alone
// (plan), and how the block's tiles lie in the whole buffer: runs of
// run_bytes, one per combination of the outer positions (extent[j], whole
// stride[j] and block stride[j] bytes apart), the block at origin bytes
// sum over positions j of (origin of grid.dim[j] / grid.tile[j]) *
// tile_stride[j], tile_stride[j] being the whole buffer's bytes between
// neighbouring tiles of position j.
struct BlockSide {
  std::optional<PackPlan> plan;
  bool dense = false;  // the block's buffer is its dense array (is_dense_block)
  TileGrid grid;
  std::vector<int64_t> tile_stride;
  std::vector<int64_t> extent, whole_stride, block_stride;
  int64_t run_bytes = 0;

  BlockSide(const ShapeWithLayout& s, const TileGrid& g, const std::vector<int64_t>& block) : grid(g) {
    // L(n) pads the whole array (here by nothing), not a block.
    ShapeWithLayout b = s;
    b.dims = block;
    b.dynamic_dims.clear();
    b.layout.tail_padding_alignment.reset();
    plan.emplace(b);
    dense = is_dense_block(*plan);
    const size_t rank = g.dim.size();
    std::vector<int64_t> n(rank), whole(rank), local(rank);
    int64_t w = g.tile_bytes, l = g.tile_bytes;
    for (size_t j = rank; j-- > 0;) {
      n[j] = block[g.dim[j]] / g.tile[j];
      whole[j] = w;
      local[j] = l;
      w *= g.grid[j];
      l *= n[j];
    }
    const TileGrid::Run run = g.run(block);
    run_bytes = run.bytes;
    for (size_t j = 0; j < run.position; ++j) {
      if (n[j] == 1) continue;
      extent.push_back(n[j]);
      whole_stride.push_back(whole[j]);
      block_stride.push_back(local[j]);
    }
    tile_stride = std::move(whole);
  }

  // The block's first byte in the whole buffer; `at`: its first element.
  int64_t origin(std::span<const int64_t> at) const {
    int64_t o = 0;
    for (size_t j = 0; j < tile_stride.size(); ++j) o += at[grid.dim[j]] / grid.tile[j] * tile_stride[j];
    return o;
  }

  // Calls visit(whole, block, count) for the block's runs, `count` of them
  // from `whole` and `block` bytes into the two buffers, the innermost
  // position's strides apart. `at`: scratch.
  template <class Visit>
  void runs(std::vector<int64_t>& at, const Visit& visit) const {
    if (extent.empty()) return visit(0, 0, 1);
    const size_t inner = extent.size() - 1;
    at.assign(inner, 0);
    for (int64_t w = 0, b = 0;;) {
      visit(w, b, extent[inner]);
      size_t j = inner;
      while (j-- > 0) {
        w += whole_stride[j];
        b += block_stride[j];
        if (++at[j] < extent[j]) break;
        w -= extent[j] * whole_stride[j];
        b -= extent[j] * block_stride[j];
        at[j] = 0;
      }
      if (j == SIZE_MAX) return;
    }
  }
  int64_t inner_stride(const std::vector<int64_t>& stride) const { return extent.empty() ? 0 : stride.back(); }

  // Copies the block's runs from the whole buffer (at the block's origin)
  // into the block's.
  void gather(const uint8_t* whole, uint8_t* block, std::vector<int64_t>& at) const {
    runs(at, [&](int64_t w, int64_t b, int64_t count) {
      kernels::copy_runs(whole + w, inner_stride(whole_stride), block + b, inner_stride(block_stride), count,
                         run_bytes, false);
    });
  }
  // And back, with streaming stores where asked (kernels.h, copy_runs).
  void scatter(const uint8_t* block, uint8_t* whole, bool stream, std::vector<int64_t>& at) const {
    runs(at, [&](int64_t w, int64_t b, int64_t count) {
      kernels::copy_runs(block + b, inner_stride(block_stride), whole + w, inner_stride(whole_stride), count,
                         run_bytes, stream);
    });
  }
};

struct Blocks {
  std::vector<int64_t> block, count;  // per logical dim: the block's extent, blocks along it
  std::vector<int64_t> order;         // logical dims, the destination's major first: blocks visited in its order
  int64_t total = 0;
  std::optional<BlockSide> from, to;
};

// A factor of `n` above 1 (its smallest below 64), or n itself.
int64_t some_factor(int64_t n) {
  for (int64_t f = 2; f < 64; ++f) {
    if (n % f == 0) return f;
  }
  return n;
}

std::optional<Blocks> make_blocks(const IndexPlan& source, const IndexPlan& target, int64_t band_bytes) {
  const ShapeWithLayout& from = source.shape();
  const ShapeWithLayout& to = target.shape();
  const std::optional<TileGrid> a = tile_grid(source), b = tile_grid(target);
  if (!a || !b) return std::nullopt;
  const size_t rank = from.dims.size();
  Blocks r;
  r.block.assign(rank, 1);
  for (size_t j = 0; j < rank; ++j) {
    r.block[a->dim[j]] = std::lcm(r.block[a->dim[j]], a->tile[j]);
    r.block[b->dim[j]] = std::lcm(r.block[b->dim[j]], b->tile[j]);
  }
  int64_t bytes = from.dense_element_bytes();
  for (const int64_t e : r.block) bytes = detail::checked_mul(bytes, e, "relayout");
  // Grown towards a quarter of the band (three block buffers share the
  // cache), each step lengthening the shorter of the two sides' runs where
  // it can (the longer's where not): a run is a read (or write) of
  // contiguous memory, and short ones leave the memory idle between them.
  const int64_t goal = std::max<int64_t>(band_bytes / 4, 1);
  for (bool grown = true; grown;) {
    grown = false;
    const TileGrid::Run ra = a->run(r.block), rb = b->run(r.block);
    const bool a_first = ra.bytes <= rb.bytes;
    for (const TileGrid* g : {a_first ? &*a : &*b, a_first ? &*b : &*a}) {
      const int64_t d = g->dim[(g == &*a ? ra : rb).position];
      const int64_t left = from.dims[d] / r.block[d];
      if (left <= 1) continue;  // the whole array
      const int64_t f = some_factor(left);
      if (bytes > goal / f) continue;
      r.block[d] *= f;
      bytes *= f;
      grown = true;
      break;
    }
  }
  r.total = 1;
  for (size_t l = 0; l < rank; ++l) {
    r.count.push_back(from.dims[l] / r.block[l]);
    r.total *= r.count.back();
  }
  if (r.total < 2) return std::nullopt;  // one block: the whole array
  r.order = b->dim;
  r.from.emplace(from, *a, r.block);
  r.to.emplace(to, *b, r.block);
  return r;
}

}  // namespace

struct RelayoutPlan::State {
  PackPlan from, to;
  Interiors interiors;
  std::optional<Bands> bands;
  std::optional<Blocks> blocks;
  State(const ShapeWithLayout& f, const ShapeWithLayout& t, int64_t band_bytes)
      : from(f), to(t), interiors(make_interiors(f, t)) {
    if (!interiors.plan) bands = make_bands(f, t, band_bytes);
    if (!interiors.plan && !bands) blocks = make_blocks(from.index(), to.index(), band_bytes);
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
bool RelayoutPlan::by_blocks() const { return state_->blocks.has_value(); }

namespace {
// Runs share(t) for t < threads, share(0) on the caller's thread; a
// worker's exception is rethrown here, after every thread has joined.
template <class Share>
void in_threads(int threads, const Share& share) {
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

void run_blocks(const Blocks& b, std::span<const uint8_t> src, std::span<uint8_t> dst, ExecOptions options) {
  const size_t rank = b.block.size();
  // The block buffers stay in the cache: never streamed.
  const ExecOptions cached{.threads = 1, .stream_bytes = INT64_MAX};
  const int threads =
      detail::threads_for(options, std::max<int64_t>(static_cast<int64_t>(src.size()), dst.size()), b.total);
  // The destination streamed when large, as a pack streams it.
  const bool stream = static_cast<int64_t>(dst.size()) >= options.stream_bytes;
  auto share = [&](int t) {
    // A side whose block buffer is the dense block needs no unpack (or
    // pack): the other side's plan reads (or writes) that buffer.
    const bool from_dense = b.from->dense, to_dense = b.to->dense;
    std::vector<uint8_t> from(b.from->plan->index().byte_size()),
        dense(from_dense || to_dense ? 0 : b.from->plan->index().dense_byte_size()),
        to(from_dense && to_dense ? 0 : b.to->plan->index().byte_size());
    const std::span<uint8_t> block_dense = from_dense ? std::span(from) : to_dense ? std::span(to) : std::span(dense);
    const std::span<uint8_t> to_block = to_dense ? block_dense : std::span(to);
    std::vector<int64_t> at(rank), scratch;
    // The origin of block i, in elements per logical dim.
    auto origin = [&](int64_t i) {
      for (size_t j = rank; j-- > 0;) {
        const int64_t d = b.order[j];
        at[d] = i % b.count[d] * b.block[d];
        i /= b.count[d];
      }
      return std::span<const int64_t>(at);
    };
    const int64_t begin = b.total * t / threads, end = b.total * (t + 1) / threads;
    for (int64_t i = begin; i < end; ++i) {
      const std::span<const int64_t> first = origin(i);
      b.from->gather(src.data() + b.from->origin(first), from.data(), scratch);
      if (!from_dense) b.from->plan->unpack(from, block_dense, cached);
      if (!to_dense) b.to->plan->pack(block_dense, to_block, cached);
      b.to->scatter(to_block.data(), dst.data() + b.to->origin(first), stream, scratch);
    }
    if (stream) kernels::flush_streams();
  };
  in_threads(threads, share);
}

}  // namespace

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
  if (state_->blocks) return run_blocks(*state_->blocks, src, dst, options);
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
  in_threads(threads, share);
}

}  // namespace tilecheck::impl
