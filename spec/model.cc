#include <tilecheck/spec/model.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace tilecheck {
namespace {

struct TypeInfo {
  ElementType type;
  std::string_view name;
  int bits;
};

// XLA's array element types with their bit widths. pred is one logical bit
// but 8 bits of storage (D6).
constexpr std::array<TypeInfo, 30> kTypes = {{
    {ElementType::kPred, "pred", 8},
    {ElementType::kS1, "s1", 1},
    {ElementType::kS2, "s2", 2},
    {ElementType::kS4, "s4", 4},
    {ElementType::kS8, "s8", 8},
    {ElementType::kS16, "s16", 16},
    {ElementType::kS32, "s32", 32},
    {ElementType::kS64, "s64", 64},
    {ElementType::kU1, "u1", 1},
    {ElementType::kU2, "u2", 2},
    {ElementType::kU4, "u4", 4},
    {ElementType::kU8, "u8", 8},
    {ElementType::kU16, "u16", 16},
    {ElementType::kU32, "u32", 32},
    {ElementType::kU64, "u64", 64},
    {ElementType::kF16, "f16", 16},
    {ElementType::kBF16, "bf16", 16},
    {ElementType::kF32, "f32", 32},
    {ElementType::kF64, "f64", 64},
    {ElementType::kC64, "c64", 64},
    {ElementType::kC128, "c128", 128},
    {ElementType::kF8E5M2, "f8e5m2", 8},
    {ElementType::kF8E4M3, "f8e4m3", 8},
    {ElementType::kF8E4M3FN, "f8e4m3fn", 8},
    {ElementType::kF8E4M3B11FNUZ, "f8e4m3b11fnuz", 8},
    {ElementType::kF8E5M2FNUZ, "f8e5m2fnuz", 8},
    {ElementType::kF8E4M3FNUZ, "f8e4m3fnuz", 8},
    {ElementType::kF8E3M4, "f8e3m4", 8},
    {ElementType::kF8E8M0FNU, "f8e8m0fnu", 8},
    {ElementType::kF4E2M1FN, "f4e2m1fn", 4},
}};

const TypeInfo& info(ElementType type) {
  for (const TypeInfo& t : kTypes) {
    if (t.type == type) return t;
  }
  throw Error("invalid element type value " + std::to_string(static_cast<int>(type)));
}

}  // namespace

const std::vector<ElementType>& all_element_types() {
  static const std::vector<ElementType> types = [] {
    std::vector<ElementType> v;
    for (const TypeInfo& t : kTypes) v.push_back(t.type);
    return v;
  }();
  return types;
}

std::string_view element_type_name(ElementType type) { return info(type).name; }

std::optional<ElementType> element_type_from_name(std::string_view name) {
  for (const TypeInfo& t : kTypes) {
    if (t.name.size() == name.size() &&
        std::equal(name.begin(), name.end(), t.name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == b;
        })) {
      return t.type;
    }
  }
  return std::nullopt;
}

int natural_bit_width(ElementType type) { return info(type).bits; }

bool is_integral(ElementType type) {
  const std::string_view name = info(type).name;
  return name[0] == 's' || name[0] == 'u';
}

bool is_signed_integral(ElementType type) { return info(type).name[0] == 's'; }

bool is_sub_byte(ElementType type) { return type != ElementType::kPred && info(type).bits < 8; }

bool ShapeWithLayout::has_symbolic_dims() const {
  return std::find(dims.begin(), dims.end(), kSymbolicDim) != dims.end();
}

bool ShapeWithLayout::is_dynamic(int64_t dim) const {
  return std::binary_search(dynamic_dims.begin(), dynamic_dims.end(), dim);
}

int64_t ShapeWithLayout::element_bits() const {
  return layout.element_size_bits.value_or(natural_bit_width(type));
}

int64_t ShapeWithLayout::dense_element_bytes() const { return (element_bits() + 7) / 8; }

Layout default_layout(int64_t rank) {
  Layout layout;
  for (int64_t d = rank - 1; d >= 0; --d) layout.minor_to_major.push_back(d);
  return layout;
}

