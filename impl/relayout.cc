// Relayout between two tiled layouts (tilecheck/impl/plan.h RelayoutPlan).
//
// When both layouts slice along the same dim (row_slice), band by
// band: unpack a band of rows of the source into a dense band sized to stay
// in the cache, pack it into the destination; the band's offsets are the
// same on every band but the last. Otherwise unpack the whole source into a
// dense copy and pack that.
#include <algorithm>
#include <climits>
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
}  // namespace

struct RelayoutPlan::State {
  PackPlan from, to;
  std::optional<Bands> bands;
  State(const ShapeWithLayout& f, const ShapeWithLayout& t, int64_t band_bytes)
      : from(f), to(t), bands(make_bands(f, t, band_bytes)) {}
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

void RelayoutPlan::run(std::span<const uint8_t> src, std::span<uint8_t> dst, ExecOptions options) const {
  const IndexPlan& from = state_->from.index();
  const IndexPlan& to = state_->to.index();
  check_buffer_size("source", src.size(), from.byte_size());
  check_buffer_size("destination", dst.size(), to.byte_size());
  check_disjoint(src, dst);
  if (!state_->bands) {
    std::vector<uint8_t> dense(from.dense_byte_size());
    state_->from.unpack(src, dense, options);
    state_->to.pack(dense, dst, options);
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
