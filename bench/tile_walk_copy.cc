// tile_walk_copy: the tile walk of a tiled pack or unpack alone, as a
// reference for the impl. The bytes of a dense [rows, ROW_BYTES] array are
// copied into tiles of TILE_ROWS rows of PIECE_BYTES (tile after tile, each
// tile's rows in turn: the order of the impl's cached panels) and back,
// with plain full-width vector loads and stores: no interleave, no plan
// walk, no call per tile. That is the memory traffic of every tiled layout
// of those pieces and nothing else. In the caches its speed still depends
// on details of the code (docs/BENCHMARKING.md, "The tile walk alone"), so
// it is a reference, not a bound. It is timed against memcpy of the same
// bytes by thread CPU time in alternating rounds, with buffers allocated
// as pack_memcpy_ratio allocates them, so the ratios of the two programs
// compare.
//
//   tile_walk_copy [--rounds=N] [--target NAME|all | --rep-movsb] ROW_BYTES PIECE_BYTES TILE_ROWS BYTES...
//
// --rep-movsb (x86-64 only) copies each piece with one `rep movsb`, the
// instruction glibc's memcpy copies these sizes with, instead of vectors:
// with TILE_ROWS 1 and ROW_BYTES = BYTES it is memcpy in PIECE_BYTES
// pieces.
//
// `tile_walk_copy 512 128 8 65536 1048576` is the walk of
// s8[rows,512]{1,0:T(8,128)(4,1)} (and of u8[rows,512]{1,0:T(8,128)}) at
// 64 KiB and 1 MiB. PIECE_BYTES is a multiple of 64 and divides ROW_BYTES;
// each size is whole tile rows (ROW_BYTES * TILE_ROWS).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/tile_walk_copy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace tilecheck::bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// `bytes` (whole vectors) from `from` to `to`, four vectors per step.
HWY_INLINE void CopyVectors(const uint8_t* HWY_RESTRICT from, uint8_t* HWY_RESTRICT to, int64_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + 4 * N <= bytes; i += 4 * N) {
    const auto v0 = hn::LoadU(d, from + i), v1 = hn::LoadU(d, from + i + N);
    const auto v2 = hn::LoadU(d, from + i + 2 * N), v3 = hn::LoadU(d, from + i + 3 * N);
    hn::StoreU(v0, d, to + i);
    hn::StoreU(v1, d, to + i + N);
    hn::StoreU(v2, d, to + i + 2 * N);
    hn::StoreU(v3, d, to + i + 3 * N);
  }
  for (; i < bytes; i += N) hn::StoreU(hn::LoadU(d, from + i), d, to + i);
}

// `bytes` from `from` to `to` with one `rep movsb` (x86-64; main refuses
// --rep-movsb elsewhere).
HWY_INLINE void RepMovsb(const uint8_t* from, uint8_t* to, int64_t bytes) {
#if HWY_ARCH_X86_64
  size_t n = static_cast<size_t>(bytes);
  asm volatile("rep movsb" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
#else
  (void)from, (void)to, (void)bytes;
#endif
}

// Dense rows to tiles (to_tiles) or back, over `bytes` of whole tile rows,
// each piece copied by `copy`.
template <class Copy>
HWY_INLINE void WalkPieces(const uint8_t* from, uint8_t* to, int64_t bytes, int64_t row_bytes, int64_t piece,
                           int64_t tile_rows, bool to_tiles, Copy copy) {
  const int64_t band = row_bytes * tile_rows, tile = piece * tile_rows;
  for (int64_t b = 0; b < bytes; b += band) {
    for (int64_t t = 0; t < row_bytes / piece; ++t) {
      for (int64_t r = 0; r < tile_rows; ++r) {
        const int64_t dense = b + r * row_bytes + t * piece, tiled = b + t * tile + r * piece;
        to_tiles ? copy(from + dense, to + tiled, piece) : copy(from + tiled, to + dense, piece);
      }
    }
  }
}
void Walk(const uint8_t* from, uint8_t* to, int64_t bytes, int64_t row_bytes, int64_t piece, int64_t tile_rows,
          bool to_tiles, bool rep_movsb) {
  if (rep_movsb) {
    WalkPieces(from, to, bytes, row_bytes, piece, tile_rows, to_tiles, RepMovsb);
  } else {
    WalkPieces(from, to, bytes, row_bytes, piece, tile_rows, to_tiles, CopyVectors);
  }
}

}  // namespace tilecheck::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/cpu_rounds.h"
#include "bench/targets.h"

