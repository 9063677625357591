#include <tilecheck/spec/xla_model.h>

#include <algorithm>

#include <tilecheck/spec/arith.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::xla {
namespace {

spec::Int64Domain a;

void require_sized(const ShapeWithLayout& shape) {
  validate_structure(shape);
  if (shape.has_symbolic_dims()) {
    throw Error("XLA's sizes need every dim: '?' has no size (XLA multiplies by INT64_MIN)");
  }
}

// primitive_util::ByteWidth: ceil(BitWidth / 8); pred and sub-byte types 1.
int64_t byte_width(ElementType type) { return (natural_bit_width(type) + 7) / 8; }

int64_t bytes_of_count(const ShapeWithLayout& shape, int64_t count) {
  if (shape.layout.element_size_bits) {
    return a.ceil_div(a.mul(count, *shape.layout.element_size_bits), 8);
  }
  return a.mul(count, byte_width(shape.type));
}

int64_t round_up(int64_t value, int64_t multiple) {
  return a.mul(a.ceil_div(value, multiple), multiple);
}

// LayoutUtil::MaxSplitSize: the largest piece of logical dim `dim` under the
// first split config on it (SC dims are physical, 0 most major).
int64_t max_split_size(const ShapeWithLayout& shape, int64_t dim) {
  const Layout& l = shape.layout;
  for (const SplitConfig& sc : l.split_configs) {
    if (l.minor_to_major[shape.rank() - 1 - sc.dimension] != dim) continue;
    int64_t largest = 0, previous = 0;
    for (int64_t index : sc.split_indices) {
      largest = std::max(largest, index - previous);
      previous = index;
    }
    return std::max(largest, shape.dims[dim] - previous);
  }
  return shape.dims[dim];
}

bool has_combine(const Tile& tile) {
  return std::find(tile.dims.begin(), tile.dims.end(), kCombineDim) != tile.dims.end();
}

std::string tiles_text(const std::vector<Tile>& tiles, size_t from) {
  std::string out;
  for (size_t i = from; i < tiles.size(); ++i) out += print_tile(tiles[i]);
  return out;
}

}  // namespace

int64_t byte_size_of(const ShapeWithLayout& shape) {
  require_sized(shape);
  int64_t count = 1;
  for (int64_t d : shape.dims) count = a.mul(count, d);
  return bytes_of_count(shape, count);
}

int64_t byte_size_of(const Shape& shape) {
  switch (shape.kind) {
    case Shape::Kind::kArray: return byte_size_of(shape.array);
    case Shape::Kind::kToken: return 0;
    case Shape::Kind::kOpaque: return kPointerSize;
    case Shape::Kind::kBuffer: return byte_size_of(shape.elements.at(0).array);
    case Shape::Kind::kTuple: break;
  }
  return a.mul(kPointerSize, static_cast<int64_t>(shape.elements.size()));
}

int64_t array_size(const ShapeWithLayout& shape) {
  require_sized(shape);
  const Layout& l = shape.layout;
  const int64_t rank = shape.rank();
  for (const SplitConfig& sc : l.split_configs) {
    if (sc.dimension >= rank) {
      throw Error("SC(" + std::to_string(sc.dimension) + ":..) names a dim the rank-" +
                  std::to_string(rank) + " shape does not have; XLA's ArraySize reads "
                  "minor_to_major out of bounds there");
    }
  }
  if (l.tiles.empty()) return byte_size_of(shape);
  const std::vector<int64_t>& t = l.tiles[0].dims;
  // XLA rounds up to the '*' marker, INT64_MIN: every such product is 0.
  if (has_combine(l.tiles[0])) return 0;
  const int64_t k = static_cast<int64_t>(t.size());
  int64_t count = 1;
  for (int64_t d = 0; d < k; ++d) {
    const int64_t size = d < rank ? max_split_size(shape, l.minor_to_major[d]) : 1;
    count = a.mul(count, round_up(size, t[k - 1 - d]));
  }
  for (int64_t d = k; d < rank; ++d) count = a.mul(count, max_split_size(shape, l.minor_to_major[d]));
  if (l.tail_padding_alignment) count = round_up(count, *l.tail_padding_alignment);
  return bytes_of_count(shape, count);
}

SizeComparison compare_sizes(const ShapeWithLayout& shape) {
  SizeComparison c;
  c.byte_size_of = byte_size_of(shape);
  c.array_size = array_size(shape);
  c.exact = spec::byte_size(shape);
  const Layout& l = shape.layout;
  if (!l.tiles.empty() && has_combine(l.tiles[0])) {
    c.meaningless = true;
    c.reasons.push_back(
        "XLA's ArraySize is 0 here: it rounds each dim up to the tile entry, and a '*' is stored "
        "as INT64_MIN, so XLA does not model combined dims; the exact size combines them (D4)");
  }
  if (c.exact == c.array_size) return c;
  if (l.tiles.size() > 1 && !c.meaningless) {
    ShapeWithLayout first_only = shape;
    first_only.layout.tiles.resize(1);
    const int64_t with_first = spec::byte_size(first_only);
    if (with_first != c.exact) {
      c.reasons.push_back("XLA's ArraySize counts only the first tile T" +
                          print_tile(l.tiles[0]) + " (\"sub-tiles add no padding\"); the " +
                          "sub-tiles " + tiles_text(l.tiles, 1) + " add " +
                          std::to_string(c.exact - with_first) + " bytes of padding (D2, D3)");
    }
  }
  if (l.tiles.empty() && l.tail_padding_alignment &&
      spec::padded_element_count(shape) != spec::element_count(shape)) {
    c.reasons.push_back("XLA ignores L(" + std::to_string(*l.tail_padding_alignment) +
                        ") when the layout has no tiles; the exact size rounds the element "
                        "count up to a multiple of it (D5)");
  }
  if (is_sub_byte(shape.type) && !l.element_size_bits) {
    const std::string type(element_type_name(shape.type));
    c.reasons.push_back("XLA stores " + type + " without E(n) at one byte per element; the "
                        "exact size packs it at its natural " +
                        std::to_string(natural_bit_width(shape.type)) + " bits (D6, D7)");
  }
  if (c.reasons.empty()) {
    c.reasons.push_back("the two models differ for a reason tilecheck does not name");
  }
  return c;
}