void validate_structure(const ShapeWithLayout& shape) {
  info(shape.type);
  const int64_t rank = shape.rank();
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t d = shape.dims[i];
    if (d < 0 && d != kSymbolicDim) {
      throw Error("dim " + std::to_string(i) + " is " + std::to_string(d) +
                  "; dims must be >= 0");
    }
  }
  const std::vector<int64_t>& m2m = shape.layout.minor_to_major;
  if (static_cast<int64_t>(m2m.size()) != rank) {
    throw Error("minor_to_major has " + std::to_string(m2m.size()) +
                " entries but the shape has rank " + std::to_string(rank));
  }
  std::vector<bool> seen(rank, false);
  for (int64_t d : m2m) {
    if (d < 0 || d >= rank) {
      throw Error("minor_to_major entry " + std::to_string(d) + " is not a dim of a rank-" +
                  std::to_string(rank) + " shape");
    }
    if (seen[d]) {
      throw Error("minor_to_major is not a permutation: dim " + std::to_string(d) +
                  " appears twice");
    }
    seen[d] = true;
  }
  for (size_t level = 0; level < shape.layout.tiles.size(); ++level) {
    const std::vector<int64_t>& t = shape.layout.tiles[level].dims;
    const std::string where = "tile " + std::to_string(level + 1);
    if (t.empty()) throw Error(where + " is empty");
    for (int64_t entry : t) {
      if (entry == kCombineDim) continue;
      if (entry <= 0) {
        throw Error(where + " has entry " + std::to_string(entry) +
                    "; tile entries must be >= 1 or '*'");
      }
    }
    if (t.back() == kCombineDim) {
      throw Error(where + " ends with '*'; '*' combines a dim with the next more minor one");
    }
  }
  if (shape.layout.tail_padding_alignment && *shape.layout.tail_padding_alignment < 1) {
    throw Error("L(" + std::to_string(*shape.layout.tail_padding_alignment) +
                ") must be at least 1");
  }
  if (shape.layout.element_size_bits &&
      (*shape.layout.element_size_bits < 1 || *shape.layout.element_size_bits > 128)) {
    throw Error("E(" + std::to_string(*shape.layout.element_size_bits) +
                ") is outside 1..128");
  }
  if (shape.layout.memory_space && *shape.layout.memory_space < 0) {
    throw Error("S(" + std::to_string(*shape.layout.memory_space) + ") must be >= 0");
  }
  for (size_t i = 0; i < shape.dynamic_dims.size(); ++i) {
    const int64_t d = shape.dynamic_dims[i];
    if (d < 0 || d >= rank || shape.dims[d] == kSymbolicDim ||
        (i > 0 && d <= shape.dynamic_dims[i - 1])) {
      throw Error("dynamic_dims must list dims of the shape with a bound, ascending, once each");
    }
  }
  for (const auto& [name, type] : {std::pair{"#", shape.layout.index_type},
                                   std::pair{"*", shape.layout.pointer_type}}) {
    if (type && !is_integral(*type)) {
      throw Error(std::string(name) + "(" + std::string(element_type_name(*type)) +
                  ") must name an integer type such as u32");
    }
  }
  for (const SplitConfig& sc : shape.layout.split_configs) {
    if (sc.dimension < 0) {
      throw Error("SC(" + std::to_string(sc.dimension) + ":..) names a negative dim");
    }
    for (int64_t index : sc.split_indices) {
      if (index < 0) {
        throw Error("SC(" + std::to_string(sc.dimension) + ":..) has a negative split index " +
                    std::to_string(index));
      }
    }
  }
  if (shape.layout.metadata_prefix_bytes && *shape.layout.metadata_prefix_bytes < 0) {
    throw Error("M(" + std::to_string(*shape.layout.metadata_prefix_bytes) + ") must be >= 0");
  }
}

void require_modelled(const ShapeWithLayout& shape) {
  const Layout& l = shape.layout;
  if (!l.split_configs.empty()) {
    throw Error("not supported: split configs (SC): the array is split into separate pieces, "
                "which no mapping of tilecheck models (docs/DESIGN.md, D10)");
  }
  if (l.physical_shape) {
    throw Error("not supported: a physical shape (P) describes a sparse array; sparse layouts "
                "are not supported (docs/DESIGN.md, D10)");
  }
  if (l.index_type || l.pointer_type) {
    throw Error(std::string("not supported: ") + (l.index_type ? "an index type (#)" : "a pointer type (*)") +
                " describes a sparse array; sparse layouts are not supported (docs/DESIGN.md, D10)");
  }
}

void require_concrete(const ShapeWithLayout& shape) {
  require_modelled(shape);
  if (shape.has_symbolic_dims()) {
    throw Error("symbolic dim '?' is only allowed by 'tilecheck prove' and 'tilecheck equiv'");
  }
}

std::string join(const std::vector<int64_t>& values, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += separator;
    out += std::to_string(values[i]);
  }
  return out;
}

std::string tuple(const std::vector<int64_t>& values) {
  std::string out = "(";
  out += join(values);
  out += ')';
  return out;
}

namespace {
void collect_leaves(const Shape& shape, std::vector<int64_t>& path, std::vector<Leaf>& out) {
  if (shape.kind == Shape::Kind::kArray) {
    out.push_back({path, &shape.array});
    return;
  }
  for (size_t i = 0; i < shape.elements.size(); ++i) {
    path.push_back(static_cast<int64_t>(i));
    collect_leaves(shape.elements[i], path, out);
    path.pop_back();
  }
}
}  // namespace

std::vector<Leaf> array_leaves(const Shape& shape) {
  std::vector<Leaf> out;
  std::vector<int64_t> path;
  collect_leaves(shape, path, out);
  return out;
}

}  // namespace tilecheck
