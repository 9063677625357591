// Your implementation's answer beside the spec's, for your own tests: each
// function asks the spec (the oracle) the question your code answered and
// returns "" when the answers agree, or a message that says what a person
// needs to find the bug -- for a buffer, the first differing byte, which
// element (with its coordinates) or padding the layout keeps there, the
// expected and actual bytes, both buffers when they are small, and the
// value class when only float bits differ (a signalling NaN written quiet,
// a denormal flushed, ...). The GoogleTest assertions (gtest.h) and the
// RapidCheck ones (rapidcheck.h) are thin over these; docs/TESTING.md shows
// them in use.
//
// A layout is a tilecheck::ShapeWithLayout or its text as XLA prints it
// ("bf16[16,256]{1,0:T(8,128)(2,1)}"); a text that is not a valid layout is
// a message too. Buffers are any contiguous range (std::vector<uint8_t>,
// std::span, std::array, a vector of uint16_t, ...), read as bytes; one of
// the wrong size is a message, and nothing past its end is read. Dense
// arrays follow the spec's convention (docs/PROTOCOL.md, "Dense buffers":
// logical dims row-major, each element in its type's natural width).
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tilecheck/spec/model.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/testing/agreement.h>

namespace tilecheck::testing {
namespace detail {

// The layout, or nullopt with `message` saying why the text is not one.
inline std::optional<ShapeWithLayout> layout_of(const ShapeWithLayout& shape, std::string&) { return shape; }
inline std::optional<ShapeWithLayout> layout_of(std::string_view text, std::string& message) {
  try {
    return spec::parse_layout(text);
  } catch (const Error& e) {
    message = "'" + std::string(text) + "' is not a valid layout: " + e.what();
    return std::nullopt;
  }
}

template <class Range>
std::span<const uint8_t> bytes_of(const Range& range) {
  const auto* data = std::data(range);
  return {reinterpret_cast<const uint8_t*>(data), std::size(range) * sizeof(*data)};
}

template <class Range>
std::vector<int64_t> integers_of(const Range& range) {
  return std::vector<int64_t>(std::begin(range), std::end(range));
}

// "wrong packed bytes\n  first differing byte  3 of 96 (...)\n  expected  0x00\n..."
inline std::string describe(const std::string& operation, const ShapeWithLayout& shape,
                            const check::Disagreement& d) {
  std::string out = operation + " of " + print_shape(shape) + " disagrees with the spec: " + d.what;
  size_t width = 0;
  for (const auto& [key, value] : d.details) width = std::max(width, key.size());
  for (const auto& [key, value] : d.details) {
    out += "\n  " + key + std::string(width - key.size() + 2, ' ') + value;
  }
  return out;
}

inline std::string size_message(const std::string& what, size_t actual, int64_t expected,
                                const ShapeWithLayout& shape) {
  return what + " has " + std::to_string(actual) + " bytes; " + print_shape(shape) + " needs " +
         std::to_string(expected);
}

// `input` and `output` of an operation of the layout given: both of their
// right size (what the layout's physical buffer or dense array holds), then
// compared by `agrees` (check::pack_agrees or unpack_agrees).
template <class Layout, class Input, class Output, class Agrees>
std::string buffers_mismatch(const std::string& operation, const Layout& layout, const Input& input,
                             const Output& output, bool input_is_packed, Agrees agrees) {
  std::string message;
  const std::optional<ShapeWithLayout> shape = layout_of(layout, message);
  if (!shape) return message;
  const std::span<const uint8_t> in = bytes_of(input), out = bytes_of(output);
  const int64_t dense_bytes = spec::dense_byte_size(*shape), bytes = spec::byte_size(*shape);
  const std::pair<const char*, int64_t> packed{"the packed buffer", bytes}, dense{"the dense array", dense_bytes};
  const auto [in_name, in_bytes] = input_is_packed ? packed : dense;
  const auto [out_name, out_bytes] = input_is_packed ? dense : packed;
  if (static_cast<int64_t>(in.size()) != in_bytes) return size_message(in_name, in.size(), in_bytes, *shape);
  if (static_cast<int64_t>(out.size()) != out_bytes) return size_message(out_name, out.size(), out_bytes, *shape);
  const check::Agreement d = agrees(*shape, in, out);
  return d ? describe(operation, *shape, *d) : "";
}

}  // namespace detail

// "" when `packed` is the spec's pack of `dense` (padding zero, D8).
template <class Layout, class Dense, class Packed>
std::string pack_mismatch(const Layout& layout, const Dense& dense, const Packed& packed) {
  return detail::buffers_mismatch("pack", layout, dense, packed, false, check::pack_agrees);
}

// "" when `dense` is the spec's unpack of `packed` (whatever its padding holds).
template <class Layout, class Packed, class Dense>
std::string unpack_mismatch(const Layout& layout, const Packed& packed, const Dense& dense) {
  return detail::buffers_mismatch("unpack", layout, packed, dense, true, check::unpack_agrees);
}

// "" when `index` is the spec's linear index of `element` (its coordinates,
// dim 0 first; any range of integers).
template <class Layout, class Element>
std::string linear_index_mismatch(const Layout& layout, const Element& element, int64_t index) {
  std::string message;
  const std::optional<ShapeWithLayout> shape = detail::layout_of(layout, message);
  if (!shape) return message;
  const std::vector<int64_t> e = detail::integers_of(element);
  bool inside = e.size() == shape->dims.size();
  for (size_t i = 0; inside && i < e.size(); ++i) inside = e[i] >= 0 && e[i] < shape->dims[i];
  if (!inside) {
    return "element " + tuple(e) + " is not an element of " + print_shape(*shape);
  }
  const check::Agreement d = check::index_agrees(*shape, e, index);
  return d ? detail::describe("linear_index", *shape, *d) : "";
}

// "" when `element` is what the spec stores at `position` (std::nullopt:
// padding, which no element maps to).
template <class Layout>
std::string delinearize_mismatch(const Layout& layout, int64_t position,
                                 const std::optional<std::vector<int64_t>>& element) {
  std::string message;
  const std::optional<ShapeWithLayout> shape = detail::layout_of(layout, message);
  if (!shape) return message;
  const int64_t padded = spec::padded_element_count(*shape);
  if (position < 0 || position >= padded) {
    return "position " + std::to_string(position) + " is not in [0, " + std::to_string(padded) + ") of " +
           print_shape(*shape);
  }
  const check::Agreement d = check::position_agrees(*shape, position, element);
  return d ? detail::describe("delinearize", *shape, *d) : "";
}

// "" when `bytes` is the spec's byte size of the layout's physical buffer.
template <class Layout>
std::string byte_size_mismatch(const Layout& layout, int64_t bytes) {
  std::string message;
  const std::optional<ShapeWithLayout> shape = detail::layout_of(layout, message);
  if (!shape) return message;
  const check::Agreement d = check::byte_size_agrees(*shape, bytes);
  return d ? detail::describe("byte_size", *shape, *d) : "";
}

}  // namespace tilecheck::testing
