// RapidCheck for your own tests of layout code (docs/TESTING.md):
//
// Generators, from the same recipe as tilecheck's own properties, fuzzers
// and gate (<tilecheck/gen/layout_recipe.h>, <tilecheck/gen/profiles.h>):
// every choice the recipe makes is a RapidCheck pick, so a failing case
// shrinks to a simple layout.
//
//   layouts("tpu", {"bf16"}, 2)  // profile, element types, max rank
//   layouts(family("u8[?,?]{1,0:T(32,128)(4,1)}"))  // your own family (family.h)
//   dense_arrays(layout)        // a dense array for it, floats with NaN and denormal patterns
//   packed_buffers(layout)      // a physical buffer for it, padding included
//   *rc::gen::arbitrary<tilecheck::ShapeWithLayout>()   // layouts() with the defaults
//
// Assertions that compare your implementation's answer with the spec's
// (compare.h), failing the property with the message of the GoogleTest
// assertions (gtest.h):
//
//   RC_ASSERT_PACKS_AS_SPEC(layout, dense, packed);
//   RC_ASSERT_UNPACKS_AS_SPEC(layout, packed, dense);
//   RC_ASSERT_LINEAR_INDEX_AS_SPEC(layout, element, index);
//   RC_ASSERT_DELINEARIZES_AS_SPEC(layout, position, element);   // std::nullopt: padding
//   RC_ASSERT_BYTE_SIZE_AS_SPEC(layout, bytes);
//
// A counterexample prints as layout text. Link tilecheck::testing and
// rapidcheck.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/profiles.h>
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/testing/compare.h>
#include <tilecheck/testing/family.h>
#include <tilecheck/testing/value_class.h>

namespace tilecheck {
// Counterexamples print as layout text.
inline void showValue(const ShapeWithLayout& shape, std::ostream& os) { os << print_shape(shape); }
}  // namespace tilecheck

