// Highway targets by name for the benchmark programs: `--target NAME`
// (a name as hwy::TargetName prints it: AVX3, AVX2, SSE4, ...; `all` for
// every target this CPU has) restricts the impl's dispatch to that target,
// so one machine measures the code each kind of CPU would run.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hwy/targets.h"

namespace tilecheck::bench {

// The Highway targets this build has and this CPU runs, by name.
inline std::string supported_target_names() {
  std::string s;
  for (const int64_t t : hwy::SupportedAndGeneratedTargets()) s += std::string(s.empty() ? "" : " ") + hwy::TargetName(t);
  return s;
}

// The target a run dispatches to: `target`, or the best one for 0.
inline std::string target_name(int64_t target) {
  return hwy::TargetName(target != 0 ? target : hwy::SupportedAndGeneratedTargets().front());
}

// Takes --target NAME / --target=NAME out of argv (so that the rest of the
// program, Google Benchmark say, does not see it) into `list`: {0} (the
// best target, dispatch unrestricted) without one. Returns false, having
// printed one line naming this CPU's targets, for a target Highway does not
// know or this CPU lacks. `asked` is the name as given.
inline bool parse_target(int& argc, char** argv, std::vector<int64_t>& list, std::string& asked) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    int used = 0;
    if (a == "--target") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: --target needs a name; this CPU has: %s (or all)\n", supported_target_names().c_str());
        return false;
      }
      asked = argv[i + 1], used = 2;
    } else if (a.rfind("--target=", 0) == 0) {
      asked = a.substr(9), used = 1;
    } else {
      continue;
    }
    for (int j = i; j + used < argc; ++j) argv[j] = argv[j + used];
    argc -= used;
    --i;
  }
  if (asked.empty()) {
    list = {0};
    return true;
  }
  std::string upper = asked;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char ch) { return std::toupper(ch); });
  const std::vector<int64_t> supported = hwy::SupportedAndGeneratedTargets();
  if (upper == "ALL") {
    list = supported;
    return true;
  }
  for (const int64_t t : supported) {
    if (upper == hwy::TargetName(t)) {
      list = {t};
      return true;
    }
  }
  bool known = false;
  for (int bit = 0; bit < 64; ++bit) known |= upper == hwy::TargetName(int64_t{1} << bit);
  std::fprintf(stderr, "error: --target %s: %s; this CPU has: %s (or all)\n", asked.c_str(),
               known ? "this CPU (or this build) does not have it" : "not a Highway target name",
               supported_target_names().c_str());
  return false;
}

}  // namespace tilecheck::bench
