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
//   fuzz_case(input, family)  the same over your own family (family.h): RECIPE
//                             draws a layout of the family, TEXT takes the
//                             text only when it is one (else RECIPE), so every
//                             case is a layout of the family.
//
// and ready harnesses: you write your pack (or unpack) and which layouts it
// handles,
//
//   std::vector<uint8_t> my_pack(const tilecheck::ShapeWithLayout& layout,
//                                std::span<const uint8_t> dense);
//   bool my_pack_claims(const tilecheck::ShapeWithLayout& layout);
//   TILECHECK_FUZZ_PACK(my_pack, my_pack_claims, "tpu")
//   TILECHECK_FUZZ_PACK(my_pack, tilecheck::testing::every_layout,
//                       tilecheck::testing::family("u8[?,?]{1,0:T(32,128)(4,1)}"))
//
// and get LLVMFuzzerTestOneInput: for each input, a layout of the profile
// or family; when your code claims it, its answer compared with the spec's
// (compare.h); a difference is printed on stderr and aborts, so libFuzzer
// reports it and saves the input. TILECHECK_FUZZ_UNPACK(my_unpack, claims,
// source) does the same for unpack, with a physical buffer from the input
// (its padding holds whatever the input says, which unpack must ignore;
// past the input's end, pseudo-random bytes seeded by what it gave).
// When the run ends, the harness prints on stderr how many inputs reached
// your code: "tilecheck fuzz harness: 20000 of 20000 inputs (100.0%)
// reached my_pack (layouts: ...)".
//
// Each harness also defines LLVMFuzzerCustomMutator: half of libFuzzer's
// mutations change the input's layout by one structural step -- a dim moved
// past a threshold, for a profile also a tile level, the dim order, the type
// (gen/layout_mutation.h) -- and write it back as TEXT, the other half are
// libFuzzer's own. TILECHECK_FUZZ_MUTATOR=off in the environment makes them
// all libFuzzer's; define TILECHECK_FUZZ_NO_MUTATOR before including this
// header when you define your own mutator.
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
#include <tilecheck/gen/layout_mutation.h>
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/profiles.h>
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/testing/compare.h>
#include <tilecheck/testing/family.h>

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

using Choices = gen::FuzzedChoices<FuzzedDataProvider>;

// A source's layouts, as the harnesses read them: `from_text` takes a TEXT
// layout as one of the source's (nullopt: it is not one), `draw` makes one
// from the input's choices. read_case reads an input with them, and the
// mutator keeps a step only where from_text would take it.
struct ProfileLayouts {
  gen::Profile profile;
  gen::RecipeLimits limits;
  explicit ProfileLayouts(std::string_view name)
      : profile(fuzz_profile(name)), limits(gen::profile_limits(profile, gen::kExhaustiveLimits)) {}
  // Any valid layout, shrunk to the profile's budget.
  std::optional<ShapeWithLayout> from_text(const ShapeWithLayout& text) const {
    return gen::fit_for_data(text, limits);
  }
  ShapeWithLayout draw(Choices& c) const { return gen::make_profile_layout(c, profile, limits); }
};

struct FamilyLayouts {
  const Family& family;
  // A layout of the family, cut back within its max_elements.
  std::optional<ShapeWithLayout> from_text(const ShapeWithLayout& text) const {
    const int64_t m = family.member_of(text);
    if (m < 0) return std::nullopt;
    return family.fit(static_cast<size_t>(m), text.dims);
  }
  ShapeWithLayout draw(Choices& c) const { return draw_family_layout(c, family); }
};

// The harnesses' reading of an input, whatever the layouts' source: the
// mode byte; in TEXT mode, the text's layout if the source takes it (else
// a draw); else a draw from the choices; then the dense data from the same
// choices.
template <class Layouts>
FuzzCase read_case(FuzzedDataProvider& input, const Layouts& layouts) {
  Choices choices(input);
  std::optional<ShapeWithLayout> layout;
  if (input.ConsumeIntegral<uint8_t>() & 1) {  // TEXT mode
    if (const std::optional<ShapeWithLayout> text = gen::consume_layout_text(input)) layout = layouts.from_text(*text);
  }
  FuzzCase c;
  c.layout = layout ? *layout : layouts.draw(choices);
  c.dense = spec::canonical_dense(c.layout, gen::make_dense_data(choices, c.layout));
  return c;
}

// LLVMFuzzerCustomMutator over a source's layouts (gen/layout_mutation.h):
// the input's layout, read as read_case reads it, one structural step away,
// to a layout the source takes.
template <class Layouts>
size_t mutate_case(uint8_t* data, size_t size, size_t max_size, unsigned seed, const Layouts& layouts,
                   gen::MutationScope scope) {
  return gen::mutate_input(
      data, size, max_size, seed,
      [&](uint8_t, Choices& c) -> std::optional<ShapeWithLayout> { return layouts.draw(c); },
      [&](const ShapeWithLayout& s) { return layouts.from_text(s).has_value(); }, gen::libfuzzer_mutate, scope);
}

}  // namespace detail

// A layout of the profile ("general", "tpu" or "gpu"; an unknown name
// aborts with a message) and a dense array for it, from the input.
inline FuzzCase fuzz_case(FuzzedDataProvider& input, std::string_view profile = "general") {
  return detail::read_case(input, detail::ProfileLayouts(profile));
}