namespace tilecheck::testing {

// The recipe's choices as RapidCheck picks inside rc::gen::exec: each
// shrinks towards lo (index 0, false), which the recipe maps to the
// simplest layout. Picks run at full size so the recipe's weights hold from
// the first case; small layouts come from shrinking, not from RapidCheck's
// size ramp.
class RcChoices : public gen::PicksFromRange<RcChoices> {
 public:
  static constexpr int kFullSize = 100;  // RapidCheck's default max_size
  int64_t in_range(int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    return *rc::gen::resize(kFullSize, rc::gen::inRange<int64_t>(lo, hi + 1));
  }
};

// A generator running `recipe(choices)` with RapidCheck picks as the choices.
template <class Recipe>
auto gen_from_recipe(Recipe recipe) {
  return rc::gen::exec([recipe] {
    RcChoices c;
    return recipe(c);
  });
}

namespace detail {

struct CheckedFilter {
  gen::Profile profile;
  gen::RecipeLimits limits;
  std::vector<ElementType> types;
  int64_t max_rank;
  bool accepts(const ShapeWithLayout& shape) const {
    if (max_rank >= 0 && shape.rank() > max_rank) return false;
    if (types.empty()) return true;
    for (const ElementType t : types) {
      if (t == shape.type) return true;
    }
    return false;
  }
};

// The filter, checked when the test sets up: an unknown profile or type
// name, or a filter no layout of the profile passes, throws Error.
inline CheckedFilter check_filter(const std::string& profile_name, const std::vector<std::string>& element_types,
                                  int64_t max_rank) {
  const std::optional<gen::Profile> profile = gen::profile_from_name(profile_name);
  if (!profile) {
    std::string names;
    for (const auto& [name, p] : gen::kProfiles) names += (names.empty() ? "" : ", ") + std::string(name);
    throw Error("layouts(): unknown profile '" + profile_name + "'; the profiles are " + names);
  }
  CheckedFilter checked{*profile, gen::profile_limits(*profile, gen::kExhaustiveLimits), {}, max_rank};
  for (const std::string& name : element_types) {
    const std::optional<ElementType> type = element_type_from_name(name);
    if (!type) throw Error("layouts(): '" + name + "' is not an element type XLA has");
    checked.types.push_back(*type);
  }
  // Whether the profile draws such layouts at all: 4,096 seeded draws.
  for (uint64_t seed = 1; seed <= 4096; ++seed) {
    gen::SeededChoices c(seed);
    if (checked.accepts(gen::make_profile_layout(c, checked.profile, checked.limits))) return checked;
  }
  std::string types;
  for (const std::string& name : element_types) types += (types.empty() ? "" : ", ") + name;
  throw Error("layouts(): the profile '" + profile_name + "' draws no layout" +
              (types.empty() ? "" : " of element type " + types) +
              (max_rank >= 0 ? " of rank at most " + std::to_string(max_rank) : "") +
              " (in 4,096 draws)");
}

}  // namespace detail

// Layouts valid for the spec, small (about a thousand elements; the TPU
// profile's up to 16,384):
//   profile        "general" (every form tilecheck knows, weighted to the
//                  edge cases), "tpu" (the TPU formats on real models'
//                  shapes) or "gpu" (small tiles over narrow types):
//                  `tilecheck gate --profile`'s profiles;
//   element_types  XLA's names ("bf16", "s4", "pred", ...); empty: every
//                  type the profile draws;
//   max_rank       layouts of at most this rank; -1: any.
// Throws Error at set-up for a filter that cannot be met.
inline rc::Gen<ShapeWithLayout> layouts(const std::string& profile = "general",
                                        const std::vector<std::string>& element_types = {},
                                        int64_t max_rank = -1) {
  const detail::CheckedFilter checked = detail::check_filter(profile, element_types, max_rank);
  return rc::gen::exec([checked] {
    // Rejection: the picks of a rejected draw shrink as well, so the case
    // still shrinks to the simplest accepted layout.
    for (int draw = 0; draw < 1000; ++draw) {
      const ShapeWithLayout shape = *gen_from_recipe([checked](RcChoices& c) {
        return gen::make_profile_layout(c, checked.profile, checked.limits);
      });
      if (checked.accepts(shape)) return shape;
    }
    RC_DISCARD("no layout passed the filter in 1,000 draws");
  });
}

// Layouts of your own family (family.h): each open dim drawn from the sizes
// that break layout code, shrinking towards the smallest dims that still
// fail.
inline rc::Gen<ShapeWithLayout> layouts(const Family& family) {
  return gen_from_recipe([family](RcChoices& c) { return draw_family_layout(c, family); });
}

// A dense array or physical buffer as a generator gives it: a
// std::vector<uint8_t> that a counterexample shows as its size and its
// first bytes, not whole (it may hold megabytes).
struct Bytes : std::vector<uint8_t> {
  using std::vector<uint8_t>::vector;
  explicit Bytes(std::vector<uint8_t> bytes) : std::vector<uint8_t>(std::move(bytes)) {}
};
inline constexpr size_t kShownGeneratedBytes = 32;
inline void showValue(const Bytes& bytes, std::ostream& os) {
  const size_t shown = std::min(bytes.size(), kShownGeneratedBytes);
  os << bytes.size() << " bytes: ["
     << check::hex_bytes(std::span<const uint8_t>(bytes.data(), shown)) << (shown < bytes.size() ? " ...]" : "]");
}

// A dense array for `shape` in the spec's convention (docs/PROTOCOL.md,
// "Dense buffers"; canonical: pred 0 or 1, signed sub-byte values
// sign-extended): simplest first (element i holds i+1), else random values;
// for the IEEE float types, half of the random arrays have a quarter of
// their elements replaced by special values -- signalling and quiet NaNs,
// infinities, -0, the smallest and largest denormals of either sign.
inline rc::Gen<Bytes> dense_arrays(const ShapeWithLayout& shape) {
  return gen_from_recipe([shape](RcChoices& c) {
    Bytes dense(spec::canonical_dense(shape, gen::make_dense_data(c, shape)));
    const std::optional<check::FloatFormat> f = check::float_format(shape.type);
    if (!f || shape.element_bits() != f->bits || !c.flip()) return dense;
    const uint64_t quiet = f->quiet_bit(), exp = f->exp_mask(), sign = f->sign();
    const uint64_t specials[] = {exp | 1,        exp | 1 | sign, exp | quiet,    exp,  exp | sign, sign,
                                 1,              f->frac_mask(), sign | 1,       sign | f->frac_mask()};
    uint64_t state = static_cast<uint64_t>(c.in_range(0, int64_t{1} << 40));
    const size_t width = static_cast<size_t>(f->bits / 8);
    for (size_t i = 0; i + width <= dense.size(); i += width) {
      const uint64_t r = gen::splitmix64(state);
      if (r % 4 != 0) continue;
      const uint64_t v = specials[(r >> 8) % std::size(specials)];
      std::memcpy(&dense[i], &v, width);  // little-endian: the low bytes
    }
    return dense;
  });
}

// A physical buffer for `shape` (spec::byte_size bytes), for an unpack to
// read: simplest first (byte i holds i+1, modulo 256), else random bytes,
// padding included, which an unpack must ignore. One seed per buffer, so a
// failing case shrinks at once.
inline rc::Gen<Bytes> packed_buffers(const ShapeWithLayout& shape) {
  return gen_from_recipe([shape](RcChoices& c) {
    Bytes packed(static_cast<size_t>(spec::byte_size(shape)));
    const bool random = c.flip();
    uint64_t state = random ? static_cast<uint64_t>(c.in_range(0, int64_t{1} << 40)) : 0;
    for (size_t i = 0; i < packed.size(); ++i) {
      packed[i] = random ? static_cast<uint8_t>(gen::splitmix64(state)) : static_cast<uint8_t>(i + 1);
    }
    return packed;
  });
}

}  // namespace tilecheck::testing

// layouts() with the default filter, for *rc::gen::arbitrary<ShapeWithLayout>()
// and properties that take a ShapeWithLayout argument.
template <>
struct rc::Arbitrary<tilecheck::ShapeWithLayout> {
  static rc::Gen<tilecheck::ShapeWithLayout> arbitrary() { return tilecheck::testing::layouts(); }
};

#define TILECHECK_RC_ASSERT_AGREES(mismatch)                          \
  do {                                                                \
    const std::string tilecheck_mismatch_ = (mismatch);               \
    if (!tilecheck_mismatch_.empty()) RC_FAIL(tilecheck_mismatch_);   \
  } while (false)

#define RC_ASSERT_PACKS_AS_SPEC(layout, dense, packed) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::pack_mismatch(layout, dense, packed))
#define RC_ASSERT_UNPACKS_AS_SPEC(layout, packed, dense) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::unpack_mismatch(layout, packed, dense))
#define RC_ASSERT_LINEAR_INDEX_AS_SPEC(layout, element, index) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::linear_index_mismatch(layout, element, index))
#define RC_ASSERT_DELINEARIZES_AS_SPEC(layout, position, element) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::delinearize_mismatch(layout, position, element))
#define RC_ASSERT_BYTE_SIZE_AS_SPEC(layout, bytes) \
  TILECHECK_RC_ASSERT_AGREES(::tilecheck::testing::byte_size_mismatch(layout, bytes))
