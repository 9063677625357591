// How a floating-point element that differs from the spec's differs: a
// signalling NaN written quiet, a NaN's payload changed, a denormal written
// as a signed zero, -0 written as +0 -- what an implementation that moves
// values through float arithmetic (a conversion, a multiply by one, a
// reference reorder) instead of copying bits writes -- or anything else;
// and a 32-bit integer that went through f32 (classify_element).
// A layout conversion must copy bits, so every class is still a failure;
// the class says why the bytes differ. Used by the gate's byte comparison
// (bytes_agree) and the oneDNN cross-check.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>

#include <tilecheck/spec/model.h>

namespace tilecheck::check {

enum class ValueClass {
  kSignallingNanQuieted,
  kNanPayloadChanged,
  kDenormalFlushedToZero,
  kNegativeZeroMadePositive,
  kIntegerRoundedToF32,
  kOther
};

inline const char* value_class_name(ValueClass c) {
  switch (c) {
    case ValueClass::kSignallingNanQuieted: return "signalling NaN written quiet";
    case ValueClass::kNanPayloadChanged: return "NaN with another payload";
    case ValueClass::kDenormalFlushedToZero: return "denormal written as a signed zero";
    case ValueClass::kNegativeZeroMadePositive: return "-0 written as +0";
    case ValueClass::kIntegerRoundedToF32: return "32-bit integer rounded to f32 precision";
    case ValueClass::kOther: return "other";
  }
  return "?";
}

// The bit fields of an IEEE binary float of `bits` bits with `mantissa`
// fraction bits.
struct FloatFormat {
  int bits, mantissa;
  uint64_t sign() const { return uint64_t{1} << (bits - 1); }
  uint64_t frac_mask() const { return (uint64_t{1} << mantissa) - 1; }
  uint64_t exp_mask() const { return (sign() - 1) & ~frac_mask(); }
  uint64_t quiet_bit() const { return uint64_t{1} << (mantissa - 1); }
  bool is_nan(uint64_t v) const { return (v & exp_mask()) == exp_mask() && (v & frac_mask()) != 0; }
};

// The IEEE formats whose NaNs and denormals behave as above: bf16, f16,
// f32, f64; nullopt for any other type.
inline std::optional<FloatFormat> float_format(ElementType type) {
  switch (type) {
    case ElementType::kBF16: return FloatFormat{16, 7};
    case ElementType::kF16: return FloatFormat{16, 10};
    case ElementType::kF32: return FloatFormat{32, 23};
    case ElementType::kF64: return FloatFormat{64, 52};
    default: return std::nullopt;
  }
}

// `actual` where `expected` was meant (they differ).
inline ValueClass classify_value(const FloatFormat& f, uint64_t expected, uint64_t actual) {
  const uint64_t exp = expected & f.exp_mask(), frac = expected & f.frac_mask();
  if (f.is_nan(expected) && (frac & f.quiet_bit()) == 0 && actual == (expected | f.quiet_bit())) {
    return ValueClass::kSignallingNanQuieted;
  }
  if (f.is_nan(expected) && f.is_nan(actual)) return ValueClass::kNanPayloadChanged;
  if (exp == 0 && frac != 0 && actual == (expected & f.sign())) return ValueClass::kDenormalFlushedToZero;
  if (expected == f.sign() && actual == 0) return ValueClass::kNegativeZeroMadePositive;
  return ValueClass::kOther;
}

// A 32-bit integer moved through f32 arithmetic: rounded to the nearest f32
// (24 significant bits), then clamped to the largest f32 the type holds
// before converting back, as SIMD conversions with saturation do.
inline uint32_t rounded_through_f32(uint32_t v, bool is_signed) {
  if (is_signed) {
    const float f = std::min(static_cast<float>(static_cast<int32_t>(v)), 2147483520.0f);  // 2^31 - 2^7
    return static_cast<uint32_t>(static_cast<int32_t>(f));
  }
  return static_cast<uint32_t>(std::min(static_cast<float>(v), 4294967040.0f));  // 2^32 - 2^8
}

// `actual` where `expected` was meant (they differ), for an element of
// `type` in its natural width: a float's class (classify_value), a 32-bit
// integer rounded to f32 precision, or kOther.
inline ValueClass classify_element(ElementType type, uint64_t expected, uint64_t actual) {
  if (const std::optional<FloatFormat> f = float_format(type)) return classify_value(*f, expected, actual);
  if (type == ElementType::kS32 || type == ElementType::kU32) {
    if (actual == rounded_through_f32(static_cast<uint32_t>(expected), type == ElementType::kS32)) {
      return ValueClass::kIntegerRoundedToF32;
    }
  }
  return ValueClass::kOther;
}

// Whether classify_element can name a class for `type`: the IEEE floats
// and the 32-bit integers.
inline bool has_value_classes(ElementType type) {
  return float_format(type).has_value() || type == ElementType::kS32 || type == ElementType::kU32;
}

// The differing elements of two buffers of whole elements of `type` in its
// natural width, little-endian, counted by class (classify_element).
inline std::map<ValueClass, int64_t> value_differences(ElementType type, std::span<const uint8_t> expected,
                                                       std::span<const uint8_t> actual) {
  std::map<ValueClass, int64_t> counts;
  const size_t width = static_cast<size_t>(natural_bit_width(type) / 8);
  for (size_t i = 0; i + width <= expected.size() && i + width <= actual.size(); i += width) {
    if (std::memcmp(&expected[i], &actual[i], width) == 0) continue;
    uint64_t a = 0, b = 0;
    std::memcpy(&a, &expected[i], width);
    std::memcpy(&b, &actual[i], width);
    ++counts[classify_element(type, a, b)];
  }
  return counts;
}

// "3 signalling NaNs written quiet, 1 denormal written as a signed zero".
inline std::string value_differences_text(const std::map<ValueClass, int64_t>& counts) {
  std::string s;
  for (const auto& [c, n] : counts) {
    s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + value_class_name(c);
  }
  return s;
}

}  // namespace tilecheck::check
