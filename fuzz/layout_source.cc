#include "fuzz/layout_source.h"

#include <algorithm>
#include <cstring>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::fuzz {

namespace {

// The layout of a TEXT (low bit 1) or RECIPE mode byte.
std::optional<ShapeWithLayout> layout_of_mode(uint8_t mode, FuzzedDataProvider& input, Choices& choices,
                                              const gen::RecipeLimits& recipe_limits) {
  if ((mode & 1) == 0) return gen::make_layout(choices, recipe_limits);
  try {
    return parse_shape(input.ConsumeRandomLengthString());
  } catch (const Error&) {
    return std::nullopt;  // parse_layout fuzzes the parser; here only layouts matter
  }
}

}  // namespace

std::optional<ShapeWithLayout> consume_layout(FuzzedDataProvider& input, Choices& choices,
                                              const gen::RecipeLimits& recipe_limits) {
  return layout_of_mode(input.ConsumeIntegral<uint8_t>(), input, choices, recipe_limits);
}

std::optional<ShapeWithLayout> fit_for_data(ShapeWithLayout shape,
                                            const gen::RecipeLimits& limits) {
  try {
    spec::validate(shape);
  } catch (const Error&) {
    return std::nullopt;
  }
  // Valid, so the element count fits int64, as fit_to_budget assumes.
  gen::fit_to_budget(shape, limits);
  return shape;
}

std::optional<ShapeWithLayout> consume_data_layout(FuzzedDataProvider& input, Choices& choices) {
  const uint8_t mode = input.ConsumeIntegral<uint8_t>();
  if ((mode & 3) == 2) return gen::make_kernel_layout(choices, kKernelElements);
  const std::optional<ShapeWithLayout> raw = layout_of_mode(mode, input, choices, kDataLimits);
  return raw ? fit_for_data(*raw, kDataLimits) : std::nullopt;
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

std::string text_input(std::initializer_list<std::string_view> layout_texts,
                       std::string_view choice_bytes) {
  std::string bytes;
  for (std::string_view text : layout_texts) {
    // ConsumeRandomLengthString reads "\\" as one backslash and stops at a
    // backslash followed by anything else; layout texts have no backslash.
    bytes += text;
    bytes += "\\\n";
  }
  bytes += choice_bytes;
  // One mode byte per layout, TEXT; the first layout's is the very last byte.
  bytes += std::string(layout_texts.size(), '\x01');
  return bytes;
}

std::vector<uint8_t> random_bytes(uint64_t seed, size_t size) {
  std::vector<uint8_t> bytes(size);
  // A word at a time: buffers reach tens of kilobytes, and a loop per byte
  // would cost a coverage callback per byte.
  for (size_t i = 0; i < size; i += 8) {
    const uint64_t word = gen::splitmix64(seed);
    uint8_t little_endian[8];
    for (int k = 0; k < 8; ++k) little_endian[k] = static_cast<uint8_t>(word >> (8 * k));
    std::memcpy(bytes.data() + i, little_endian, std::min<size_t>(8, size - i));
  }
  return bytes;
}

}  // namespace tilecheck::fuzz