// A layout of `family` and a dense array for it, from the input: TEXT mode
// takes the text only when it is a layout of the family (cut back within
// its max_elements), else the family's draw.
inline FuzzCase fuzz_case(FuzzedDataProvider& input, const Family& family) {
  return detail::read_case(input, detail::FamilyLayouts{family});
}

// Claims for a harness over a family: every layout of it.
inline bool every_layout(const ShapeWithLayout&) { return true; }

namespace detail {

// Where a harness's layouts come from -- a profile or a family -- made once,
// and how many of its inputs reached the code under test, printed when the
// process ends.
struct FuzzSource {
  std::string profile;           // when there is no family
  std::optional<Family> family;
  std::string code;              // the function under test, as written
  uint64_t inputs = 0, reached = 0;
  FuzzCase next(FuzzedDataProvider& input) const {
    return family ? fuzz_case(input, *family) : fuzz_case(input, profile);
  }
  // LLVMFuzzerCustomMutator: for a family only its open dims change, and
  // only to another of its layouts; for a profile any step to a valid one.
  size_t mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed) const {
    if (family) return mutate_case(data, size, max_size, seed, FamilyLayouts{*family}, {.layout = false});
    return mutate_case(data, size, max_size, seed, ProfileLayouts(profile), {});
  }
  ~FuzzSource() {
    if (inputs == 0) return;
    std::fprintf(stderr, "tilecheck fuzz harness: %llu of %llu inputs (%.1f%%) reached %s (layouts: %s)\n",
                 static_cast<unsigned long long>(reached), static_cast<unsigned long long>(inputs),
                 100.0 * static_cast<double>(reached) / static_cast<double>(inputs), code.c_str(),
                 family ? family->text().c_str() : ("profile " + profile).c_str());
  }
};

inline FuzzSource fuzz_source(std::string_view profile, const char* code) {
  fuzz_profile(profile);  // an unknown name aborts at the first input
  return {std::string(profile), std::nullopt, code};
}
inline FuzzSource fuzz_source(const Family& family, const char* code) { return {"", family, code}; }

template <class Pack, class Claims>
int fuzz_pack(const uint8_t* data, size_t size, Pack pack, Claims claims, FuzzSource& source) {
  FuzzedDataProvider input(data, size);
  const FuzzCase c = source.next(input);
  ++source.inputs;
  if (!claims(c.layout)) return 0;
  ++source.reached;
  const auto packed = pack(c.layout, std::span<const uint8_t>(c.dense));
  const std::string mismatch = pack_mismatch(c.layout, c.dense, packed);
  if (!mismatch.empty()) fuzz_failure(mismatch);
  return 0;
}

template <class Unpack, class Claims>
int fuzz_unpack(const uint8_t* data, size_t size, Unpack unpack, Claims claims, FuzzSource& source) {
  FuzzedDataProvider input(data, size);
  const FuzzCase c = source.next(input);
  ++source.inputs;
  if (!claims(c.layout)) return 0;
  ++source.reached;
  const size_t bytes = static_cast<size_t>(spec::byte_size(c.layout));
  std::vector<uint8_t> packed = input.ConsumeBytes<uint8_t>(bytes);
  if (packed.size() < bytes) {
    // Past the input's end, pseudo-random bytes seeded by what it gave: a
    // short input still fills every tile with distinct bytes.
    const std::string_view given(reinterpret_cast<const char*>(packed.data()), packed.size());
    const std::vector<uint8_t> rest = gen::random_bytes(gen::layout_seed(packed.size(), given), bytes - packed.size());
    packed.insert(packed.end(), rest.begin(), rest.end());
  }
  const auto dense = unpack(c.layout, std::span<const uint8_t>(packed));
  const std::string mismatch = unpack_mismatch(c.layout, packed, dense);
  if (!mismatch.empty()) fuzz_failure(mismatch);
  return 0;
}

}  // namespace detail
}  // namespace tilecheck::testing

// `source`: a profile's name ("tpu") or a Family (family.h).
#define TILECHECK_FUZZ_PACK(pack, claims, source)                                                     \
  TILECHECK_DETAIL_FUZZ_SOURCE(source, pack)                                                          \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                          \
    return ::tilecheck::testing::detail::fuzz_pack(data, size, pack, claims, tilecheck_fuzz_source_()); \
  }                                                                                                   \
  TILECHECK_DETAIL_FUZZ_MUTATOR
#define TILECHECK_FUZZ_UNPACK(unpack, claims, source)                                                     \
  TILECHECK_DETAIL_FUZZ_SOURCE(source, unpack)                                                            \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                              \
    return ::tilecheck::testing::detail::fuzz_unpack(data, size, unpack, claims, tilecheck_fuzz_source_()); \
  }                                                                                                       \
  TILECHECK_DETAIL_FUZZ_MUTATOR

// The harness's source of layouts, made at its first use.
#define TILECHECK_DETAIL_FUZZ_SOURCE(source, code)                                     \
  static ::tilecheck::testing::detail::FuzzSource& tilecheck_fuzz_source_() {          \
    static ::tilecheck::testing::detail::FuzzSource tilecheck_source_ =                \
        ::tilecheck::testing::detail::fuzz_source(source, #code);                      \
    return tilecheck_source_;                                                          \
  }
#ifdef TILECHECK_FUZZ_NO_MUTATOR
#define TILECHECK_DETAIL_FUZZ_MUTATOR
#else
#define TILECHECK_DETAIL_FUZZ_MUTATOR                                                                 \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned seed) { \
    return tilecheck_fuzz_source_().mutate(data, size, max_size, seed);                               \
  }
#endif
