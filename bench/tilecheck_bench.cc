// tilecheck_bench: the impl's pack/unpack against memcpy (the physical
// limit), the spec's reference pack, and oneDNN's reorder, on the cases of
// bench/cases.h. Every benchmark reports bytes_per_second over the dense array's
// bytes, by the wall clock (WallRate), so the ratios compare like with like.
//
//   pack/<case>         PackPlan::pack, 1 thread
//   unpack/<case>       PackPlan::unpack, 1 thread
//   pack_mt/<case>      PackPlan::pack with the automatic thread count (all
//                       cores; one thread below 8 MiB)
//   memcpy/<case>       memcpy of the dense array's bytes
//   spec_pack/<case>    spec::pack on the smaller shape given in the label
//   xla_pack/<case>, xla_unpack/<case>   XLA's TransposePlan (when built
//                       with an XLA checkout), one plan made before timing,
//                       1 thread; skipped with an error unless its output
//                       equals PackPlan's byte for byte
//   libxsmm_pack/<case>, libxsmm_unpack/<case>   libxsmm's own function for
//                       the layout (its transpose, or its blocked
//                       activations' copy-in and copy-out; peers/libxsmm),
//                       1 thread, where libxsmm lays the case out; skipped
//                       with an error unless its output equals PackPlan's
//   onednn_pack/<case>  oneDNN reorder plain -> the equivalent blocked
//                       descriptor, 1 thread (omp_set_num_threads(1)); skipped
//                       with an error unless oneDNN's output equals PackPlan's
//                       byte for byte (checked at the case's first run)
//   linear_index/<case>, spec_linear_index/<case>: items_per_second over a
//                       fixed batch of random elements
//
// The size sweep, 16 KiB to 256 MiB of dense bytes (kSweepBytes), with the
// plan built once outside the timed loop, so a call's fixed cost shows at
// the small sizes:
//   sweep_pack/<case>/<bytes>, sweep_unpack/<case>/<bytes>   the sweep cases
//                       (bench/cases.h, sweep_cases) on <bytes>/(512 columns)
//                       rows, 1 thread
//   sweep_pack_mt/..., sweep_unpack_mt/...   the same with the automatic
//                       thread count (one thread below 8 MiB)
//   sweep_memcpy/<bytes>   memcpy of <bytes>
//   sweep_ntcopy/<bytes>   a copy with 16-byte non-temporal stores (SSE2):
//                       the other candidate for the machine's copy limit
//                       (scripts/bench takes the faster of the two)
//   plan/<case>         constructing the PackPlan of the case's layout
//
// Sizes: every case runs at its listed size and, when that size's buffers
// (dense and physical) are not already 4x the last-level cache (read from
// sysfs), again as <case>_dram with its first dim multiplied until they
// are. Every benchmark's counter llc_x is its buffers' bytes over the
// last-level cache: scripts/bench labels a row in-cache (<= 1) or DRAM.
//
// SIMD targets: the benchmarks of the impl (pack, unpack, pack_mt, sweep,
// relayout, strided, slices) carry the Highway target they ran on after an
// '@' (pack/f32_8x128@AVX2). By default that is the best target the CPU
// has; --target NAME (a name as hwy::TargetName prints it: AVX3, AVX2,
// SSE4, ...) restricts dispatch to NAME, and --target all registers those
// benchmarks once per target the CPU has, interleaved with the others in
// one run. With one --target, oneDNN is limited to the matching ISA too
// (AVX2 -> avx2, SSE4 and below -> sse41), so the peer runs the code a CPU
// of that kind would.
//
// Relayout (bench/cases.h, relayout_cases), 1 thread, over the dense bytes:
//   relayout/<name>        RelayoutPlan (labelled: one pass, by bands, by
//                          blocks, or through a dense copy of the whole array)
//   relayout_whole/<name>  unpack into a dense array allocated once, then pack
//   memcpy/<name>          memcpy of the dense bytes
// Strided arrays and slices, on the f32 and bf16 cases (4096 x 4096):
//   pack_strided/<case>, unpack_strided/<case>   the dense rows 64 elements
//                       wider than the array (a view of a larger one)
//   pack_slices/<case>, unpack_slices/<case>     in 16 row slices of 256
//                       rows (plans built once), one after another, with
//                       streaming stores as the whole array has them
#include <benchmark/benchmark.h>

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <new>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "hwy/targets.h"

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

