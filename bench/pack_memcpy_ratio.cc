// pack_memcpy_ratio: pack and unpack against memcpy of the dense bytes, on a
// shared (noisy) machine. tilecheck_bench is the reference benchmark; this
// is the quick check used while tuning: the three operations alternate in
// rounds inside one process, each timed by this thread's CPU time (time
// spent descheduled by other processes does not count), and the best round
// of each is kept, so the ratios compare like with like.
//
//   pack_memcpy_ratio [--rounds=N] [--target NAME|all] [--huge-pages] LAYOUT...
//
// Prints per layout (and per target, with --target, as in tilecheck_bench):
// GB/s over the dense array's bytes of memcpy, pack and unpack (1 thread),
// and pack/memcpy, unpack/memcpy. Buffers are 64-byte
// aligned, as in tilecheck_bench; with --huge-pages, 2 MiB-aligned and
// asked for transparent huge pages (AlignedBytes). Exits non-zero if unpack(pack(x)) does not
// pack back to the same bytes.
#include <array>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>

#include "bench/cpu_rounds.h"
#include "bench/targets.h"

namespace {

constexpr const char* kUsage = "usage: pack_memcpy_ratio [--rounds=N] [--target NAME|all] [--huge-pages] LAYOUT...\n";

// One row: memcpy, pack and unpack of `plan` alternating in `rounds`
// rounds, each on the current target. Returns false if the round trip
// differs.
bool measure(const std::string& label, const tilecheck::impl::PackPlan& plan, int rounds, bool huge) {
  const size_t dn = plan.index().dense_byte_size(), pn = plan.index().byte_size();
  tilecheck::bench::AlignedBytes dense(dn, 64, huge), physical(pn, 64, huge), back(dn, 64, huge), copy(dn, 64, huge),
      repacked(pn, 64, huge);
  std::mt19937_64 rng(1);
  for (size_t i = 0; i < dn; ++i) dense.p[i] = static_cast<uint8_t>(rng());
  const std::array<double, 3> best = tilecheck::bench::best_of_rounds(rounds, dn, [&](int k) {
    if (k == 0) {
      std::memcpy(copy.p, dense.p, dn);
    } else if (k == 1) {
      plan.pack({dense.p, dn}, {physical.p, pn}, {1});
    } else {
      plan.unpack({physical.p, pn}, {back.p, dn}, {1});
    }
  });
  plan.pack({back.p, dn}, {repacked.p, pn}, {1});
  const bool ok = std::memcmp(physical.p, repacked.p, pn) == 0;
  tilecheck::bench::print_rates(label, 52, dn, best, {"memcpy", "pack", "unpack", "pk/mc", "up/mc"}, ok);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int64_t> targets;
  std::string asked;
  if (!tilecheck::bench::parse_target(argc, argv, targets, asked)) return 2;
  int rounds = 11;
  bool huge = false;
  std::vector<std::string> layouts;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--rounds=", 0) == 0) {
      rounds = tilecheck::bench::parse_rounds(a);
      if (rounds == 0) {
        std::fprintf(stderr, "error: %s: N must be a whole number from 1 to 100000\n", a.c_str());
        return 2;
      }
    } else if (a == "--huge-pages") {
      huge = true;
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "error: unknown option %s\n%s", a.c_str(), kUsage);
      return 2;
    } else {
      layouts.push_back(a);
    }
  }
  if (layouts.empty()) {
    std::fprintf(stderr, "%s", kUsage);
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
      all_ok = measure(text + "@" + tilecheck::bench::target_name(t), *plan, rounds, huge) && all_ok;
      hwy::SetSupportedTargetsForTest(0);
    }
  }
  return all_ok ? 0 : 1;
}
