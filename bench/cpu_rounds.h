// What the quick CPU-time benchmark programs (pack_memcpy_ratio,
// tile_walk_copy) share: aligned buffers and the alternating rounds, each
// operation timed by this thread's CPU time (time spent descheduled by
// other processes does not count) and the best round of each kept, so that
// ratios on a shared machine compare like with like.
#pragma once

#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace tilecheck::bench {

inline double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// `size` zeroed bytes aligned to `alignment`.
struct AlignedBytes {
  uint8_t* p;
  size_t alignment;
  // huge_pages: aligned to 2 MiB and asked for transparent huge pages
  // (madvise MADV_HUGEPAGE) before the first touch, where the kernel
  // grants them only on request (/sys/kernel/mm/transparent_hugepage/enabled
  // "madvise"); the kernel may still decline.
  AlignedBytes(size_t size, size_t align, bool huge_pages = false)
      : alignment(huge_pages ? std::max<size_t>(align, 2 << 20) : align) {
    p = static_cast<uint8_t*>(::operator new(std::max<size_t>(size, 1), std::align_val_t(alignment)));
    if (huge_pages) ::madvise(p, size, MADV_HUGEPAGE);
    std::memset(p, 0, size);
  }
  ~AlignedBytes() { ::operator delete(p, std::align_val_t(alignment)); }
  AlignedBytes(const AlignedBytes&) = delete;
  AlignedBytes& operator=(const AlignedBytes&) = delete;
};

// N of a `--rounds=N` argument (the prefix included): a whole number from
// 1 to 100000, else 0 (the caller reports it).
inline int parse_rounds(const std::string& arg) {
  const char* digits = arg.c_str() + 9;  // past "--rounds="
  char* end = nullptr;
  const long n = std::strtol(digits, &end, 10);
  return end != digits && *end == '\0' && n >= 1 && n <= 100000 ? static_cast<int>(n) : 0;
}

// Runs op(0), op(1), op(2) in turn, `rounds` times, each as a batch of
// enough calls to move about 100 MB of `bytes` per call; returns each
// one's best seconds per call.
template <class Op>
std::array<double, 3> best_of_rounds(int rounds, size_t bytes, Op op) {
  const int calls = static_cast<int>(std::max<size_t>(1, (size_t{100} << 20) / std::max<size_t>(bytes, 1)));
  std::array<double, 3> best = {1e30, 1e30, 1e30};
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < 3; ++k) {
      const double t0 = thread_seconds();
      for (int i = 0; i < calls; ++i) {
        op(k);
        asm volatile("" ::: "memory");
      }
      best[k] = std::min(best[k], (thread_seconds() - t0) / calls);
    }
  }
  return best;
}

// Prints one result line: `label`, the three operations' GB/s over
// `bytes` (names[0..2]), and the second and third as a share of the first
// (names[3], names[4]); flags a round trip that differs (!ok).
inline void print_rates(const std::string& label, int width, size_t bytes, const std::array<double, 3>& best,
                        const std::array<const char*, 5>& names, bool ok) {
  const double gb = static_cast<double>(bytes) / 1e9;
  std::printf("%-*s %s %6.2f %s %6.2f %s %6.2f GB/s | %s %.2f %s %.2f%s\n", width, label.c_str(), names[0],
              gb / best[0], names[1], gb / best[1], names[2], gb / best[2], names[3], best[0] / best[1], names[4],
              best[0] / best[2], ok ? "" : "  ROUND TRIP DIFFERS");
}

}  // namespace tilecheck::bench
