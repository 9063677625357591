// A reproducer for XLA's TransposePlan, in XLA's own API: OutputNumElems()
// of a plan whose output has a tiled rank-1 shape leaves out the padding of
// the last tile, although the header says the count "accounts for tiling".
// Plan creation treats a rank-1 output tiling with default strides as one
// that only pads, and drops it.
//
// It exits 1 while the finding holds, 0 once it is fixed, 2 if a plan
// cannot be made. Build it beside xla/pjrt/transpose.cc (tilecheck builds it
// as peers/xla/reproducers, docs/IMPLEMENTATIONS.md).
#include <cinttypes>
#include <cstdint>
#include <cstdio>

#include "xla/pjrt/transpose.h"

namespace {

struct Case {
  const char* what;
  size_t elem_size_in_bytes;
  int64_t dim;
  int64_t tile;
  // The elements of the tiled output: the dim rounded up to a whole tile.
  // From tilecheck's spec of XLA's tiled layouts (`tilecheck size LAYOUT`);
  // its model of the sizes XLA's ShapeUtil gives (`tilecheck gate
  // --size-model xla`) says the same.
  int64_t expected_elems;
};

// `tilecheck size 'u8[7]{0:T(4)}'`: 8 bytes, 8 elements of 1 byte.
// `tilecheck size 'f32[]{:T(2)}'`: 8 bytes, 2 elements of 4 bytes; a
// TransposePlan states the scalar as dims {1} under a tile of 2.
constexpr Case kCases[] = {
    {"u8[7]{0:T(4)}: dims {7}, output tiling {4}", 1, 7, 4, 8},
    {"f32[]{:T(2)}: dims {1}, output tiling {2}", 4, 1, 2, 2},
};

}  // namespace

int main() {
  bool holds = false;
  for (const Case& c : kCases) {
    const int64_t dims[] = {c.dim};
    const int64_t permutation[] = {0};
    const int64_t tiling[] = {c.tile};
    xla::TransposePlan::Options options;
    options.elem_size_in_bytes = c.elem_size_in_bytes;
    options.dims = dims;
    options.permutation = permutation;
    options.output_tiling = xla::TransposePlan::Tiling{tiling};
    auto plan = xla::TransposePlan::Create(options);
    if (!plan.ok()) {
      std::printf("%s: TransposePlan::Create failed: %s\n", c.what, plan.status().ToString().c_str());
      return 2;
    }
    const int64_t got = (*plan)->OutputNumElems();
    std::printf("%s: OutputNumElems() expected %" PRId64 ", got %" PRId64 "%s\n", c.what, c.expected_elems, got,
                got == c.expected_elems ? "" : "  <-- the padding of the last tile is left out");
    holds = holds || got != c.expected_elems;
  }
  return holds ? 1 : 0;
}
