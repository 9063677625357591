// XLA's own view of a layout, beside tilecheck's exact one: the byte sizes
// XLA's ShapeUtil computes, why they differ from the exact size, and the
// layouts XLA would reject although they parse (docs/SIZES.md, D11).
//
// The exact size (spec::byte_size) is what a buffer holding every element
// and every padding position of the layout needs (D5, D6). XLA's functions
// follow simpler rules:
//
//   ByteSizeOf(array)  element count * ByteWidth(type), or ceil(count * E/8)
//                      with E(n): no tiles, no padding (ShapeUtil::ByteSizeOf
//                      and ByteSizeOfElements)
//   ArraySize(array)   the first tile only ("sub-tiles add no padding"); L(n)
//                      only when there are tiles; with split configs the
//                      largest piece; a sub-byte type without E(n) at one
//                      byte per element; 0 when the first tile has a '*'
//                      (ShapeUtil::ArraySize, LayoutUtil::MaxSplitSize)
//   ByteSizeOf(tuple)  its index table: one pointer (8 bytes here) per
//                      element (ShapeUtil::ByteSizeOfTupleIndexTable)
//
// Both are computed in checked int64; bounded dynamic dims count at their
// bound, as in XLA.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::xla {

// The pointer size tuples are counted with (XLA's callers pass one; 8 is
// HloCostAnalysis's and a 64-bit host's).
inline constexpr int64_t kPointerSize = 8;

// ShapeUtil::ByteSizeOf of an array. Throws Error for a '?' dim.
int64_t byte_size_of(const ShapeWithLayout& shape);
// ByteSizeOf of a tuple: kPointerSize per element; token 0; opaque
// kPointerSize; a buffer b(..), its array's.
int64_t byte_size_of(const Shape& shape);

// ShapeUtil::ArraySize as XLA computes it, 0 included where XLA returns 0.
// Throws Error for a '?' dim or a split config whose dim is not in the
// shape (XLA reads out of bounds there).
int64_t array_size(const ShapeWithLayout& shape);

// Why spec::byte_size and array_size differ, one sentence each; empty when
// they agree. `meaningless` is set when XLA's figure means nothing (a '*'
// in the first tile, which XLA's ArraySize does not model).
struct SizeComparison {
  int64_t exact = 0;        // spec::byte_size
  int64_t array_size = 0;   // xla::array_size
  int64_t byte_size_of = 0; // xla::byte_size_of
  bool meaningless = false;
  std::vector<std::string> reasons;
};
// Throws Error when either size cannot be computed (a '?' dim, overflow, a
// layout the exact model does not support).
SizeComparison compare_sizes(const ShapeWithLayout& shape);

// A layout that parses but that XLA rejects (severity kError, with the XLA
// check that rejects it), or that XLA accepts with a meaning a user is
// unlikely to want (kWarning).
struct Problem {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  std::string property;  // "E(4)", "T(2,128)", "SC(2:10)", ...
  std::string message;   // what is wrong and why
  std::string xla_check; // the XLA function or verifier that rejects it; empty for a warning
};
std::vector<Problem> validity_problems(const ShapeWithLayout& shape);
// Every leaf of a tuple; each problem's property is prefixed with the leaf's
// index path ("{1,0} E(4)") for a tuple.
std::vector<Problem> validity_problems(const Shape& shape);

}  // namespace tilecheck::xla
