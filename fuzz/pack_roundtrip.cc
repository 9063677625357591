// Fuzz target pack_roundtrip: the impl's PackPlan against the spec's
// element-by-element pack/unpack, on one layout and one dense array per input
// (layout_source.h consume_data_layout; invalid TEXT layouts are skipped,
// index_differential covers those, and large ones are shrunk into
// kDataLimits; KERNEL inputs are larger layouts shaped for the SIMD kernels).
//
// Contract checked, byte for byte:
//   - pack: impl pack(x) == spec pack(x), into a buffer pre-filled with
//     non-zero bytes, so padding the impl fails to zero (D8) shows up;
//   - unpack(pack(x)) == x with the bits above the element width cleared
//     (pack ignores them, unpack writes zero there);
//   - unpack of an arbitrary physical buffer (garbage in the padding, which
//     unpack must ignore) == spec unpack of it;
//   - a buffer of the wrong size is a clear Error and nothing is written;
//   - the thread count does not change a byte (ExecOptions.threads 1 or 2),
//     and the thread schedule keeps its invariants for 2, 3 and 8 threads
//     (check/thread_schedule.h: no two threads write one byte);
//   - the same on the SIMD target and with the size thresholds the input
//     picks (fuzz/exec_choice.h: every target, large-array paths at small size).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/check.h"
#include "fuzz/exec_choice.h"
#include "fuzz/layout_source.h"
#include "check/buffers.h"
#include "check/thread_schedule.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::fuzz {
namespace {

// Sizes off by one either way must be rejected before anything is written:
// `out` (a physical buffer of the right size, reused) is filled with a marker
// byte that must survive.
void check_wrong_sizes(const impl::PackPlan& plan, const std::vector<uint8_t>& dense,
                       std::vector<uint8_t>& out, Choices& choices, const Printed& s) {
  const bool shorter = choices.flip();
  std::vector<uint8_t> bad_dense = dense;
  if (shorter && bad_dense.empty()) return;
  shorter ? bad_dense.pop_back() : bad_dense.push_back(0);
  constexpr uint8_t kMarker = 0xA5;
  std::fill(out.begin(), out.end(), kMarker);
  const bool threw = error_of([&] { plan.pack(bad_dense, out); }).has_value();
  // Every byte is the marker: the first is, and each equals the next (one
  // memcmp of the buffer against itself shifted by a byte, not a call per byte).
  const bool untouched =
      out.empty() || (out[0] == kMarker && std::memcmp(out.data(), out.data() + 1, out.size() - 1) == 0);
  FUZZ_CHECK(threw && untouched,
             s << ": pack with a " << bad_dense.size() << "-byte dense buffer "
               << (threw ? "wrote before throwing" : "did not throw"));
}

void check_input(FuzzedDataProvider& input, Choices& choices) {
  const std::optional<ShapeWithLayout> shape = consume_data_layout(input, choices);
  if (!shape) return;
  const Printed s{*shape};
  std::optional<impl::PackPlan> built;
  const std::optional<std::string> rejected = error_of([&] { built.emplace(*shape); });
  FUZZ_CHECK(!rejected, s << ": the spec accepts it, the impl rejects it: " << *rejected);
  const impl::PackPlan& plan = *built;

  // Threads: mostly 1 (a thread start per input would dominate), sometimes 2.
  const impl::ExecOptions options{gen::sometimes(choices, 1, 16) ? 2 : 1};
  const std::vector<uint8_t> dense = gen::make_dense_data(choices, *shape);
  const std::vector<uint8_t> expected = spec::pack(*shape, dense);
  std::vector<uint8_t> physical(expected.size(), 0xA5);
  plan.pack(dense, physical, options);
  FUZZ_AGREE(check::bytes_agree(*shape, true, "pack differs from the spec", expected, physical),
             s << " (threads " << options.threads << ")");

  std::vector<uint8_t> round(dense.size(), 0x5A);
  plan.unpack(physical, round, options);
  const std::vector<uint8_t> canonical = spec::canonical_dense(*shape, dense);
  FUZZ_AGREE(check::bytes_agree(*shape, false, "unpack(pack(x)) != x", canonical, round), s);

  const std::vector<uint8_t> garbage =
      gen::random_bytes(static_cast<uint64_t>(choices.in_range(0, INT64_MAX)), expected.size());
  std::vector<uint8_t> unpacked(dense.size(), 0x5A);
  plan.unpack(garbage, unpacked, options);
  const std::vector<uint8_t> spec_unpacked = spec::unpack(*shape, garbage);
  FUZZ_AGREE(check::bytes_agree(*shape, false, "unpack of a buffer with garbage padding differs from the spec",
                                spec_unpacked, unpacked),
             s);

  check_wrong_sizes(plan, dense, physical, choices, s);
  const std::optional<std::string> problem = check::thread_schedule_problem(plan, {2, 3, 8});
  FUZZ_CHECK(!problem, s << ": thread schedule: " << *problem);

  // Again on the SIMD target and with the size thresholds the input picks
  // (fuzz/exec_choice.h), into 64-byte-aligned guarded buffers (the impl
  // streams only into aligned ones).
  const ExecChoice exec = consume_exec_choice(choices);
  const check::ScopedTarget on(exec.target);
  check::GuardedBuffer out(expected.size(), 0xA5);
  plan.pack(dense, out.span(), exec.options);
  FUZZ_CHECK(out.intact(), s << ": pack wrote outside the buffer (" << exec.describe() << ")");
  FUZZ_AGREE(check::bytes_agree(*shape, true, "pack differs from the spec", expected, out.bytes()),
             s << " (" << exec.describe() << ")");
  check::GuardedBuffer back(dense.size(), 0x5A);
  plan.unpack(garbage, back.span(), exec.options);
  FUZZ_CHECK(back.intact(), s << ": unpack wrote outside the buffer (" << exec.describe() << ")");
  FUZZ_AGREE(check::bytes_agree(*shape, false, "unpack of a buffer with garbage padding differs from the spec",
                                spec_unpacked, back.bytes()),
             s << " (" << exec.describe() << ")");
}

}  // namespace
}  // namespace tilecheck::fuzz

TILECHECK_DIFFERENTIAL_TARGET(tilecheck::fuzz::check_input)
TILECHECK_LAYOUT_MUTATOR(tilecheck::fuzz::kDataLimits, true)
