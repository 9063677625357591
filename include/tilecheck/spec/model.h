// tilecheck data model: element types, shapes, tiles and layouts.
//
// This header is the vocabulary shared by the spec, the impl and everything
// that checks them. It holds data and validation only: no index arithmetic
// lives here, so the impl can depend on it without touching the spec's
// algorithms.
//
// A shape with layout is written, in XLA's property order,
//   TYPE[d0,...,dn-1]{m2m:T(..)(..)L(n)#(t)*(t)E(n)S(n)SC(d:i,..)P(shape)M(n)}
//   TYPE   element type (f32, bf16, s4, pred, ...)
//   d_i    logical dims, dim 0 most major in the dense (row-major) view;
//          '<=N' a bounded dynamic dim (sized at its bound N, as XLA
//          allocates it), '?' an unbounded one (only the proofs model it)
//   m2m    minor_to_major: logical dims listed from most minor to most major
//   T(..)  one tile per level (D2), entries >= 1 or '*' (combine, D4)
//   L(n)   tail padding: padded element count rounded up to a multiple of n (D5)
//   #(t)   index type, *(t) pointer type: sparse-array properties; kept and
//          printed, but no mapping models them (D10)
//   E(n)   element width in bits, 1..128 (D6)
//   S(n)   memory space; carried and printed, no effect on indexing
//   SC(..) split configs: the array is split into separate pieces along a
//          dim; kept and printed, no mapping models them (D10)
//   P(..)  physical shape of a sparse array; kept, not modelled (D10)
//   M(n)   bytes of dynamic-shape metadata before the data; kept and
//          printed, no effect on indexing
// A whole XLA shape may also be a tuple of shapes, a token or an opaque
// value (Shape, below).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilecheck {

// Every invalid input is reported with this exception (D9). `column` is the
// 1-based column in the text being parsed, or 0 when the error is not about
// a position in a text.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int64_t column = 0)
      : std::runtime_error(column > 0 ? "column " + std::to_string(column) + ": " + message
                                      : message),
        column_(column) {}
  int64_t column() const { return column_; }

 private:
  int64_t column_;
};

enum class ElementType {
  kPred, kS1, kS2, kS4, kS8, kS16, kS32, kS64,
  kU1, kU2, kU4, kU8, kU16, kU32, kU64,
  kF16, kBF16, kF32, kF64, kC64, kC128,
  kF8E5M2, kF8E4M3, kF8E4M3FN, kF8E4M3B11FNUZ, kF8E5M2FNUZ, kF8E4M3FNUZ,
  kF8E3M4, kF8E8M0FNU, kF4E2M1FN,
};

// All element types, in declaration order.
const std::vector<ElementType>& all_element_types();
// Lowercase XLA name: "f32", "bf16", "f8e4m3fn", ...
std::string_view element_type_name(ElementType type);
// Case-insensitive lookup; nullopt for an unknown name.
std::optional<ElementType> element_type_from_name(std::string_view name);
// The type's natural storage width in bits (D6): the XLA bit width, except
// pred, which is stored in 8 bits unless a layout says E(1).
int natural_bit_width(ElementType type);
// s1..s64 and u1..u64 (XLA's IsIntegralType; pred is not).
bool is_integral(ElementType type);
// The 1-, 2- and 4-bit types other than pred (XLA's IsSubByteNonPredType).
bool is_sub_byte(ElementType type);
// s1..s64: the types whose dense elements unpack sign-extended
// (docs/PROTOCOL.md, "Dense buffers").
bool is_signed_integral(ElementType type);

// A tile entry meaning "combine this dim with the next more minor one" (D4).
// Written '*' in text; the value is XLA's Tile::kCombineDimension, INT64_MIN.
inline constexpr int64_t kCombineDim = std::numeric_limits<int64_t>::min();
// A shape dim whose size is unknown (written '?'); only the proofs accept it.
inline constexpr int64_t kSymbolicDim = -2;

struct Tile {
  std::vector<int64_t> dims;  // each >= 1 or kCombineDim
  bool operator==(const Tile&) const = default;
};

// One split config, SC(dimension:i0,i1,...): the physical dim `dimension`
// (0 most major) is split into pieces at the given indices.
struct SplitConfig {
  int64_t dimension = 0;
  std::vector<int64_t> split_indices;
  bool operator==(const SplitConfig&) const = default;
};

