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
//   onednn_pack/<case>  oneDNN reorder plain -> the equivalent blocked
//                       descriptor, 1 thread (omp_set_num_threads(1)), registered
//                       only when oneDNN's output equals PackPlan's byte for byte
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
#include <benchmark/benchmark.h>

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#endif

#include <chrono>
#include <cstdlib>
#include <new>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

#include "bench/cases.h"
#ifdef TILECHECK_HAVE_DNNL
#include <cstdio>

#include "bench/onednn_peer.h"
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
class WallRate {
 public:
  WallRate() : start_(std::chrono::steady_clock::now()) {}
  void report(benchmark::State& state, int64_t dense_bytes) const {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    state.counters["bytes_per_second"] = benchmark::Counter(
        static_cast<double>(state.iterations()) * static_cast<double>(dense_bytes) / seconds);
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

void bench_pack(benchmark::State& state, const Case& c, int threads) {
  const tilecheck::impl::PackPlan plan(parse_shape(c.layout));
  const auto dense = random_bytes(plan.index().dense_byte_size());
  Buffer physical(plan.index().byte_size());
  const WallRate rate;
  for (auto _ : state) {
    plan.pack(dense, physical, {threads});
    benchmark::DoNotOptimize(physical.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, plan.index().dense_byte_size());
}

void bench_unpack(benchmark::State& state, const Case& c) {
  const tilecheck::impl::PackPlan plan(parse_shape(c.layout));
  Buffer physical(plan.index().byte_size());
  plan.pack(random_bytes(plan.index().dense_byte_size()), physical, {1});
  Buffer dense(plan.index().dense_byte_size());
  const WallRate rate;
  for (auto _ : state) {
    plan.unpack(physical, dense, {1});
    benchmark::DoNotOptimize(dense.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, plan.index().dense_byte_size());
}

void bench_copy(benchmark::State& state, int64_t bytes, bool streaming);

void bench_memcpy(benchmark::State& state, const Case& c) {
  bench_copy(state, tilecheck::spec::dense_byte_size(parse_shape(c.layout)), false);
}

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
  rate.report(state, dense_bytes);
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
  rate.report(state, bytes);
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

#ifdef TILECHECK_HAVE_DNNL
using tilecheck::bench::OneDnnFormat;

void bench_onednn(benchmark::State& state, const Case& c, const OneDnnFormat& d) {
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const int64_t n = tilecheck::spec::dense_byte_size(parse_shape(c.layout));
  auto src_bytes = random_bytes(n);
  dnnl::memory src(d.plain, engine, src_bytes.data());
  dnnl::memory dst(d.blocked, engine);
  dnnl::reorder r(src, dst);
  const WallRate rate;
  for (auto _ : state) {
    r.execute(stream, src, dst);
    stream.wait();
  }
  rate.report(state, n);
}

// oneDNN's output must equal PackPlan's, or the comparison means nothing
// (onednn_crosscheck_test checks the same in the test suite).
bool onednn_matches(const Case& c, const OneDnnFormat& d) {
  const tilecheck::impl::PackPlan plan(parse_shape(c.layout));
  if (static_cast<int64_t>(d.blocked.get_size()) != plan.index().byte_size()) return false;
  auto dense = random_bytes(plan.index().dense_byte_size());
  Buffer ours(plan.index().byte_size()), theirs(plan.index().byte_size());
  plan.pack(dense, ours, {1});
  tilecheck::bench::onednn_reorder(d, dense, theirs);
  return ours == theirs;
}
#endif

// "kind/case" (built by append: GCC 12 warns falsely on operator+ here).
std::string bench_name(const char* kind, const char* name) {
  std::string s(kind);
  s.append("/").append(name);
  return s;
}

void register_all() {
  for (const Case& c : cases()) {
    const char* n = c.name;
    benchmark::RegisterBenchmark(bench_name("pack", n).c_str(), [&c](benchmark::State& s) { bench_pack(s, c, 1); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(bench_name("unpack", n).c_str(), [&c](benchmark::State& s) { bench_unpack(s, c); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(bench_name("pack_mt", n).c_str(), [&c](benchmark::State& s) { bench_pack(s, c, 0); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(bench_name("memcpy", n).c_str(), [&c](benchmark::State& s) { bench_memcpy(s, c); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(bench_name("spec_pack", n).c_str(), [&c](benchmark::State& s) { bench_spec_pack(s, c); })
        ->Unit(benchmark::kMillisecond);
#ifdef TILECHECK_HAVE_DNNL
    if (const auto d = tilecheck::bench::onednn_format(parse_shape(c.layout), c.onednn_blocks)) {
      if (onednn_matches(c, *d)) {
        benchmark::RegisterBenchmark(bench_name("onednn_pack", n).c_str(),
                                     [&c, d = *d](benchmark::State& s) { bench_onednn(s, c, d); })
        ->Unit(benchmark::kMillisecond);
      } else {
        std::fprintf(stderr, "onednn_pack/%s: oneDNN's output differs from PackPlan's; not registered\n",
                     c.name);
      }
    }
#endif
    benchmark::RegisterBenchmark(bench_name("linear_index", n).c_str(),
                                 [&c](benchmark::State& s) { bench_linear_index(s, c); });
    benchmark::RegisterBenchmark(bench_name("spec_linear_index", n).c_str(),
                                 [&c](benchmark::State& s) { bench_spec_linear_index(s, c); });
    benchmark::RegisterBenchmark(bench_name("plan", n).c_str(), [&c](benchmark::State& s) { bench_plan(s, c); })
        ->Unit(benchmark::kMicrosecond);
  }
  for (const int64_t bytes : kSweepBytes) {
    const std::string size = std::to_string(bytes);
    for (const tilecheck::bench::SweepCase& c : tilecheck::bench::sweep_cases()) {
      const std::string name = std::string(c.name) + "/" + size;
      for (const bool pack : {true, false}) {
        for (const int threads : {1, 0}) {
          const std::string kind = std::string("sweep_") + (pack ? "pack" : "unpack") + (threads ? "" : "_mt");
          benchmark::RegisterBenchmark(bench_name(kind.c_str(), name.c_str()).c_str(),
                                       [&c, bytes, pack, threads](benchmark::State& s) {
                                         bench_sweep(s, c, bytes, pack, threads);
                                       });
        }
      }
    }
    benchmark::RegisterBenchmark(bench_name("sweep_memcpy", size.c_str()).c_str(),
                                 [bytes](benchmark::State& s) { bench_copy(s, bytes, false); });
    benchmark::RegisterBenchmark(bench_name("sweep_ntcopy", size.c_str()).c_str(),
                                 [bytes](benchmark::State& s) { bench_copy(s, bytes, true); });
  }
}

}  // namespace


int main(int argc, char** argv) {
#ifdef TILECHECK_HAVE_DNNL
  if (!tilecheck::bench::limit_onednn_to_one_thread()) {
    std::fprintf(stderr, "error: cannot limit oneDNN's OpenMP runtime to one thread\n");
    return 2;
  }
#endif
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