namespace tilecheck::bench {
HWY_EXPORT(Walk);

namespace {

// memcpy, the walk to tiles and the walk back, alternating in `rounds`
// rounds; prints GB/s and the walks' ratios to memcpy. Returns false if the
// walk there and back does not give the array back.
bool measure(const std::string& label, int64_t bytes, int64_t row_bytes, int64_t piece, int64_t tile_rows,
             int rounds, bool rep_movsb) {
  const size_t n = static_cast<size_t>(bytes);
  AlignedBytes dense(n, 64), tiled(n, 64), back(n, 64), copy(n, 64);  // as pack_memcpy_ratio allocates
  for (size_t i = 0; i < n; ++i) dense.p[i] = static_cast<uint8_t>(i * 131 + (i >> 9));
  const std::array<double, 3> best = best_of_rounds(rounds, n, [&](int k) {
    if (k == 0) {
      std::memcpy(copy.p, dense.p, n);
    } else {
      HWY_DYNAMIC_DISPATCH(Walk)(k == 1 ? dense.p : tiled.p, k == 1 ? tiled.p : back.p, bytes, row_bytes, piece,
                                 tile_rows, k == 1, rep_movsb);
    }
  });
  const bool ok = std::memcmp(dense.p, back.p, n) == 0;
  print_rates(label, 40, n, best, {"memcpy", "to tiles", "from tiles", "to/mc", "from/mc"}, ok);
  return ok;
}

int usage(const char* why) {
  std::fprintf(stderr,
               "error: %s\nusage: tile_walk_copy [--rounds=N] [--target NAME|all | --rep-movsb] ROW_BYTES PIECE_BYTES "
               "TILE_ROWS BYTES...\n",
               why);
  return 2;
}

}  // namespace
}  // namespace tilecheck::bench

int main(int argc, char** argv) {
  using namespace tilecheck::bench;
  std::vector<int64_t> targets;
  std::string asked;
  if (!parse_target(argc, argv, targets, asked)) return 2;
  int rounds = 11;
  bool rep_movsb = false;
  std::vector<int64_t> numbers;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--rounds=", 0) == 0) {
      rounds = parse_rounds(a);
      if (rounds == 0) return usage((a + ": N must be a whole number from 1 to 100000").c_str());
      continue;
    }
    if (a == "--rep-movsb") {
      if (!HWY_ARCH_X86_64) return usage("--rep-movsb needs an x86-64 CPU");
      if (!asked.empty()) return usage("--rep-movsb copies without vectors: it takes no --target");
      rep_movsb = true;
      continue;
    }
    char* end = nullptr;
    const long long v = std::strtoll(a.c_str(), &end, 10);
    if (a.empty() || *end != '\0' || v <= 0 || v > (int64_t{1} << 34)) {
      return usage(("'" + a + "' is not an option or a positive byte count up to 16 GiB").c_str());
    }
    numbers.push_back(v);
  }
  if (numbers.size() < 4) return usage("ROW_BYTES, PIECE_BYTES, TILE_ROWS and at least one size are needed");
  const int64_t row_bytes = numbers[0], piece = numbers[1], tile_rows = numbers[2];
  if (piece % 64 != 0 || row_bytes % piece != 0) return usage("PIECE_BYTES must be a multiple of 64 that divides ROW_BYTES");
  // Every size is checked before the first is measured.
  const std::vector<int64_t> sizes(numbers.begin() + 3, numbers.end());
  for (const int64_t bytes : sizes) {
    if (tile_rows > bytes / row_bytes || bytes % (row_bytes * tile_rows) != 0) {
      return usage(("size " + std::to_string(bytes) + " is not whole tile rows of " + std::to_string(tile_rows) +
                    " rows of " + std::to_string(row_bytes) + " bytes")
                       .c_str());
    }
  }
  bool all_ok = true;
  for (const int64_t bytes : sizes) {
    for (const int64_t t : targets) {
      hwy::SetSupportedTargetsForTest(t);
      const std::string label = "rows " + std::to_string(row_bytes) + " B, tiles " + std::to_string(tile_rows) + "x" +
                                std::to_string(piece) + " B, " + std::to_string(bytes >> 10) + " KiB@" +
                                (rep_movsb ? "rep movsb" : target_name(t));
      all_ok = measure(label, bytes, row_bytes, piece, tile_rows, rounds, rep_movsb) && all_ok;
      hwy::SetSupportedTargetsForTest(0);
    }
  }
  return all_ok ? 0 : 1;
}
#endif  // HWY_ONCE
