#include <tilecheck/testing/agreement.h>

#include <algorithm>
#include <iomanip>
#include <sstream>

#include <tilecheck/gen/sweep.h>
#include <tilecheck/testing/value_class.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::check {
namespace {

std::string shown(const std::optional<Element>& e) { return e ? "element " + tuple(*e) : "padding"; }

Disagreement differ(std::string what, std::string expected, std::string actual,
                    std::vector<std::pair<std::string, std::string>> details = {}) {
  details.emplace_back("expected", std::move(expected));
  details.emplace_back("actual", std::move(actual));
  return {std::move(what), std::move(details)};
}

// "position 5 = element (1,2)" for each position with bits in physical byte k.
std::string physical_byte_contents(const ShapeWithLayout& shape, int64_t k) {
  const int64_t bits = shape.element_bits();
  const int64_t padded = spec::padded_element_count(shape);
  std::string out;
  for (int64_t p = k * 8 / bits; p <= (k * 8 + 7) / bits && p < padded; ++p) {
    out += (out.empty() ? "" : "; ") + ("position " + std::to_string(p) + " = ") +
           shown(spec::delinearize(shape, p));
  }
  return out.empty() ? "tail padding (L)" : out;
}

// "element (1,2)" for dense byte k (row-major, dense_element_bytes each).
std::string dense_byte_contents(const ShapeWithLayout& shape, int64_t k) {
  return shown(gen::element_at(k / shape.dense_element_bytes(), shape.dims));
}

// "0x3f800000": an element's bytes as the little-endian number they are.
std::string little_endian_hex(std::span<const uint8_t> bytes) {
  std::string out = "0x";
  for (size_t i = bytes.size(); i-- > 0;) out += hex_bytes(bytes.subspan(i, 1));
  return out;
}

// Whose value `value` is in `source` (the dense array a pack read, or the
// physical buffer an unpack read): " (the value of element (0,1))", of
// several, of none; "" when there is no source to look in.
std::string value_owner(const ShapeWithLayout& shape, bool physical, std::span<const uint8_t> value,
                        std::span<const uint8_t> source) {
  if (source.empty()) return "";
  const size_t width = value.size();
  int64_t matches = 0;
  std::string first;
  for (size_t i = 0; i + width <= source.size(); i += width) {
    if (!std::equal(value.begin(), value.end(), source.begin() + static_cast<std::ptrdiff_t>(i))) continue;
    if (matches++ == 0) {
      const int64_t n = static_cast<int64_t>(i / width);
      // A pack read the dense array: element n. An unpack read the physical
      // buffer: position n, an element or padding.
      first = physical ? shown(gen::element_at(n, shape.dims))
                       : "position " + std::to_string(n) + " = " + shown(spec::delinearize(shape, n));
    }
  }
  const std::string of = physical ? "element" : "position";
  if (matches == 0) return " (no " + of + " of the input holds this value)";
  if (matches == 1) return " (the value of " + first + ")";
  return " (the value of " + std::to_string(matches) + " " + of + "s of the input, the first " + first + ")";
}

}  // namespace

std::string Disagreement::text() const {
  std::string out = what;
  for (size_t i = 0; i < details.size(); ++i) {
    out += (i ? ", " : ": ") + details[i].first + " " + details[i].second;
  }
  return out;
}

std::string hex_bytes(std::span<const uint8_t> bytes) {
  std::ostringstream out;
  out << std::hex << std::setfill('0');
  for (size_t i = 0; i < bytes.size(); ++i) out << (i ? " " : "") << std::setw(2) << int(bytes[i]);
  return out.str();
}

Agreement sizes_agree(const ShapeWithLayout& shape, const Sizes& sizes) {
  auto number = [](const char* what, int64_t want, int64_t got) -> Agreement {
    if (want == got) return std::nullopt;
    return differ(std::string("wrong ") + what, std::to_string(want), std::to_string(got));
  };
  if (Agreement d = number("element count", spec::element_count(shape), sizes.element_count)) return d;
  if (const std::vector<int64_t> want = spec::tiled_shape(shape); want != sizes.tiled_shape) {
    return differ("wrong tiled shape", tuple(want), tuple(sizes.tiled_shape));
  }
  if (Agreement d = number("padded element count", spec::padded_element_count(shape),
                           sizes.padded_element_count)) {
    return d;
  }
  if (Agreement d = byte_size_agrees(shape, sizes.byte_size)) return d;
  int64_t dense = -1;  // -1: a dense buffer's size past int64 (Sizes)
  try {
    dense = spec::dense_byte_size(shape);
  } catch (const Error&) {
  }
  return number("dense byte size", dense, sizes.dense_byte_size);
}

Agreement byte_size_agrees(const ShapeWithLayout& shape, int64_t bytes) {
  const int64_t want = spec::byte_size(shape);
  if (bytes == want) return std::nullopt;
  return differ("wrong byte size", std::to_string(want) + " bytes", std::to_string(bytes) + " bytes");
}

Agreement xla_array_size_agrees(const ShapeWithLayout& shape, int64_t bytes) {
  const int64_t want = xla::array_size(shape);
  if (bytes == want) return std::nullopt;
  return differ("wrong byte size (XLA's ArraySize)", std::to_string(want) + " bytes",
                std::to_string(bytes) + " bytes");
}

