// Generator profiles: which layouts a stream of generated layouts draws.
//
//   general  the layout recipe (make_layout): every form tilecheck knows,
//            weighted towards the edge cases (ragged dims, zero dims, '*',
//            several tile levels, odd E(n), L(n)).
//   tpu      the TPU formats of docs/DESIGN.md on the shapes real models
//            have: f32/s32 (8,128) or (2,128)/(4,128) for a small
//            second-minor dim, 16-bit (8,128)(2,1), 8-bit (8,128)(4,1),
//            s4 (8,128)(8,1)E(4), pred (32,128)(32,1)E(1); ranks 1-4, row
//            major or with the two minor dims swapped, dims from real
//            models (powers of two, 1, 3, 100, 127, 129, 300, ...).
//   gpu      small tiles (entries 1-32, one or two levels) over sub-byte
//            and narrow types (s4, u4, s2, u2, f4e2m1fn, s8, f8e4m3fn,
//            bf16, f16, f32), with E(n) on the 4- and 2-bit ones, ranks 1-3.
//
// The same names are used wherever a profile is chosen (--profile).
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <tilecheck/gen/layout_recipe.h>

namespace tilecheck::gen {

enum class Profile { kGeneral, kTpu, kGpu };

inline constexpr std::array<std::pair<std::string_view, Profile>, 3> kProfiles = {
    {{"general", Profile::kGeneral}, {"tpu", Profile::kTpu}, {"gpu", Profile::kGpu}}};

inline std::string_view profile_name(Profile p) {
  for (const auto& [name, profile] : kProfiles) {
    if (profile == p) return name;
  }
  return "?";
}

inline std::optional<Profile> profile_from_name(std::string_view name) {
  for (const auto& [n, profile] : kProfiles) {
    if (n == name) return profile;
  }
  return std::nullopt;
}

// The budget a profile's layouts need: a TPU tile alone has 1,024
// positions (4,096 for pred), so its budget is larger than the recipe's.
inline RecipeLimits profile_limits(Profile p, const RecipeLimits& general) {
  if (p != Profile::kTpu) return general;
  return {.max_elements = int64_t{1} << 14, .max_padded_elements = int64_t{1} << 16};
}

template <LayoutChoices C>
ShapeWithLayout make_tpu_layout(C& c, const RecipeLimits& limits) {
  static constexpr std::array<ElementType, 9> kTypes = {
      ElementType::kF32, ElementType::kBF16, ElementType::kS8,  ElementType::kS32, ElementType::kF16,
      ElementType::kU8,  ElementType::kS4,   ElementType::kPred, ElementType::kU32};
  ShapeWithLayout shape;
  shape.type = kTypes[pick(c, {6, 6, 3, 2, 2, 2, 2, 2, 1})];
  const int64_t rank = 1 + static_cast<int64_t>(pick(c, {2, 6, 3, 2}));
  for (int64_t i = 0; i < rank; ++i) {
    shape.dims.push_back(one_of<int64_t>(
        c, {128, 8, 256, 1, 3, 16, 100, 127, 129, 300, 512, 2, 4, 33, 1000, 1024}));
  }
  shape.layout.minor_to_major = default_layout(rank).minor_to_major;
  if (rank >= 2 && sometimes(c, 1, 4)) {  // the two minor dims swapped (a transposed weight)
    std::swap(shape.layout.minor_to_major[0], shape.layout.minor_to_major[1]);
  }
  const std::vector<int64_t> physical = current_bounds(shape);
  const int64_t second_minor = physical.size() >= 2 ? physical[physical.size() - 2] : 1;
  if (natural_bit_width(shape.type) == 32 && second_minor <= 4 && c.flip()) {
    shape.layout.tiles = {Tile{{second_minor <= 2 ? 2 : 4, 128}}};
  } else {
    apply_natural_tpu_format(shape);
  }
  fit_to_budget(shape, limits);
  return shape;
}

template <LayoutChoices C>
ShapeWithLayout make_gpu_layout(C& c, const RecipeLimits& limits) {
  static constexpr std::array<ElementType, 10> kTypes = {
      ElementType::kS4,       ElementType::kU4,  ElementType::kBF16, ElementType::kF16,
      ElementType::kS8,       ElementType::kF32, ElementType::kS2,   ElementType::kU2,
      ElementType::kF4E2M1FN, ElementType::kF8E4M3FN};
  ShapeWithLayout shape;
  shape.type = kTypes[pick(c, {4, 2, 3, 2, 2, 2, 1, 1, 2, 2})];
  const int64_t rank = 1 + static_cast<int64_t>(pick(c, {2, 5, 2}));
  for (int64_t i = 0; i < rank; ++i) {
    shape.dims.push_back(c.flip() ? c.in_range(1, 64) : one_of<int64_t>(c, {16, 32, 64, 3, 17}));
  }
  shape.layout.minor_to_major = default_layout(rank).minor_to_major;
  if (rank >= 2 && sometimes(c, 1, 3)) std::swap(shape.layout.minor_to_major[0], shape.layout.minor_to_major[1]);
  const int64_t length = std::min<int64_t>(rank, 1 + static_cast<int64_t>(pick(c, {1, 3})));
  Tile tile;
  for (int64_t i = 0; i < length; ++i) tile.dims.push_back(one_of<int64_t>(c, {2, 4, 8, 16, 32, 1}));
  shape.layout.tiles = {tile};
  const int bits = natural_bit_width(shape.type);
  if (bits < 8 && c.flip()) {
    shape.layout.element_size_bits = bits;
    // Packing along the second-minor dim, as sub-byte GPU formats do.
    if (length >= 2 && c.flip()) shape.layout.tiles.push_back(Tile{{8 / bits, 1}});
  }
  fit_to_budget(shape, limits);
  return shape;
}

template <LayoutChoices C>
ShapeWithLayout make_profile_layout(C& c, Profile p, const RecipeLimits& limits) {
  switch (p) {
    case Profile::kTpu: return make_tpu_layout(c, limits);
    case Profile::kGpu: return make_gpu_layout(c, limits);
    case Profile::kGeneral: break;
  }
  return make_layout(c, limits);
}

}  // namespace tilecheck::gen