namespace {

void add(std::vector<Problem>& out, Problem::Severity severity, std::string property,
         std::string message, std::string xla_check = "") {
  out.push_back({severity, std::move(property), std::move(message), std::move(xla_check)});
}

}  // namespace

std::vector<Problem> validity_problems(const ShapeWithLayout& shape) {
  validate_structure(shape);
  using S = Problem::Severity;
  std::vector<Problem> out;
  const Layout& l = shape.layout;
  const std::string type(element_type_name(shape.type));
  const int64_t rank = shape.rank();
  if (l.element_size_bits) {
    const int64_t e = *l.element_size_bits;
    const std::string prop = "E(" + std::to_string(e) + ")";
    if (shape.type == ElementType::kPred) {
      add(out, S::kError, prop,
          "E(n) on pred: XLA's CPU and GPU backends reject an element size on pred (it is not a "
          "sub-byte type); tilecheck reads pred E(1) as packed booleans (D6)",
          "CpuGpuShapeVerifier");
    } else if (!is_sub_byte(shape.type)) {
      add(out, S::kError, prop,
          "E(n) on " + type + ", which is not a sub-byte type: XLA's CPU and GPU backends do "
          "not support custom element sizes on non-sub-byte types",
          "CpuGpuShapeVerifier");
    } else if (e < natural_bit_width(shape.type)) {
      add(out, S::kWarning, prop,
          "E(" + std::to_string(e) + ") is narrower than " + type + "'s " +
              std::to_string(natural_bit_width(shape.type)) + " bits: values lose their high bits");
    }
  }
  if (l.index_type || l.pointer_type || l.physical_shape) {
    const std::string what = l.index_type      ? "index_primitive_type"
                             : l.pointer_type  ? "pointer_primitive_type"
                                               : "physical_shape";
    const std::string prop = l.index_type ? "#(..)" : l.pointer_type ? "*(..)" : "P(..)";
    add(out, S::kError, prop,
        "layout has a " + what + ", but is not a sparse array: XLA rejects it, and tilecheck "
        "models no sparse layout",
        "LayoutUtil::ValidateLayoutForShape");
  }
  for (size_t level = 0; level < l.tiles.size(); ++level) {
    const int64_t entries = static_cast<int64_t>(l.tiles[level].dims.size());
    std::string prop = "T";
    prop += print_tile(l.tiles[level]);
    if (level == 0 && rank > 0 && entries > rank) {
      add(out, S::kWarning, prop,
          "the first tile has " + std::to_string(entries) + " entries but the shape has rank " +
              std::to_string(rank) + ": XLA and tilecheck read the missing dims as size 1 (D3), "
              "so every element pays for a whole tile in those dims");
    }
  }
  for (const SplitConfig& sc : l.split_configs) {
    const std::string prop =
        "SC(" + std::to_string(sc.dimension) + ":" + join(sc.split_indices) + ")";
    if (sc.dimension >= rank) {
      add(out, S::kError, prop,
          "split config on dim " + std::to_string(sc.dimension) + " of a rank-" +
              std::to_string(rank) + " shape: XLA reads minor_to_major out of bounds",
          "LayoutUtil::MaxSplitSize");
      continue;
    }
    const int64_t size = shape.dims[l.minor_to_major[rank - 1 - sc.dimension]];
    int64_t previous = 0;
    for (int64_t index : sc.split_indices) {
      if (index <= previous || (size != kSymbolicDim && index >= size)) {
        add(out, S::kError, prop,
            "split index " + std::to_string(index) + " leaves an empty or negative piece: split "
            "indices must rise strictly inside the dim (size " +
                (size == kSymbolicDim ? std::string("?") : std::to_string(size)) + ")",
            "LayoutUtil::MaxSplitSize");
        break;
      }
      previous = index;
    }
  }
  if (l.memory_space && *l.memory_space > 127) {
    add(out, S::kError, "S(" + std::to_string(*l.memory_space) + ")",
        "XLA stores the memory space in 8 signed bits: S(" + std::to_string(*l.memory_space) +
            ") becomes S(" + std::to_string(static_cast<int8_t>(*l.memory_space)) + ")",
        "Layout::set_memory_space");
  }
  if (l.metadata_prefix_bytes && shape.dynamic_dims.empty() && !shape.has_symbolic_dims()) {
    add(out, S::kWarning, "M(" + std::to_string(*l.metadata_prefix_bytes) + ")",
        "dynamic-shape metadata on a static shape: XLA uses M(n) only for shapes with dynamic "
        "dims");
  }
  return out;
}

std::vector<Problem> validity_problems(const Shape& shape) {
  std::vector<Problem> out;
  for (const Leaf& leaf : array_leaves(shape)) {
    for (Problem p : validity_problems(*leaf.array)) {
      if (!shape.is_array()) {
        std::string where = "{";
        where += join(leaf.path);
        where += "} ";
        p.property.insert(0, where);
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace tilecheck::xla