#include "bench/cases.h"
#include "bench/targets.h"
#ifdef TILECHECK_HAVE_DNNL
#include "peers/onednn/onednn_layout.h"
#endif
#ifdef TILECHECK_HAVE_XLA
#include "peers/xla/xla_transpose_layout.h"
#endif
#ifdef TILECHECK_HAVE_LIBXSMM
#include "peers/libxsmm/libxsmm_layout.h"
#endif

namespace {

using tilecheck::ShapeWithLayout;
using tilecheck::parse_shape;

using tilecheck::bench::Case;
using tilecheck::bench::cases;

// Buffers aligned to 64 bytes (a cache line), as a tensor runtime would
// allocate them; the impl streams only into line-aligned destinations.
template <class T>
struct LineAligned {
  using value_type = T;
  LineAligned() = default;
  template <class U>
  LineAligned(const LineAligned<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64))); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(64)); }
  bool operator==(const LineAligned&) const { return true; }
};
using Buffer = std::vector<uint8_t, LineAligned<uint8_t>>;

Buffer random_bytes(size_t n) {
  Buffer v(n);
  std::mt19937_64 rng(1);
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t x = rng();
    std::memcpy(v.data() + i, &x, std::min<size_t>(8, n - i));
  }
  return v;
}

// bytes_per_second by the wall clock, for every benchmark alike: pack_mt runs
// on several threads (the calling thread's CPU time would undercount it), and
// on a shared machine wall and CPU time differ, so one clock for all ratios.
// Google Benchmark's own timing (CPU time) still picks the iteration count.
// The last-level cache's size in bytes: the largest level's size in sysfs
// (cpu0), 32 MiB when sysfs does not say.
int64_t last_level_cache_bytes() {
  int64_t best_level = 0, bytes = 0;
  for (int i = 0; i < 16; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream level_file(dir + "level"), size_file(dir + "size");
    int64_t level = 0;
    std::string size;
    if (!(level_file >> level) || !(size_file >> size) || size.empty()) continue;
    int64_t n = std::atoll(size.c_str());
    if (size.back() == 'K') n <<= 10;
    if (size.back() == 'M') n <<= 20;
    if (level > best_level || (level == best_level && n > bytes)) best_level = level, bytes = n;
  }
  return bytes > 0 ? bytes : int64_t{32} << 20;
}

int64_t llc_bytes() {
  static const int64_t bytes = last_level_cache_bytes();
  return bytes;
}

