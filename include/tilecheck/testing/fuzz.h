// libFuzzer for your own layout code (docs/TESTING.md, "Fuzzing"):
//
//   fuzz_case(input, "tpu")   libFuzzer's bytes (a FuzzedDataProvider) to a
//                             layout and a dense array for it, read as
//                             tilecheck's own fuzz targets read them: the last
//                             byte is the mode. Low bit 0 (RECIPE): a layout of
//                             the profile from the recipe of tilecheck's fuzz
//                             targets and properties, its choices read off the
//                             end of the input; an exhausted input gives the
//                             simplest layout, so short inputs mean small
//                             layouts. Low bit 1 (TEXT): a layout in XLA's
//                             syntax at the front of the input, ended by a
//                             backslash and a newline (the seeds of
//                             tilecheck-fuzz-seeds), shrunk to the profile's
//                             budget; text that does not parse or validate
//                             falls back to RECIPE. Never a layout tilecheck
//                             rejects.
//
// and ready harnesses: you write your pack (or unpack) and which layouts it
// handles,
//
//   std::vector<uint8_t> my_pack(const tilecheck::ShapeWithLayout& layout,
//                                std::span<const uint8_t> dense);
//   bool my_pack_claims(const tilecheck::ShapeWithLayout& layout);
//   TILECHECK_FUZZ_PACK(my_pack, my_pack_claims, "tpu")
//
// and get LLVMFuzzerTestOneInput: for each input, a layout of the profile;
// when your code claims it, its answer compared with the spec's (compare.h);
// a difference is printed on stderr and aborts, so libFuzzer reports it and
// saves the input. TILECHECK_FUZZ_UNPACK(my_unpack, claims, profile) does
// the same for unpack, with a physical buffer from the input (its padding
// holds whatever the input says, which unpack must ignore).
//
// FuzzedDataProvider.h comes with clang (Debian: libclang-rt-14-dev). Link
// tilecheck::testing and build with clang's -fsanitize=fuzzer (or any
// driver of LLVMFuzzerTestOneInput).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/gen/fuzzed_choices.h>
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/profiles.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/testing/compare.h>

namespace tilecheck::testing {

struct FuzzCase {
  ShapeWithLayout layout;
  std::vector<uint8_t> dense;  // the spec's convention, canonical
};

namespace detail {

[[noreturn]] inline void fuzz_failure(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

inline gen::Profile fuzz_profile(std::string_view name) {
  const std::optional<gen::Profile> profile = gen::profile_from_name(name);
  if (!profile) fuzz_failure("tilecheck fuzz harness: unknown profile '" + std::string(name) + "'");
  return *profile;
}

}  // namespace detail

// A layout of the profile ("general", "tpu" or "gpu"; an unknown name
// aborts with a message) and a dense array for it, from the input.
inline FuzzCase fuzz_case(FuzzedDataProvider& input, std::string_view profile = "general") {
  const gen::Profile p = detail::fuzz_profile(profile);
  const gen::RecipeLimits limits = gen::profile_limits(p, gen::kExhaustiveLimits);
  gen::FuzzedChoices<FuzzedDataProvider> choices(input);
  std::optional<ShapeWithLayout> text;
  if (input.ConsumeIntegral<uint8_t>() & 1) {  // TEXT mode
    text = gen::consume_layout_text(input);
    if (text) text = gen::fit_for_data(*text, limits);
  }
  FuzzCase c;
  c.layout = text ? *text : gen::make_profile_layout(choices, p, limits);
  c.dense = spec::canonical_dense(c.layout, gen::make_dense_data(choices, c.layout));
  return c;
}

namespace detail {

template <class Pack, class Claims>
int fuzz_pack(const uint8_t* data, size_t size, Pack pack, Claims claims, std::string_view profile) {
  FuzzedDataProvider input(data, size);
  const FuzzCase c = fuzz_case(input, profile);
  if (!claims(c.layout)) return 0;
  const auto packed = pack(c.layout, std::span<const uint8_t>(c.dense));
  const std::string mismatch = pack_mismatch(c.layout, c.dense, packed);
  if (!mismatch.empty()) fuzz_failure(mismatch);
  return 0;
}

template <class Unpack, class Claims>
int fuzz_unpack(const uint8_t* data, size_t size, Unpack unpack, Claims claims, std::string_view profile) {
  FuzzedDataProvider input(data, size);
  const FuzzCase c = fuzz_case(input, profile);
  if (!claims(c.layout)) return 0;
  std::vector<uint8_t> packed = input.ConsumeBytes<uint8_t>(static_cast<size_t>(spec::byte_size(c.layout)));
  packed.resize(static_cast<size_t>(spec::byte_size(c.layout)), 0);
  const auto dense = unpack(c.layout, std::span<const uint8_t>(packed));
  const std::string mismatch = unpack_mismatch(c.layout, packed, dense);
  if (!mismatch.empty()) fuzz_failure(mismatch);
  return 0;
}

}  // namespace detail
}  // namespace tilecheck::testing

#define TILECHECK_FUZZ_PACK(pack, claims, profile)                                    \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {           \
    return ::tilecheck::testing::detail::fuzz_pack(data, size, pack, claims, profile); \
  }
#define TILECHECK_FUZZ_UNPACK(unpack, claims, profile)                                    \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {               \
    return ::tilecheck::testing::detail::fuzz_unpack(data, size, unpack, claims, profile); \
  }