Agreement index_agrees(const ShapeWithLayout& shape, const Element& e, int64_t index) {
  const int64_t want = spec::linear_index(shape, e);
  if (index == want) return std::nullopt;
  return differ("wrong linear index", std::to_string(want), std::to_string(index), {{"element", tuple(e)}});
}

Agreement position_agrees(const ShapeWithLayout& shape, int64_t p, const std::optional<Element>& element) {
  const std::optional<Element> want = spec::delinearize(shape, p);
  if (element == want) return std::nullopt;
  return differ("wrong delinearize", shown(want), shown(element), {{"position", std::to_string(p)}});
}

Agreement entry_points_agree(const Element& e, int64_t index, int64_t checked, int64_t batch) {
  if (checked != index) {
    return differ("linear_index_checked differs from linear_index", std::to_string(index),
                  std::to_string(checked), {{"element", tuple(e)}});
  }
  if (batch != index) {
    return differ("linear_index_batch differs from linear_index", std::to_string(index),
                  std::to_string(batch), {{"element", tuple(e)}});
  }
  return std::nullopt;
}

Agreement inverse_agrees(const Element& e, int64_t p, const std::optional<Element>& back) {
  if (back == e) return std::nullopt;
  return differ("delinearize does not invert linear_index", shown(e), shown(back),
                {{"position", std::to_string(p)}});
}

Agreement bytes_agree(const ShapeWithLayout& shape, bool physical, std::string_view what,
                      std::span<const uint8_t> expected, std::span<const uint8_t> actual,
                      std::span<const uint8_t> source) {
  if (expected.size() != actual.size()) {
    return Disagreement{std::string(what),
                        {{"expected size", std::to_string(expected.size()) + " bytes"},
                         {"actual size", std::to_string(actual.size()) + " bytes"}}};
  }
  // Equal buffers (every call that passes) cost one memcmp.
  if (std::equal(expected.begin(), expected.end(), actual.begin())) return std::nullopt;
  const auto [first, ignored] = std::mismatch(expected.begin(), expected.end(), actual.begin());
  const size_t k = static_cast<size_t>(first - expected.begin());
  const std::string contents =
      physical ? physical_byte_contents(shape, static_cast<int64_t>(k)) : dense_byte_contents(shape, static_cast<int64_t>(k));
  // An element of whole bytes wider than one is shown whole, and the
  // element of `source` whose value the actual buffer holds there is named.
  const int64_t bits = shape.element_bits();
  const size_t width = bits % 8 == 0 && bits >= 16 ? static_cast<size_t>(bits / 8) : 1;
  const size_t at = k / width * width;
  std::string expected_value = "0x" + hex_bytes(expected.subspan(k, 1));
  std::string actual_value = "0x" + hex_bytes(actual.subspan(k, 1));
  if (width > 1 && at + width <= expected.size()) {
    expected_value = little_endian_hex(expected.subspan(at, width));
    actual_value = little_endian_hex(actual.subspan(at, width)) + value_owner(shape, physical, actual.subspan(at, width), source);
  }
  Disagreement d{std::string(what),
                 {{"first differing byte", std::to_string(k) + " of " + std::to_string(expected.size()) +
                                               " (" + contents + ")"},
                  {"expected", expected_value},
                  {"actual", actual_value}}};
  if (expected.size() <= kShownBufferBytes) {
    d.details.emplace_back("expected buffer", "[" + hex_bytes(expected) + "]");
    d.details.emplace_back("actual buffer", "[" + hex_bytes(actual) + "]");
  } else {
    // A window of both buffers around the first difference, whole elements.
    const size_t from = k >= kShownBufferBytes / 4 ? (k - kShownBufferBytes / 4) / width * width : 0;
    const size_t to = std::min(expected.size(), from + kShownBufferBytes / 2);
    const std::string range = "bytes " + std::to_string(from) + ".." + std::to_string(to - 1);
    d.details.emplace_back("expected " + range, "[" + hex_bytes(expected.subspan(from, to - from)) + "]");
    d.details.emplace_back("actual " + range, "[" + hex_bytes(actual.subspan(from, to - from)) + "]");
  }
  // Whole elements (no E(n) of another width) of a type with value classes
  // that differ only within their class: say so, and what it means.
  if (has_value_classes(shape.type) && shape.element_bits() == natural_bit_width(shape.type)) {
    const std::map<ValueClass, int64_t> classes = value_differences(shape.type, expected, actual);
    if (!classes.empty() && !classes.count(ValueClass::kOther)) {
      const std::string counts = value_differences_text(classes);
      d.what += " (values changed within their class: " + counts + ")";
      d.details.emplace_back("value classes",
                             "only values differ, each within its class: " + counts +
                                 " (the implementation moves values through float arithmetic instead of "
                                 "copying their bits; a layout conversion must copy bits)");
    }
  }
  return d;
}

Agreement pack_agrees(const ShapeWithLayout& shape, std::span<const uint8_t> dense,
                      std::span<const uint8_t> physical) {
  return bytes_agree(shape, true, "wrong packed bytes", spec::pack(shape, dense), physical, dense);
}

Agreement unpack_agrees(const ShapeWithLayout& shape, std::span<const uint8_t> physical,
                        std::span<const uint8_t> dense) {
  return bytes_agree(shape, false, "wrong unpacked bytes", spec::unpack(shape, physical), dense, physical);
}

}  // namespace tilecheck::check
