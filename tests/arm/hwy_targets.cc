// Prints the Highway targets this build compiled that the machine (or
// qemu's CPU) supports, best first, with the vector size each runs at:
// the targets impl_test's KernelTargets and the EveryTargetMatchesSpec
// property loop over (hwy::SupportedAndGeneratedTargets, the same compiler
// and flags as impl/kernels.cc). One line, e.g.
//   SVE2_128:16 SVE2:16 SVE:16 NEON:16
// scripts/test-arm prints it for each qemu CPU.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/arm/hwy_targets.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace tilecheck::arm::HWY_NAMESPACE {
size_t VectorBytes() { return hwy::HWY_NAMESPACE::Lanes(hwy::HWY_NAMESPACE::ScalableTag<uint8_t>()); }
}  // namespace tilecheck::arm::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cstdio>
#include <vector>

#include "hwy/targets.h"

namespace tilecheck::arm {
HWY_EXPORT(VectorBytes);
}  // namespace tilecheck::arm

int main() {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  for (size_t i = 0; i < targets.size(); ++i) {
    hwy::SetSupportedTargetsForTest(targets[i]);
    std::printf("%s%s:%zu", i ? " " : "", hwy::TargetName(targets[i]),
                HWY_DYNAMIC_DISPATCH(tilecheck::arm::VectorBytes)());
  }
  hwy::SetSupportedTargetsForTest(0);
  std::printf("\n");
  return targets.empty() ? 1 : 0;
}
#endif  // HWY_ONCE
