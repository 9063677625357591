// pack_memcpy_ratio: pack and unpack against memcpy of the dense bytes, on a
// shared (noisy) machine. tilecheck_bench is the reference benchmark; this
// is the quick check used while tuning: the three operations alternate in
// rounds inside one process, each timed by this thread's CPU time (time
// spent descheduled by other processes does not count), and the best round
// of each is kept, so the ratios compare like with like.
//
//   pack_memcpy_ratio [--rounds=N] [--target NAME|all] LAYOUT...
//
// Prints per layout (and per target, with --target, as in tilecheck_bench):
// GB/s over the dense array's bytes of memcpy, pack and unpack (1 thread),
// and pack/memcpy, unpack/memcpy. Buffers are 64-byte
// aligned, as in tilecheck_bench. Exits non-zero if unpack(pack(x)) does not
// pack back to the same bytes.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>

#include "bench/targets.h"

namespace {

double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Aligned {
  uint8_t* p;
  size_t n;
  explicit Aligned(size_t size)
      : p(static_cast<uint8_t*>(::operator new(std::max<size_t>(size, 1), std::align_val_t(64)))), n(size) {
    std::memset(p, 0, n);
  }
  ~Aligned() { ::operator delete(p, std::align_val_t(64)); }
  Aligned(const Aligned&) = delete;
  Aligned& operator=(const Aligned&) = delete;
};

// One row: memcpy, pack and unpack of `plan` alternating in `rounds`
// rounds, each on the current target. Returns false if the round trip
// differs.
bool measure(const std::string& label, const tilecheck::impl::PackPlan& plan, int rounds) {
  const size_t dn = plan.index().dense_byte_size(), pn = plan.index().byte_size();
  Aligned dense(dn), physical(pn), back(dn), copy(dn), repacked(pn);
  std::mt19937_64 rng(1);
  for (size_t i = 0; i < dn; ++i) dense.p[i] = static_cast<uint8_t>(rng());
  // About 100 MB of dense bytes per timed round.
  const int iterations = static_cast<int>(std::max<size_t>(1, (size_t{100} << 20) / std::max<size_t>(dn, 1)));
  double best[3] = {1e30, 1e30, 1e30};
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < 3; ++k) {
      const double t0 = thread_seconds();
      for (int i = 0; i < iterations; ++i) {
        if (k == 0) {
          std::memcpy(copy.p, dense.p, dn);
        } else if (k == 1) {
          plan.pack({dense.p, dn}, {physical.p, pn}, {1});
        } else {
          plan.unpack({physical.p, pn}, {back.p, dn}, {1});
        }
        asm volatile("" ::: "memory");
      }
      best[k] = std::min(best[k], (thread_seconds() - t0) / iterations);
    }
  }
  plan.pack({back.p, dn}, {repacked.p, pn}, {1});
  const bool ok = std::memcmp(physical.p, repacked.p, pn) == 0;
  const double gb = static_cast<double>(dn) / 1e9;
  std::printf("%-52s memcpy %6.2f pack %6.2f unpack %6.2f GB/s | pk/mc %.2f up/mc %.2f%s\n", label.c_str(),
              gb / best[0], gb / best[1], gb / best[2], best[0] / best[1], best[0] / best[2],
              ok ? "" : "  ROUND TRIP DIFFERS");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int64_t> targets;
  std::string asked;
  if (!tilecheck::bench::parse_target(argc, argv, targets, asked)) return 2;
  int rounds = 11;
  std::vector<std::string> layouts;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--rounds=", 0) == 0) {
      rounds = std::max(1, std::atoi(a.c_str() + 9));
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "error: unknown option %s\nusage: pack_memcpy_ratio [--rounds=N] [--target NAME|all] LAYOUT...\n",
                   a.c_str());
      return 2;
    } else {
      layouts.push_back(a);
    }
  }
  if (layouts.empty()) {
    std::fprintf(stderr, "usage: pack_memcpy_ratio [--rounds=N] [--target NAME|all] LAYOUT...\n");
    return 2;
  }
  bool all_ok = true;
  for (const std::string& text : layouts) {
    std::optional<tilecheck::impl::PackPlan> plan;
    try {
      plan.emplace(tilecheck::parse_shape(text));
    } catch (const tilecheck::Error& e) {
      std::fprintf(stderr, "error: %s: %s\n", text.c_str(), e.what());
      return 2;
    }
    for (const int64_t t : targets) {
      hwy::SetSupportedTargetsForTest(t);
      all_ok = measure(text + "@" + tilecheck::bench::target_name(t), *plan, rounds) && all_ok;
      hwy::SetSupportedTargetsForTest(0);
    }
  }
  return all_ok ? 0 : 1;
}