class WallRate {
 public:
  WallRate() : start_(std::chrono::steady_clock::now()) {}
  // `footprint_bytes`: the bytes the benchmark reads and writes per
  // iteration (both buffers), for the llc_x counter; 0 for none.
  void report(benchmark::State& state, int64_t dense_bytes, int64_t footprint_bytes = 0) const {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    state.counters["bytes_per_second"] = benchmark::Counter(
        static_cast<double>(state.iterations()) * static_cast<double>(dense_bytes) / seconds);
    if (footprint_bytes > 0) {
      state.counters["llc_x"] = static_cast<double>(footprint_bytes) / static_cast<double>(llc_bytes());
    }
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

void bench_pack(benchmark::State& state, const ShapeWithLayout& s, int threads) {
  const tilecheck::impl::PackPlan plan(s);
  const auto dense = random_bytes(plan.index().dense_byte_size());
  Buffer physical(plan.index().byte_size());
  const WallRate rate;
  for (auto _ : state) {
    plan.pack(dense, physical, {threads});
    benchmark::DoNotOptimize(physical.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, plan.index().dense_byte_size(), plan.index().dense_byte_size() + plan.index().byte_size());
}

void bench_unpack(benchmark::State& state, const ShapeWithLayout& s) {
  const tilecheck::impl::PackPlan plan(s);
  Buffer physical(plan.index().byte_size());
  plan.pack(random_bytes(plan.index().dense_byte_size()), physical, {1});
  Buffer dense(plan.index().dense_byte_size());
  const WallRate rate;
  for (auto _ : state) {
    plan.unpack(physical, dense, {1});
    benchmark::DoNotOptimize(dense.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, plan.index().dense_byte_size(), plan.index().dense_byte_size() + plan.index().byte_size());
}

void bench_copy(benchmark::State& state, int64_t bytes, bool streaming);

void bench_spec_pack(benchmark::State& state, const Case& c) {
  const ShapeWithLayout s = parse_shape(c.small_layout);
  const auto dense = random_bytes(tilecheck::spec::dense_byte_size(s));
  state.SetLabel(std::string("on ") + c.small_layout);
  const WallRate rate;
  for (auto _ : state) {
    auto physical = tilecheck::spec::pack(s, dense);
    benchmark::DoNotOptimize(physical.data());
  }
  rate.report(state, static_cast<int64_t>(dense.size()));
}

// ---------------------------------------------------------------------------
// The size sweep.

constexpr int64_t kSweepColumns = 512;
constexpr int64_t kSweepBytes[] = {int64_t{16} << 10, int64_t{64} << 10, int64_t{256} << 10,
                                   int64_t{1} << 20,  int64_t{4} << 20,  int64_t{16} << 20,
                                   int64_t{64} << 20, int64_t{256} << 20};

// The sweep case's layout on `bytes` of dense array: 512 columns (whole
// 128-wide tiles), as many rows as the bytes give (whole 8-row tiles from
// 16 KiB up for the element widths of the sweep cases).
ShapeWithLayout sweep_shape(const tilecheck::bench::SweepCase& c, int64_t bytes) {
  ShapeWithLayout s = parse_shape(c.layout);
  const int64_t element_bytes = s.dense_element_bytes();
  s.dims = {bytes / (kSweepColumns * element_bytes), kSweepColumns};
  return s;
}

void bench_sweep(benchmark::State& state, const tilecheck::bench::SweepCase& c, int64_t bytes, bool pack,
                 int threads) {
  const tilecheck::impl::PackPlan plan(sweep_shape(c, bytes));
  const auto dense_bytes = plan.index().dense_byte_size();
  auto dense = random_bytes(dense_bytes);
  Buffer physical(plan.index().byte_size());
  plan.pack(dense, physical, {1});
  const WallRate rate;
  for (auto _ : state) {
    if (pack) {
      plan.pack(dense, physical, {threads});
      benchmark::DoNotOptimize(physical.data());
    } else {
      plan.unpack(physical, dense, {threads});
      benchmark::DoNotOptimize(dense.data());
    }
    benchmark::ClobberMemory();
  }
  rate.report(state, dense_bytes, dense_bytes + plan.index().byte_size());
}

// Copies n bytes (n a multiple of 16, both 16-byte aligned) with
// non-temporal stores, which bypass the caches: the faster copy for arrays
// far larger than the last-level cache on many machines. memcpy elsewhere.
void stream_copy(uint8_t* dst, const uint8_t* src, size_t n) {
#if defined(__x86_64__) || defined(__i386__)
  for (size_t i = 0; i < n; i += 64) {
    const __m128i a = _mm_load_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_load_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i c = _mm_load_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i d = _mm_load_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
  _mm_sfence();
#else
  std::memcpy(dst, src, n);
#endif
}

void bench_copy(benchmark::State& state, int64_t bytes, bool streaming) {
  const auto src = random_bytes(bytes);
  Buffer dst(bytes);
  const WallRate rate;
  for (auto _ : state) {
    if (streaming) {
      stream_copy(dst.data(), src.data(), static_cast<size_t>(bytes));
    } else {
      std::memcpy(dst.data(), src.data(), bytes);
    }
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, bytes, 2 * bytes);
}

// memcpy_mt: the same bytes split between threads as pack_mt splits its
// work (ExecOptions' default: one thread below parallel_bytes, every core
// from there), threads started per call as PackPlan starts them.
void bench_copy_mt(benchmark::State& state, int64_t bytes) {
  const auto src = random_bytes(bytes);
  Buffer dst(bytes);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const int64_t threads = bytes < tilecheck::impl::ExecOptions{}.parallel_bytes ? 1 : cores;
  auto part = [&](int64_t t) {
    const int64_t begin = bytes * t / threads, end = bytes * (t + 1) / threads;
    std::memcpy(dst.data() + begin, src.data() + begin, static_cast<size_t>(end - begin));
  };
  const WallRate rate;
  for (auto _ : state) {
    std::vector<std::thread> pool;
    for (int64_t t = 1; t < threads; ++t) pool.emplace_back(part, t);
    part(0);
    for (auto& th : pool) th.join();
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = static_cast<double>(threads);
  rate.report(state, bytes, 2 * bytes);
}

void bench_relayout(benchmark::State& state, const tilecheck::bench::RelayoutCase& c, bool whole) {
  const ShapeWithLayout from = parse_shape(c.from), to = parse_shape(c.to);
  const tilecheck::impl::RelayoutPlan plan(from, to);
  const tilecheck::impl::PackPlan source(from), target(to);
  const int64_t dense_bytes = source.index().dense_byte_size();
  Buffer src(source.index().byte_size()), dst(target.index().byte_size()), dense(whole ? dense_bytes : 0);
  source.pack(random_bytes(dense_bytes), src, {1});
  state.SetLabel(whole             ? "unpack, then pack"
                 : plan.by_tiles()  ? "one pass"
                 : plan.banded()    ? "by bands"
                 : plan.by_blocks() ? "by blocks"
                                    : "whole array");
  const WallRate rate;
  for (auto _ : state) {
    if (whole) {
      source.unpack(src, dense, {1});
      target.pack(dense, dst, {1});
    } else {
      plan.run(src, dst, {1});
    }
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, dense_bytes, static_cast<int64_t>(src.size() + dst.size() + dense.size()));
}

// The dense rows `pad` elements wider than the array.
void bench_strided(benchmark::State& state, const Case& c, bool pack) {
  const ShapeWithLayout s = parse_shape(c.layout);
  const int64_t nb = s.dense_element_bytes(), pad = 64;
  const tilecheck::impl::PackPlan plan(s, std::vector<int64_t>{(s.dims[1] + pad) * nb, nb});
  auto dense = random_bytes(plan.dense_span_bytes());
  Buffer physical(plan.index().byte_size());
  plan.pack(dense, physical, {1});
  const WallRate rate;
  for (auto _ : state) {
    pack ? plan.pack(dense, physical, {1}) : plan.unpack(physical, dense, {1});
    benchmark::DoNotOptimize(physical.data());
    benchmark::DoNotOptimize(dense.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, plan.index().dense_byte_size(), static_cast<int64_t>(dense.size() + physical.size()));
}

void bench_slices(benchmark::State& state, const Case& c, bool pack) {
  const ShapeWithLayout s = parse_shape(c.layout);
  constexpr int64_t kSlices = 16;
  const int64_t rows = s.dims[0] / kSlices;
  std::vector<tilecheck::impl::RowSlice> slices;
  std::vector<tilecheck::impl::PackPlan> plans;
  for (int64_t i = 0; i < kSlices; ++i) {
    slices.push_back(tilecheck::impl::row_slice(s, i * rows, (i + 1) * rows));
    plans.emplace_back(slices.back().shape, slices.back().dense_byte_strides);
  }
  const int64_t dense_bytes = tilecheck::spec::dense_byte_size(s);
  auto dense = random_bytes(dense_bytes);
  Buffer physical(tilecheck::spec::byte_size(s));
  // Streaming stores as for the whole array: the slices are parts of it.
  const tilecheck::impl::ExecOptions options{.threads = 1, .stream_bytes = 0};
  const WallRate rate;
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlices; ++i) {
      const auto& r = slices[i];
      const auto d = std::span(dense).subspan(r.dense_offset, plans[i].dense_span_bytes());
      const auto p = std::span(physical).subspan(r.physical_offset, r.physical_bytes);
      pack ? plans[i].pack(d, p, options) : plans[i].unpack(p, d, options);
    }
    benchmark::DoNotOptimize(physical.data());
    benchmark::DoNotOptimize(dense.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, dense_bytes, static_cast<int64_t>(dense.size() + physical.size()));
}

void bench_plan(benchmark::State& state, const Case& c) {
  const ShapeWithLayout s = parse_shape(c.layout);
  for (auto _ : state) {
    tilecheck::impl::PackPlan plan(s);
    benchmark::DoNotOptimize(&plan);
  }
}

// A fixed batch of random elements, coordinates row after row.
std::vector<int64_t> random_elements(const ShapeWithLayout& s, size_t count) {
  std::mt19937_64 rng(2);
  std::vector<int64_t> v;
  for (size_t i = 0; i < count; ++i) {
    for (int64_t d : s.dims) v.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(d)));
  }
  return v;
}

constexpr size_t kIndexBatch = 4096;

void bench_linear_index(benchmark::State& state, const Case& c) {
  const tilecheck::impl::IndexPlan plan(parse_shape(c.layout));
  const auto elements = random_elements(plan.shape(), kIndexBatch);
  std::vector<int64_t> out(kIndexBatch);
  for (auto _ : state) {
    plan.linear_index_batch(elements, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kIndexBatch));
}

void bench_spec_linear_index(benchmark::State& state, const Case& c) {
  const ShapeWithLayout s = parse_shape(c.layout);
  const auto elements = random_elements(s, kIndexBatch);
  const size_t r = s.dims.size();
  for (auto _ : state) {
    for (size_t i = 0; i < kIndexBatch; ++i) {
      std::vector<int64_t> e(elements.begin() + i * r, elements.begin() + (i + 1) * r);
      benchmark::DoNotOptimize(tilecheck::spec::linear_index(s, e));
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kIndexBatch));
}

// Whether a peer's output equals PackPlan's, decided at a case's first run
// (not at start-up, where every case at 4x the cache would cost seconds
// whatever the filter): unknown, equal, or different.
enum class Match { kUnknown, kEqual, kDifferent };

// A peer's pack (dense to the layout) or unpack of `s`, on 1 thread: `run`
// moves `src` (src_bytes: random dense bytes, or PackPlan's packed buffer,
// whose padding is zero as a device buffer's is) into `dst` (dst_bytes).
// Skipped with an error unless the peer's output equals PackPlan's byte for
// byte, padding included (checked at the case's first run, kept in `match`).
template <class Run>
[[maybe_unused]] void bench_peer(benchmark::State& state, const ShapeWithLayout& s, bool pack, Match& match,
                                 const char* peer, int64_t src_bytes, int64_t dst_bytes, const Run& run) {
  const tilecheck::impl::PackPlan plan(s);
  const int64_t dense_bytes = plan.index().dense_byte_size();
  Buffer src(static_cast<size_t>(src_bytes));
  if (pack) {
    src = random_bytes(src.size());
  } else {
    plan.pack(random_bytes(dense_bytes), src, {1});
  }
  Buffer dst(static_cast<size_t>(dst_bytes));
  run(src, dst);  // the output's page faults (and padding), before timing
  if (match == Match::kUnknown) {
    Buffer ours(static_cast<size_t>(pack ? plan.index().byte_size() : dense_bytes));
    if (pack) {
      plan.pack(src, ours, {1});
    } else {
      plan.unpack(src, ours, {1});
    }
    match = ours == dst ? Match::kEqual : Match::kDifferent;
  }
  if (match == Match::kDifferent) {
    const std::string message = std::string(peer) + "'s output differs from PackPlan's (docs/IMPLEMENTATIONS.md)";
    state.SkipWithError(message.c_str());
    return;
  }
  const WallRate rate;
  for (auto _ : state) {
    run(src, dst);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, dense_bytes, dense_bytes + plan.index().byte_size());
}

#ifdef TILECHECK_HAVE_LIBXSMM
// libxsmm (docs/PEERS.md, "libxsmm"): its function for the layout.
void bench_libxsmm(benchmark::State& state, const ShapeWithLayout& s, bool pack, Match& match) {
  namespace peers = tilecheck::peers;
  const auto format = std::get<peers::LibxsmmFormat>(peers::libxsmm_format(s));
  const int64_t dense = tilecheck::spec::dense_byte_size(s), physical = tilecheck::spec::byte_size(s);
  bench_peer(state, s, pack, match, "libxsmm", pack ? dense : physical, pack ? physical : dense,
             [&](const Buffer& src, Buffer& dst) {
               pack ? peers::libxsmm_pack(format, src, dst) : peers::libxsmm_unpack(format, src, dst);
             });
}
#endif

#ifdef TILECHECK_HAVE_XLA
// XLA's TransposePlan (docs/PEERS.md): one plan made before the timed loop,
// as PJRT keeps its plans in a cache.
void bench_xla(benchmark::State& state, const ShapeWithLayout& s, bool pack, Match& match) {
  namespace peers = tilecheck::peers;
  const peers::XlaTransposeLayout dense = peers::xla_transpose_dense(s);
  const auto layout = std::get<peers::XlaTransposeLayout>(peers::xla_transpose_layout(s));
  const peers::XlaTransposeLayout& from = pack ? dense : layout;
  const peers::XlaTransposeLayout& to = pack ? layout : dense;
  const peers::XlaTransposeRun run(from, to);
  bench_peer(state, s, pack, match, "TransposePlan", peers::xla_transpose_buffer_bytes(from),
             peers::xla_transpose_buffer_bytes(to), [&](const Buffer& src, Buffer& dst) { run(src, dst); });
}
#endif

#ifdef TILECHECK_HAVE_DNNL
using tilecheck::peers::OneDnnFormat;

void bench_onednn(benchmark::State& state, const ShapeWithLayout& s, const OneDnnFormat& d, Match& match) {
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const int64_t n = tilecheck::spec::dense_byte_size(s);
  auto src_bytes = random_bytes(n);
  dnnl::memory src(d.plain, engine, src_bytes.data());
  dnnl::memory dst(d.blocked, engine);
  dnnl::reorder r(src, dst);
  // oneDNN allocates the destination untouched: its page faults are not
  // the reorder's (PackPlan's buffers are written before timing too).
  r.execute(stream, src, dst);
  stream.wait();
  // oneDNN's output must equal PackPlan's, or the comparison means nothing
  // (onednn_crosscheck_test checks the values in the test suite).
  if (match == Match::kUnknown) {
    const tilecheck::impl::PackPlan plan(s);
    bool equal = static_cast<int64_t>(d.blocked.get_size()) == plan.index().byte_size();
    if (equal) {
      Buffer ours(plan.index().byte_size());
      plan.pack(src_bytes, ours, {1});
      equal = std::memcmp(ours.data(), dst.get_data_handle(), ours.size()) == 0;
    }
    match = equal ? Match::kEqual : Match::kDifferent;
  }
  if (match == Match::kDifferent) {
    state.SkipWithError("oneDNN's output differs from PackPlan's (docs/PEERS.md, \"What oneDNN changes\")");
    return;
  }
  const WallRate rate;
  for (auto _ : state) {
    r.execute(stream, src, dst);
    stream.wait();
  }
  rate.report(state, n, n + static_cast<int64_t>(d.blocked.get_size()));
}
#endif

// "kind/case" (built by append: GCC 12 warns falsely on operator+ here).
std::string bench_name(const char* kind, const char* name) {
  std::string s(kind);
  s.append("/").append(name);
  return s;
}

// The Highway targets the impl's benchmarks run on: one entry of 0 (the
// best target, unrestricted) unless --target asked for others.
struct Targets {
  std::vector<int64_t> list;
};

// Registers an impl benchmark once per target, named kind/case@TARGET, each
// dispatching to its target while it runs (interleaved runs need that).
void register_per_target(const Targets& targets, const std::string& name,
                         const std::function<void(benchmark::State&)>& run, benchmark::TimeUnit unit) {
  for (const int64_t t : targets.list) {
    benchmark::RegisterBenchmark((name + "@" + tilecheck::bench::target_name(t)).c_str(),
                                 [t, run](benchmark::State& s) {
                                   hwy::SetSupportedTargetsForTest(t);
                                   run(s);
                                   hwy::SetSupportedTargetsForTest(0);
                                 })
        ->Unit(unit);
  }
}

// A case at one of its sizes: the listed one, or <case>_dram, the first dim
// multiplied until dense and physical buffers are at least 4x the
// last-level cache.
struct SizedCase {
  std::string name;
  ShapeWithLayout shape;
};

std::vector<SizedCase> sizes_of(const Case& c) {
  std::vector<SizedCase> v{{c.name, parse_shape(c.layout)}};
  const ShapeWithLayout& s = v.front().shape;
  const int64_t footprint = tilecheck::spec::dense_byte_size(s) + tilecheck::spec::byte_size(s);
  if (c.dram_too && footprint < 4 * llc_bytes()) {
    ShapeWithLayout big = s;
    big.dims[0] *= (4 * llc_bytes() + footprint - 1) / footprint;
    v.push_back({std::string(c.name) + "_dram", big});
  }
  return v;
}

// A peer's <peer>_pack/<case> and <peer>_unpack/<case>: bench(state, shape,
// pack, match), each with its own record of whether the peer's output
// matched PackPlan's.
[[maybe_unused]] void register_pack_and_unpack(const char* peer, const char* name, const ShapeWithLayout& s,
                                               void (*bench)(benchmark::State&, const ShapeWithLayout&, bool, Match&)) {
  for (const bool pack : {true, false}) {
    benchmark::RegisterBenchmark(bench_name((std::string(peer) + (pack ? "_pack" : "_unpack")).c_str(), name).c_str(),
                                 [&s, pack, bench, match = std::make_shared<Match>(Match::kUnknown)](
                                     benchmark::State& st) { bench(st, s, pack, *match); })
        ->Unit(benchmark::kMillisecond);
  }
}

void register_all(const Targets& targets) {
  static std::deque<SizedCase> sized;  // the benchmarks hold references
  for (const Case& c : cases()) {
    for (const SizedCase& sc : sizes_of(c)) {
      sized.push_back(sc);
      const ShapeWithLayout& s = sized.back().shape;
      const char* n = sized.back().name.c_str();
      register_per_target(targets, bench_name("pack", n), [&s](benchmark::State& st) { bench_pack(st, s, 1); },
                          benchmark::kMillisecond);
      register_per_target(targets, bench_name("unpack", n), [&s](benchmark::State& st) { bench_unpack(st, s); },
                          benchmark::kMillisecond);
      register_per_target(targets, bench_name("pack_mt", n), [&s](benchmark::State& st) { bench_pack(st, s, 0); },
                          benchmark::kMillisecond);
      const int64_t bytes = tilecheck::spec::dense_byte_size(s);
      benchmark::RegisterBenchmark(bench_name("memcpy", n).c_str(),
                                   [bytes](benchmark::State& st) { bench_copy(st, bytes, false); })
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(bench_name("memcpy_mt", n).c_str(),
                                   [bytes](benchmark::State& st) { bench_copy_mt(st, bytes); })
          ->Unit(benchmark::kMillisecond);
#ifdef TILECHECK_HAVE_DNNL
      if (auto format = tilecheck::peers::onednn_format(s); std::holds_alternative<OneDnnFormat>(format)) {
        benchmark::RegisterBenchmark(bench_name("onednn_pack", n).c_str(),
                                     [&s, d = std::get<OneDnnFormat>(std::move(format)),
                                      match = std::make_shared<Match>(Match::kUnknown)](
                                         benchmark::State& st) { bench_onednn(st, s, d, *match); })
            ->Unit(benchmark::kMillisecond);
      }
#endif
#ifdef TILECHECK_HAVE_LIBXSMM
      if (std::holds_alternative<tilecheck::peers::LibxsmmFormat>(tilecheck::peers::libxsmm_format(s))) {
        register_pack_and_unpack("libxsmm", n, s, bench_libxsmm);
      }
#endif
#ifdef TILECHECK_HAVE_XLA
      if (std::holds_alternative<tilecheck::peers::XlaTransposeLayout>(tilecheck::peers::xla_transpose_layout(s))) {
        register_pack_and_unpack("xla", n, s, bench_xla);
      }
#endif
    }
    const char* n = c.name;
    benchmark::RegisterBenchmark(bench_name("spec_pack", n).c_str(), [&c](benchmark::State& s) { bench_spec_pack(s, c); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(bench_name("linear_index", n).c_str(),
                                 [&c](benchmark::State& s) { bench_linear_index(s, c); });
    benchmark::RegisterBenchmark(bench_name("spec_linear_index", n).c_str(),
                                 [&c](benchmark::State& s) { bench_spec_linear_index(s, c); });
    benchmark::RegisterBenchmark(bench_name("plan", n).c_str(), [&c](benchmark::State& s) { bench_plan(s, c); })
        ->Unit(benchmark::kMicrosecond);
  }
  for (const Case& c : cases()) {
    if (std::string(c.name) != "f32_8x128" && std::string(c.name) != "bf16_8x128_2x1") continue;
    for (const bool pack : {true, false}) {
      register_per_target(targets, bench_name(pack ? "pack_strided" : "unpack_strided", c.name),
                          [&c, pack](benchmark::State& s) { bench_strided(s, c, pack); }, benchmark::kMillisecond);
      register_per_target(targets, bench_name(pack ? "pack_slices" : "unpack_slices", c.name),
                          [&c, pack](benchmark::State& s) { bench_slices(s, c, pack); }, benchmark::kMillisecond);
    }
  }
  for (const tilecheck::bench::RelayoutCase& c : tilecheck::bench::relayout_cases()) {
    for (const bool whole : {false, true}) {
      register_per_target(targets, bench_name(whole ? "relayout_whole" : "relayout", c.name),
                          [&c, whole](benchmark::State& s) { bench_relayout(s, c, whole); }, benchmark::kMillisecond);
    }
    const int64_t bytes = tilecheck::spec::dense_byte_size(parse_shape(c.from));
    benchmark::RegisterBenchmark(bench_name("memcpy", c.name).c_str(),
                                 [bytes](benchmark::State& s) { bench_copy(s, bytes, false); })
        ->Unit(benchmark::kMillisecond);
  }
  for (const int64_t bytes : kSweepBytes) {
    const std::string size = std::to_string(bytes);
    for (const tilecheck::bench::SweepCase& c : tilecheck::bench::sweep_cases()) {
      const std::string name = std::string(c.name) + "/" + size;
      for (const bool pack : {true, false}) {
        for (const int threads : {1, 0}) {
          const std::string kind = std::string("sweep_") + (pack ? "pack" : "unpack") + (threads ? "" : "_mt");
          register_per_target(targets, bench_name(kind.c_str(), name.c_str()),
                              [&c, bytes, pack, threads](benchmark::State& s) { bench_sweep(s, c, bytes, pack, threads); },
                              benchmark::kNanosecond);
        }
      }
    }
    benchmark::RegisterBenchmark(bench_name("sweep_memcpy", size.c_str()).c_str(),
                                 [bytes](benchmark::State& s) { bench_copy(s, bytes, false); });
    benchmark::RegisterBenchmark(bench_name("sweep_ntcopy", size.c_str()).c_str(),
                                 [bytes](benchmark::State& s) { bench_copy(s, bytes, true); });
  }
}

#ifdef TILECHECK_HAVE_DNNL
// With one --target, oneDNN runs the ISA a CPU of that kind would have.
bool limit_onednn_isa(const Targets& targets) {
  if (targets.list.size() != 1 || targets.list.front() == 0) return true;
  const std::string name = hwy::TargetName(targets.list.front());
  if (name.rfind("AVX3", 0) == 0) return true;
  const dnnl::cpu_isa isa = name == "AVX2" ? dnnl::cpu_isa::avx2 : dnnl::cpu_isa::sse41;
  try {
    dnnl::set_max_cpu_isa(isa);
  } catch (const dnnl::error& e) {
    std::fprintf(stderr, "error: cannot limit oneDNN's ISA for --target %s: %s\n", name.c_str(), e.what());
    return false;
  }
  return true;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  Targets targets;
  std::string asked;
  if (!tilecheck::bench::parse_target(argc, argv, targets.list, asked)) return 2;
#ifdef TILECHECK_HAVE_DNNL
  if (!limit_onednn_isa(targets)) return 2;
  if (!tilecheck::peers::limit_onednn_to_one_thread()) {
    std::fprintf(stderr, "error: cannot limit oneDNN's OpenMP runtime to one thread\n");
    return 2;
  }
#endif
  benchmark::AddCustomContext("llc_bytes", std::to_string(llc_bytes()));
  benchmark::AddCustomContext("hwy_targets", tilecheck::bench::supported_target_names());
  register_all(targets);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
