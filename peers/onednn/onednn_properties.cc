// oneDNN against the spec: for every layout oneDNN can express
// (onednn_layout.h), its blocked buffer has the layout's byte size, and its
// reorders pack and unpack as the spec does, value for value: bit for bit
// but for the classes of difference documented for oneDNN's bf16 reorder
// below AVX-512 (docs/PEERS.md). Where it cannot express a layout, the
// reason is tagged, so a run shows what oneDNN covers.
//
// ctest runs these with oneDNN's default ISA and again limited to AVX2.
#include "peers/onednn/onednn_properties.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <tilecheck/testing/value_class.h>
#include <tilecheck/gen/sweep.h>
#include "peers/onednn/onednn_layout.h"
#include "properties/property_registry.h"
#include "properties/rc_layout_gen.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::peers {
namespace {

using props::RcChoices;

// The element types oneDNN has.
constexpr ElementType kOneDnnTypes[] = {ElementType::kF32, ElementType::kS32, ElementType::kBF16,
                                        ElementType::kF16, ElementType::kS8,  ElementType::kU8};

// A layout from the general recipe or a kernel-shaped one (the TPU
// formats), half the time with its element type replaced by one of
// oneDNN's (and E(n) dropped with it), so that most are expressible.
ShapeWithLayout candidate(RcChoices& c) {
  ShapeWithLayout s = c.flip() ? props::make_kernel_layout(c, 4096) : props::make_layout(c, props::kExhaustiveLimits);
  if (c.flip()) {
    s.type = kOneDnnTypes[c.in_range(0, std::size(kOneDnnTypes) - 1)];
    s.layout.element_size_bits.reset();
  }
  return s;
}

std::vector<uint8_t> random_bytes(size_t n) {
  uint64_t state = *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 40);
  std::vector<uint8_t> bytes(n);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(props::splitmix64(state));
  return bytes;
}

// Element by element, the first difference of a class not documented for
// oneDNN's reorder of this type by the implementation `impl` (docs/PEERS.md),
// or "".
std::string undocumented_difference(ElementType type, std::string_view impl, const std::vector<uint8_t>& spec,
                                    const std::vector<uint8_t>& onednn) {
  using check::ValueClass;
  const std::vector<ValueClass> allowed = onednn_value_changes(type, impl);
  const size_t width = static_cast<size_t>(natural_bit_width(type) / 8);
  for (size_t i = 0; i + width <= spec.size(); i += width) {
    if (std::memcmp(&spec[i], &onednn[i], width) == 0) continue;
    uint64_t a = 0, b = 0;
    std::memcpy(&a, &spec[i], width);
    std::memcpy(&b, &onednn[i], width);
    const ValueClass d = check::classify_element(type, a, b);
    if (std::find(allowed.begin(), allowed.end(), d) == allowed.end()) {
      return "byte " + std::to_string(i) + ": the spec's 0x" + [](uint64_t v) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
        return std::string(buf);
      }(a) + ", oneDNN's " + std::string(impl) + " reorder differs (" + check::value_class_name(d) + ")";
    }
  }
  return "";
}

void OneDnnPacksAndUnpacksLikeTheSpec() {
  const ShapeWithLayout shape = *props::gen_from_recipe(candidate);
  RC_LOG() << print_shape(shape) << "\n";
  const auto format_or = onednn_format(shape);
  if (const auto* why = std::get_if<std::string>(&format_or)) {
    const std::string reason = why->starts_with("oneDNN has no ")      ? "an element type oneDNN lacks"
                               : why->starts_with("a sub-tile entry ") ? "a sub-tile entry that divides no tile entry"
                                                                        : *why;
    RC_TAG("not expressible: " + reason);
    return;
  }
  RC_TAG("expressible");
  const OneDnnFormat& format = std::get<OneDnnFormat>(format_or);
  RC_ASSERT(static_cast<int64_t>(format.blocked.get_size()) == spec::byte_size(shape));
  RC_ASSERT(static_cast<int64_t>(format.plain.get_size()) == spec::dense_byte_size(shape));

  const std::vector<uint8_t> dense = random_bytes(static_cast<size_t>(spec::dense_byte_size(shape)));
  std::vector<uint8_t> packed(static_cast<size_t>(spec::byte_size(shape)), 0xCD);  // not zero: padding must be written
  onednn_pack(format, dense, packed);
  const std::string pack_impl = onednn_reorder_impl(format.plain, format.blocked);
  RC_TAG("pack " + pack_impl);
  const std::string pack_difference = undocumented_difference(shape.type, pack_impl, spec::pack(shape, dense), packed);
  if (!pack_difference.empty()) RC_FAIL("pack: " + pack_difference);

  const std::vector<uint8_t> physical = random_bytes(static_cast<size_t>(spec::byte_size(shape)));
  std::vector<uint8_t> unpacked(dense.size(), 0xCD);
  onednn_unpack(format, physical, unpacked);
  const std::string unpack_impl = onednn_reorder_impl(format.blocked, format.plain);
  const std::string unpack_difference =
      undocumented_difference(shape.type, unpack_impl, spec::unpack(shape, physical), unpacked);
  if (!unpack_difference.empty()) RC_FAIL("unpack: " + unpack_difference);
}

}  // namespace

