// A driver of LLVMFuzzerTestOneInput without a fuzzing engine, for the
// tests of the testing kit's harnesses: runs the target on N pseudo-random
// inputs (splitmix64, seed 1) of 0 to 63 bytes and says how many it ran.
// A harness that finds a bug aborts with its message before that.
//   fuzz_random_driver N
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <tilecheck/gen/layout_recipe.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
  uint64_t state = 1;
  for (long i = 0; i < n; ++i) {
    std::vector<uint8_t> input(tilecheck::gen::splitmix64(state) % 64);
    for (uint8_t& b : input) b = static_cast<uint8_t>(tilecheck::gen::splitmix64(state));
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::printf("ran %ld random inputs\n", n);
  return 0;
}
