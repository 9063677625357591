#include "fuzz/layout_source.h"

#include <tilecheck/gen/layout_mutation.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::fuzz {

namespace {

// The layout of a TEXT (low bit 1) or RECIPE mode byte.
std::optional<ShapeWithLayout> layout_of_mode(uint8_t mode, FuzzedDataProvider& input, Choices& choices,
                                              const gen::RecipeLimits& recipe_limits) {
  if ((mode & 1) == 0) return gen::make_layout(choices, recipe_limits);
  return gen::consume_layout_text(input);  // parse_layout fuzzes the parser; here only layouts matter
}

}  // namespace

std::optional<ShapeWithLayout> consume_layout(FuzzedDataProvider& input, Choices& choices,
                                              const gen::RecipeLimits& recipe_limits) {
  return layout_of_mode(input.ConsumeIntegral<uint8_t>(), input, choices, recipe_limits);
}

std::optional<ShapeWithLayout> consume_data_layout(FuzzedDataProvider& input, Choices& choices) {
  const uint8_t mode = input.ConsumeIntegral<uint8_t>();
  if ((mode & 3) == 2) return gen::make_kernel_layout(choices, kKernelElements);
  const std::optional<ShapeWithLayout> raw = layout_of_mode(mode, input, choices, kDataLimits);
  return raw ? gen::fit_for_data(*raw, kDataLimits) : std::nullopt;
}

bool valid_within(const ShapeWithLayout& shape, const gen::RecipeLimits& limits) {
  try {
    spec::validate(shape);
    return spec::element_count(shape) <= limits.max_elements &&
           spec::padded_element_count(shape) <= limits.max_padded_elements;
  } catch (const Error&) {
    return false;
  }
}

size_t mutate_input(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                    const gen::RecipeLimits& recipe_limits, bool kernel_mode) {
  return gen::mutate_input(
      data, size, max_size, seed,
      [&](uint8_t mode, Choices& choices) -> std::optional<ShapeWithLayout> {
        if (kernel_mode && (mode & 3) == 2) return std::nullopt;
        return gen::make_layout(choices, recipe_limits);
      },
      [](const ShapeWithLayout&) { return true; }, gen::libfuzzer_mutate);
}

}  // namespace tilecheck::fuzz
