// Seed corpora and a dictionary for the harnesses of <tilecheck/testing/fuzz.h>
// (docs/TESTING.md, "Seeds and a dictionary"). The command
// tilecheck-fuzz-seeds writes them; a program of your own can call these.
//
//   fuzz_seeds(options)    inputs in the harnesses' format: every layout of
//                          tilecheck's catalogue and every layout you name
//                          in TEXT mode (the layout readable at the front,
//                          then pseudo-random bytes for the physical buffer
//                          an unpack harness reads and for the dense data),
//                          and pseudo-random RECIPE-mode inputs.
//   layout_dictionary()    libFuzzer's dictionary format: the tokens of
//                          XLA's layout syntax (element types, T(, E(, ...),
//                          which the TEXT-mode seeds let the fuzzer use.
//
// Needs no clang and no FuzzedDataProvider: only tilecheck::testing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilecheck::testing {

struct FuzzSeedOptions {
  std::string profile = "general";  // the harness's profile: TEXT layouts are shrunk to its budget
  std::vector<std::string> layouts;  // yours, in XLA's syntax; each must parse and validate
  bool catalog = true;               // every entry of tilecheck's catalogue
  int recipe_seeds = 16;             // pseudo-random RECIPE-mode inputs
};

struct FuzzSeed {
  std::string name;    // a file name: catalog_<entry>, layout_<k>, recipe_<k>
  std::string bytes;   // the input
  std::string layout;  // the layout a TEXT seed gives the harness (after shrinking); empty for RECIPE
};

// Throws tilecheck::Error naming the profile or the layout when one of
// `options` is invalid.
std::vector<FuzzSeed> fuzz_seeds(const FuzzSeedOptions& options);

std::string_view layout_dictionary();

}  // namespace tilecheck::testing
