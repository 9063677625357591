// tilecheck_bench: the impl's pack/unpack against memcpy (the physical
// limit), the spec's reference pack, and oneDNN's reorder, on the cases of
// issue 3. Every benchmark reports bytes_per_second over the dense array's
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
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <new>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "impl/plan.h"
#include "spec/semantics.h"
#include "spec/syntax.h"

#ifdef TILECHECK_HAVE_DNNL
#include <dlfcn.h>

#include <cstdio>
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace {

using tilecheck::ShapeWithLayout;
using tilecheck::parse_shape;

struct Block {
  int64_t size;
  int dim;
};
struct Case {
  const char* name;
  const char* layout;
  const char* small_layout;  // for the spec
  std::vector<Block> onednn_blocks;  // outermost first; empty: not expressible
};

const std::vector<Case>& cases() {
  static const std::vector<Case> v = {
      {"f32_8x128", "f32[4096,4096]{1,0:T(8,128)}", "f32[512,512]{1,0:T(8,128)}", {{8, 0}, {128, 1}}},
      {"bf16_8x128_2x1", "bf16[4096,4096]{1,0:T(8,128)(2,1)}", "bf16[512,512]{1,0:T(8,128)(2,1)}",
       {{4, 0}, {128, 1}, {2, 0}}},
      {"s8_8x128_4x1", "s8[4096,4096]{1,0:T(8,128)(4,1)}", "s8[512,512]{1,0:T(8,128)(4,1)}",
       {{2, 0}, {128, 1}, {4, 0}}},
      {"s4_8x128_8x1", "s4[4096,4096]{1,0:T(8,128)(8,1)E(4)}", "s4[512,512]{1,0:T(8,128)(8,1)E(4)}", {}},
      {"pred_32x128_32x1", "pred[4096,4096]{1,0:T(32,128)(32,1)E(1)}",
       "pred[512,512]{1,0:T(32,128)(32,1)E(1)}", {}},
      {"f32_ragged", "f32[1000,1000]{1,0:T(8,128)}", "f32[500,500]{1,0:T(8,128)}", {{8, 0}, {128, 1}}},
      {"f32_colmajor_8x128", "f32[4096,4096]{0,1:T(8,128)}", "f32[512,512]{0,1:T(8,128)}",
       {{8, 1}, {128, 0}}},
      {"bf16_rank4", "bf16[8,64,96,200]{3,2,1,0:T(8,128)(2,1)}", "bf16[2,16,96,200]{3,2,1,0:T(8,128)(2,1)}",
       {{4, 2}, {128, 3}, {2, 2}}},
  };
  return v;
}

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

void bench_memcpy(benchmark::State& state, const Case& c) {
  const int64_t n = tilecheck::spec::dense_byte_size(parse_shape(c.layout));
  const auto src = random_bytes(n);
  Buffer dst(n);
  const WallRate rate;
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  rate.report(state, n);
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
// The oneDNN blocked descriptor equivalent to the case's layout: inner blocks
// as listed, outer dims in the layout's physical order over padded dims.
struct OneDnn {
  dnnl::memory::desc plain, blocked;
};

bool make_onednn(const Case& c, OneDnn& out) {
  const ShapeWithLayout s = parse_shape(c.layout);
  dnnl_data_type_t dt;
  switch (s.type) {
    case tilecheck::ElementType::kF32: dt = dnnl_f32; break;
    case tilecheck::ElementType::kBF16: dt = dnnl_bf16; break;
    case tilecheck::ElementType::kS8: dt = dnnl_s8; break;
    default: return false;
  }
  const int n = static_cast<int>(s.rank());
  dnnl_memory_desc_t plain;
  dnnl_dims_t dims;
  for (int i = 0; i < n; ++i) dims[i] = s.dims[i];
  if (dnnl_memory_desc_init_by_strides(&plain, n, dims, dt, nullptr) != dnnl_success) return false;
  dnnl_memory_desc_t md = plain;
  auto& b = md.format_desc.blocking;
  std::vector<int64_t> block(n, 1);
  b.inner_nblks = static_cast<int>(c.onednn_blocks.size());
  int64_t inner = 1;
  for (size_t i = 0; i < c.onednn_blocks.size(); ++i) {
    b.inner_blks[i] = c.onednn_blocks[i].size;
    b.inner_idxs[i] = c.onednn_blocks[i].dim;
    block[c.onednn_blocks[i].dim] *= c.onednn_blocks[i].size;
    inner *= c.onednn_blocks[i].size;
  }
  int64_t stride = inner;
  for (int j = n - 1; j >= 0; --j) {  // physical order, minor first
    const int l = static_cast<int>(s.layout.minor_to_major[n - 1 - j]);
    md.padded_dims[l] = (s.dims[l] + block[l] - 1) / block[l] * block[l];
    b.strides[l] = stride;
    stride *= md.padded_dims[l] / block[l];
  }
  out.plain = dnnl::memory::desc(plain);
  out.blocked = dnnl::memory::desc(md);
  return true;
}

void bench_onednn(benchmark::State& state, const Case& c, const OneDnn& d) {
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

// oneDNN's output must equal PackPlan's, or the comparison means nothing.
bool onednn_matches(const Case& c, const OneDnn& d) {
  const tilecheck::impl::PackPlan plan(parse_shape(c.layout));
  if (static_cast<int64_t>(d.blocked.get_size()) != plan.index().byte_size()) return false;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  auto dense = random_bytes(plan.index().dense_byte_size());
  Buffer ours(plan.index().byte_size()), theirs(plan.index().byte_size());
  plan.pack(dense, ours, {1});
  dnnl::memory src(d.plain, engine, dense.data());
  dnnl::memory dst(d.blocked, engine, theirs.data());
  dnnl::reorder(src, dst).execute(stream, src, dst);
  stream.wait();
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
    OneDnn d;
    if (!c.onednn_blocks.empty() && make_onednn(c, d)) {
      if (onednn_matches(c, d)) {
        benchmark::RegisterBenchmark(bench_name("onednn_pack", n).c_str(),
                                     [&c, d](benchmark::State& s) { bench_onednn(s, c, d); })
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
  }
}

}  // namespace

#ifdef TILECHECK_HAVE_DNNL
// oneDNN runs on OpenMP (libgomp, loaded with libdnnl); it must use one
// thread, as pack/ and unpack/ do. Setting OMP_NUM_THREADS in main is too
// late: libgomp reads it when it is loaded, before main, so the reorder
// silently used every core. Set the calling thread's limit through OpenMP's
// own call instead, found at run time so the benchmark need not link libgomp.
bool limit_onednn_to_one_thread() {
  using SetFn = void (*)(int);
  using GetFn = int (*)();
  auto set = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  auto get = reinterpret_cast<GetFn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (set == nullptr || get == nullptr) return false;
  set(1);
  return get() == 1;
}
#endif

int main(int argc, char** argv) {
#ifdef TILECHECK_HAVE_DNNL
  if (!limit_onednn_to_one_thread()) {
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
