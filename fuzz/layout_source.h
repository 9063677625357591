// How the differential fuzz targets turn input bytes into layouts and data.
//
// Input format (FuzzedDataProvider: integers are read off the END of the
// input, strings off the FRONT):
//
//   last byte, low bit = 1   TEXT: the front of the input is a layout in XLA
//                            syntax, ended by '\' and one more byte
//                            (FuzzedDataProvider::ConsumeRandomLengthString),
//                            e.g. "bf16[16,256]{1,0:T(8,128)(2,1)}\\\n...\x01".
//                            Seeds use it (the document's examples, the
//                            catalogue, the TPU formats stay readable), and the
//                            fuzzer mutates real layouts textually. The text may
//                            be invalid or huge: each target says what it does.
//   last byte, low bit = 0   RECIPE: tilecheck/gen/layout_recipe.h make_layout,
//                            its choices read from the remaining bytes
//                            (FuzzedChoices). Always a valid, small layout;
//                            an exhausted input yields the simplest one.
//   last byte, low bits = 10 KERNEL, for pack_roundtrip (consume_data_layout;
//                            the other targets read it as RECIPE):
//                            layout_recipe.h make_kernel_layout, a layout
//                            shaped for the SIMD kernels, larger than
//                            kDataLimits allows (kKernelElements).
//
// A target that needs two layouts (relayout_differential) reads a second
// mode byte and layout the same way, after the first.
//
// Every later choice (elements, data, threads) is read through the same
// FuzzedChoices, so the recipe's helpers (make_element, make_dense_data) serve
// both modes.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/gen/fuzzed_choices.h>
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::fuzz {

using Choices = gen::FuzzedChoices<FuzzedDataProvider>;

// Bounds for the targets that touch every element (pack, relayout). The
// spec's reference pack indexes every element (a few small vectors each,
// each allocation costly under ASan) and runs twice per input, so the
// element cap weighs on those targets' speed. 32 is the
// smallest cap that still reaches every row-interleave kernel the TPU
// formats use up to (8,1) (16 never runs the 4-bit one); the bugs these
// targets hunt (ragged tails, padding, bit order, combined dims) all show on
// small arrays. 4096 padded positions keep the pred format T(32,128)(32,1)
// whole. TEXT layouts larger than this are shrunk to fit the same way.
inline constexpr gen::RecipeLimits kDataLimits{32, 4096};

// Layouts of KERNEL mode have at most this many elements: a transposing
// panel's 16x16 block needs 256 and the u8 (4,1) vector loops 4 rows of 64
// columns; more would slow the target down for no new path.
inline constexpr int64_t kKernelElements = 1024;

// A shape from the input, or nullopt when TEXT does not parse. RECIPE mode
// gives a valid layout within `recipe_limits`; TEXT mode whatever parses.
std::optional<ShapeWithLayout> consume_layout(FuzzedDataProvider& input, Choices& choices,
                                              const gen::RecipeLimits& recipe_limits);

// For pack_roundtrip: in KERNEL mode a layout shaped for the SIMD kernels
// (at most kKernelElements), else consume_layout then gen::fit_for_data within
// kDataLimits.
std::optional<ShapeWithLayout> consume_data_layout(FuzzedDataProvider& input, Choices& choices);

// True when `shape` passes spec::validate and has at most limits.max_elements
// elements and limits.max_padded_elements padded positions.
bool valid_within(const ShapeWithLayout& shape, const gen::RecipeLimits& limits);

// The structure-aware mutation of an input (gen/layout_mutation.h) for a
// target whose first layout is consume_layout(..., recipe_limits), or
// consume_data_layout when `kernel_mode` (its KERNEL inputs are left to
// libFuzzer's own mutation).
size_t mutate_input(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                    const gen::RecipeLimits& recipe_limits, bool kernel_mode);

}  // namespace tilecheck::fuzz

// Defines LLVMFuzzerCustomMutator for a target that reads its first layout
// as mutate_input says.
#define TILECHECK_LAYOUT_MUTATOR(recipe_limits, kernel_mode)                                          \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned seed) { \
    return tilecheck::fuzz::mutate_input(data, size, max_size, seed, recipe_limits, kernel_mode);      \
  }

// Defines LLVMFuzzerTestOneInput for a differential target whose checks are
// `void check(FuzzedDataProvider& input, tilecheck::fuzz::Choices& choices)`.
#define TILECHECK_DIFFERENTIAL_TARGET(check)                                 \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { \
    FuzzedDataProvider input(data, size);                                   \
    tilecheck::fuzz::Choices choices(input);                                \
    check(input, choices);                                                  \
    return 0;                                                               \
  }
