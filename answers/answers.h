// The spec's answers as text, exactly as the `tilecheck` command prints
// them: the linear index of an element (`index`), the element at a position
// (`delinearize`), the derivation of an index level by level (`explain`),
// the sizes beside XLA's size model (`size`) and the bitcast verdict
// (`bitcast`); and the values those commands take (an element `2,3`, a
// position). The command and the layout explorer (web/, the spec in the
// browser) print the same bytes because both call these. Only the spec is
// used: no impl, no Z3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "answers/bitcast.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::answers {

// Any shape (an array, a tuple, ...) as its text gives it, without the
// oracle's checks (spec::parse_layout has them, for one array). Throws Error
// whose message names the text: "layout 'TEXT': column N: ...".
Shape parse_shape_text(std::string_view text);

// "2,3", "(2,3)", " 2, 3 " -> {2,3}; "" or "()" -> {} (a scalar's element).
// Throws Error naming the bad entry.
std::vector<int64_t> parse_coordinates(std::string_view text);

// A whole int64, no sign games or trailing characters. Throws Error naming `what`.
int64_t parse_int64(std::string_view text, std::string_view what);

// Where the element at linear index `index` sits in the physical buffer
// (D7): its first bit is bit `bit` of byte `byte`; `text` says so for
// widths that are not whole bytes ("byte 21, bits 4-7"), and is empty for
// whole bytes.
struct BufferPlace {
  int64_t byte = 0, bit = 0;
  std::string text;
};
BufferPlace buffer_place(const ShapeWithLayout& shape, int64_t index);

// `tilecheck index`: "7\n", or "21 (byte 10, bits 4-7)\n" for sub-byte widths.
std::string index_text(const ShapeWithLayout& shape, const std::vector<int64_t>& element);

// `tilecheck delinearize`: "2,3\n" (the element at `position`) or "padding\n".
std::string delinearize_text(const ShapeWithLayout& shape, int64_t position);

// `tilecheck explain`: the derivation of the element's linear index as the
// document shows it for Figure 1, level by level (spec::trace_linear_index).
std::string explain_text(const ShapeWithLayout& shape, const std::vector<int64_t>& element);

// Both size models of one array; `exact_error` says why the exact one is
// missing (a construct tilecheck does not model), `xla_error` likewise.
struct ArraySizes {
  std::string shape;
  int64_t elements = 0;
  std::optional<int64_t> padded, bytes;
  std::vector<int64_t> tiled;
  int64_t element_bits = 0;
  std::string exact_error, xla_error;
  std::optional<int64_t> array_size, byte_size_of;
  bool meaningless = false;
  std::vector<std::string> reasons;
};
// Throws Error when neither model sizes the array.
ArraySizes array_sizes(const ShapeWithLayout& shape);

// `tilecheck size` (with `xla_model`: `--model xla`): one array's sizes, or
// a tuple's arrays one by one and the totals.
std::string size_text(const Shape& whole, bool xla_model);

// `tilecheck bitcast`: the verdict, its reasons and what was compared.
std::string bitcast_text(const ShapeWithLayout& from, const ShapeWithLayout& to,
                         const std::optional<std::vector<int64_t>>& transpose,
                         const BitcastReport& report);

}  // namespace tilecheck::answers
