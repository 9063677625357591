// The properties' main: GoogleTest with RapidCheck defaults that make a plain
// run reproducible.
//
// Unless the caller says otherwise, every run uses a fixed seed and
// max_success=1000 (the ctest default). RC_PARAMS from the environment is
// appended after the defaults, and RapidCheck lets a later key win, so
// RC_PARAMS="max_success=100000" soaks with the same seed,
// RC_PARAMS="seed=123" changes it, and RC_PARAMS="reproduce=..." replays a
// reported failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {
constexpr const char* kDefaultParams = "seed=20261122 max_success=1000";
}

int main(int argc, char** argv) {
  const char* user = std::getenv("RC_PARAMS");
  const std::string params = std::string(kDefaultParams) + (user ? std::string(" ") + user : "");
  setenv("RC_PARAMS", params.c_str(), 1);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
