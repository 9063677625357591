// The layout recipe's choices read from libFuzzer input, and layouts written
// as text at the front of an input.
//
// FuzzedChoices<Provider> adapts LLVM's FuzzedDataProvider (or anything with
// the same three calls) to tilecheck/gen/layout_recipe.h, so the fuzzers
// generate layouts with the same recipe as the properties. It is a template
// so this header needs no compiler-specific include. FuzzedDataProvider
// returns the low end of a range once the input is used up, which the recipe
// maps to the simplest layout: short inputs mean small layouts.
//
//   FuzzedDataProvider fdp(data, size);
//   tilecheck::gen::FuzzedChoices choices(fdp);
//   ShapeWithLayout shape = tilecheck::gen::make_layout(choices);
//
// The other way to put a layout into an input is as text: the fuzz targets'
// TEXT mode (fuzz/layout_source.h, <tilecheck/testing/fuzz.h>) reads a layout
// in XLA's syntax off the front of the input (consume_layout_text), and the
// seed corpora write their layouts so (text_input), readable and open to
// the dictionary's textual mutations.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/gen/layout_recipe.h>

namespace tilecheck::gen {

template <class Provider>
class FuzzedChoices : public PicksFromRange<FuzzedChoices<Provider>> {
 public:
  explicit FuzzedChoices(Provider& provider) : provider_(provider) {}

  int64_t in_range(int64_t lo, int64_t hi) {
    return hi <= lo ? lo : provider_.template ConsumeIntegralInRange<int64_t>(lo, hi);
  }

 private:
  Provider& provider_;
};

// A layout in XLA's syntax off the front of the input, ended by a backslash
// and one more byte (FuzzedDataProvider::ConsumeRandomLengthString); nullopt
// when the text does not parse. It may be any size and need not pass
// spec::validate: the caller decides.
template <class Provider>
std::optional<ShapeWithLayout> consume_layout_text(Provider& provider) {
  try {
    return parse_shape(provider.ConsumeRandomLengthString());
  } catch (const Error&) {
    return std::nullopt;
  }
}

// For the targets that touch every element: nullopt unless `shape` passes
// spec::validate, else the shape shrunk into `limits` (fit_to_budget: halve
// the largest dim, drop trailing tiles too large on their own), so that a
// large TEXT layout (the catalogue's, a mutated one) still gives a case.
// Recipe layouts already fit.
inline std::optional<ShapeWithLayout> fit_for_data(ShapeWithLayout shape, const RecipeLimits& limits) {
  try {
    spec::validate(shape);
  } catch (const Error&) {
    return std::nullopt;
  }
  // Valid, so the element count fits int64, as fit_to_budget assumes.
  fit_to_budget(shape, limits);
  return shape;
}

// The input bytes that decode, in TEXT mode, to `layout_texts` (read one
// after the other by consume_layout_text), then to `choice_bytes` for the
// later choices (read from their end backwards) and the front-read bulk
// data (from their start), then one TEXT mode byte (1) per layout, the
// first layout's the very last byte of the input.
inline std::string text_input(std::initializer_list<std::string_view> layout_texts,
                              std::string_view choice_bytes = {}) {
  std::string bytes;
  for (std::string_view text : layout_texts) {
    // ConsumeRandomLengthString reads "\\" as one backslash and stops at a
    // backslash followed by anything else; layout texts have no backslash.
    bytes += text;
    bytes += "\\\n";
  }
  bytes += choice_bytes;
  bytes += std::string(layout_texts.size(), '\x01');
  return bytes;
}

// A splitmix64 stream of `size` bytes from `seed`: bulk data that a single
// choice controls (physical buffers with garbage in the padding), and the
// pseudo-random part of seed inputs.
inline std::vector<uint8_t> random_bytes(uint64_t seed, size_t size) {
  std::vector<uint8_t> bytes(size);
  // A word at a time: buffers reach tens of kilobytes, and a loop per byte
  // would cost a coverage callback per byte.
  for (size_t i = 0; i < size; i += 8) {
    const uint64_t word = splitmix64(seed);
    uint8_t little_endian[8];
    for (int k = 0; k < 8; ++k) little_endian[k] = static_cast<uint8_t>(word >> (8 * k));
    std::memcpy(bytes.data() + i, little_endian, std::min<size_t>(8, size - i));
  }
  return bytes;
}

}  // namespace tilecheck::gen