struct Layout {
  std::vector<int64_t> minor_to_major;
  std::vector<Tile> tiles;
  std::optional<int64_t> tail_padding_alignment;  // L(n), n >= 1
  std::optional<ElementType> index_type;          // #(t), an integer type
  std::optional<ElementType> pointer_type;        // *(t), an integer type
  std::optional<int64_t> element_size_bits;       // E(n), 1 <= n <= 128
  std::optional<int64_t> memory_space;            // S(n), n >= 0
  std::vector<SplitConfig> split_configs;         // SC(..)(..)
  std::optional<std::string> physical_shape;      // P(..): its canonical text
  std::optional<int64_t> metadata_prefix_bytes;   // M(n), n >= 1
  bool operator==(const Layout&) const = default;
};

struct ShapeWithLayout {
  ElementType type = ElementType::kF32;
  std::vector<int64_t> dims;  // each >= 0 or kSymbolicDim
  // The dims written '<=N' (bounded dynamic), ascending; dims[i] is the bound.
  std::vector<int64_t> dynamic_dims;
  Layout layout;
  bool operator==(const ShapeWithLayout&) const = default;

  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  bool has_symbolic_dims() const;
  bool is_dynamic(int64_t dim) const;
  // Element width in bits after E(n) (D6).
  int64_t element_bits() const;
  // Bytes one element occupies in the dense (untiled, unpacked) array:
  // ceil(element_bits / 8).
  int64_t dense_element_bytes() const;
};

// Calls f(element) for every element of an array of these dims, row-major
// (dim 0 most major); none when a dim is 0 (or symbolic). When f returns a
// bool, false stops the sweep. Returns false if it was stopped.
template <class F>
bool for_each_element(const std::vector<int64_t>& dims, F f) {
  for (const int64_t d : dims) {
    if (d <= 0) return true;
  }
  std::vector<int64_t> e(dims.size(), 0);
  while (true) {
    if constexpr (std::is_same_v<decltype(f(e)), bool>) {
      if (!f(std::as_const(e))) return false;
    } else {
      f(std::as_const(e));
    }
    size_t d = e.size();
    while (d > 0 && ++e[d - 1] == dims[d - 1]) e[--d] = 0;
    if (d == 0) return true;
  }
}

// The default layout of a rank-n shape: minor_to_major n-1,...,0, no tiles.
Layout default_layout(int64_t rank);

// Structural validation (D9) that needs no arithmetic: minor_to_major is a
// permutation of the dims, tile entries >= 1 or '*', '*' never last, no empty
// tile, L >= 1, E in 1..128, S >= 0, dims >= 0 or '?'. Throws Error.
// Overflow of sizes is checked by whoever computes them (spec and impl both).
void validate_structure(const ShapeWithLayout& shape);

// Rejects, with "not supported: ...", what no mapping of tilecheck models
// (D10): split configs, a physical shape, index and pointer types. The
// proofs call this; every other operation calls require_concrete.
void require_modelled(const ShapeWithLayout& shape);
// require_modelled, and rejects symbolic dims with a clear error.
void require_concrete(const ShapeWithLayout& shape);

// A whole XLA shape: an array with its layout, a tuple of shapes (possibly
// empty; the parser reads at most kMaxShapeNesting levels, syntax.h), a
// token, an opaque value, or a buffer holding one array (XLA's b(..)).
struct Shape {
  enum class Kind { kArray, kTuple, kToken, kOpaque, kBuffer };
  Kind kind = Kind::kArray;
  ShapeWithLayout array;        // kArray only
  std::vector<Shape> elements;  // kTuple; kBuffer: its one array
  bool operator==(const Shape&) const = default;

  bool is_array() const { return kind == Kind::kArray; }
};

// Every array in `shape` in order, with its index path ({1,0}: element 0 of
// element 1 of the tuple; {} for a top-level array).
struct Leaf {
  std::vector<int64_t> path;
  const ShapeWithLayout* array;
};
std::vector<Leaf> array_leaves(const Shape& shape);

// Numbers in messages: join({1,2,3}) is "1,2,3", tuple({1,2,3}) is "(1,2,3)"
// (an element, a shape, a tiled shape).
std::string join(const std::vector<int64_t>& values, std::string_view separator = ",");
std::string tuple(const std::vector<int64_t>& values);

}  // namespace tilecheck