std::vector<props::PropertyInfo> onednn_property_suite() {
  return {{"OneDnnProperties", "OneDnnPacksAndUnpacksLikeTheSpec", "onednn_pack_unpack",
           "oneDNN's reorders pack and unpack every layout it can express as the spec does", &OneDnnPacksAndUnpacksLikeTheSpec}};
}

namespace {

std::vector<Block> blocks_of(const char* text) {
  const auto f = onednn_format(parse_shape(text));
  if (const auto* why = std::get_if<std::string>(&f)) {
    ADD_FAILURE() << text << ": " << *why;
    return {};
  }
  return std::get<OneDnnFormat>(f).blocks;
}

std::string why_not(const char* text) {
  const auto f = onednn_format(parse_shape(text));
  const auto* why = std::get_if<std::string>(&f);
  return why ? *why : "expressible";
}

// The TPU formats as oneDNN's inner blocks, outermost first (bf16's
// (8,128)(2,1) is oneDNN's 4-row, 128-column, 2-row blocking, as its weight
// formats such as 8i16o2i split a dim in two blocks).
TEST(OneDnnFormat, TheTpuFormatsAsInnerBlocks) {
  EXPECT_EQ(blocks_of("f32[64,256]{1,0:T(8,128)}"), (std::vector<Block>{{8, 0}, {128, 1}}));
  EXPECT_EQ(blocks_of("bf16[64,256]{1,0:T(8,128)(2,1)}"), (std::vector<Block>{{4, 0}, {128, 1}, {2, 0}}));
  EXPECT_EQ(blocks_of("s8[64,256]{1,0:T(8,128)(4,1)}"), (std::vector<Block>{{2, 0}, {128, 1}, {4, 0}}));
  EXPECT_EQ(blocks_of("f32[64,256]{0,1:T(8,128)}"), (std::vector<Block>{{8, 1}, {128, 0}}));
  EXPECT_EQ(blocks_of("bf16[2,3,96,200]{3,2,1,0:T(8,128)(2,1)}"), (std::vector<Block>{{4, 2}, {128, 3}, {2, 2}}));
  EXPECT_EQ(blocks_of("f32[5,7]{0,1}"), std::vector<Block>{});
  EXPECT_EQ(blocks_of("f32[5,7]{1,0:T(1,1,128)}"), (std::vector<Block>{{128, 1}}));
}

TEST(OneDnnFormat, WhatOneDnnCannotExpressSaysWhy) {
  EXPECT_EQ(why_not("s4[16,256]{1,0:T(8,128)(8,1)E(4)}"), "oneDNN has no s4 elements");
  EXPECT_EQ(why_not("f32[16,256]{1,0:T(8,128)L(1024)}"), "L(n) tail padding");
  EXPECT_EQ(why_not("f32[3,4,5]{2,1,0:T(*,4,2)}"), "a combined dim '*' in a tile");
  EXPECT_EQ(why_not("bf16[16,256]{1,0:T(8,128)(3,1)}").substr(0, 23), "a sub-tile entry 3 that");
  EXPECT_EQ(why_not("f32[16,256]{1,0:T(128)(2,1)}").substr(0, 34), "a sub-tile reaching past its tile'");
  EXPECT_EQ(why_not("f32[256]{0:T(8,128)}"), "a tile entry above one on a dim the array lacks");
  EXPECT_EQ(why_not("f32[]{:T(1)}"), "a scalar: oneDNN's memory has at least one dim");
}

}  // namespace
}  // namespace tilecheck::peers
