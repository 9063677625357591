// How a data target runs the impl a second time, as the input chooses: on
// one of the Highway SIMD targets compiled in and supported by this machine
// (not only the best one), and with the size thresholds that pick a code path
// (ExecOptions) either at their production values or at zero, so that the
// paths large arrays take (streaming stores, the staged and block panel
// paths, the automatic thread count) run on the small arrays a fuzzer makes.
// The choices are read after all of a target's other choices, so the
// existing corpora decode as before.
#pragma once

#include <hwy/targets.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/layout_source.h"
#include <tilecheck/impl/plan.h>

namespace tilecheck::fuzz {

struct ExecChoice {
  int64_t target = 0;  // a Highway target bit
  impl::ExecOptions options;
  std::string describe() const {
    return std::string("target ") + hwy::TargetName(target) + ", threads " + std::to_string(options.threads) +
           ", stream from " + std::to_string(options.stream_bytes) + " bytes";
  }
};

inline ExecChoice consume_exec_choice(Choices& choices) {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ExecChoice e;
  e.target = targets[static_cast<size_t>(choices.in_range(0, static_cast<int64_t>(targets.size()) - 1))];
  if (choices.flip()) {
    e.options.stream_bytes = 0;
    e.options.parallel_bytes = 0;
  }
  // Mostly one thread (a thread start per input would dominate), sometimes
  // the automatic count, which the lowered threshold makes all cores.
  e.options.threads = gen::sometimes(choices, 1, 16) ? 0 : 1;
  return e;
}

}  // namespace tilecheck::fuzz
