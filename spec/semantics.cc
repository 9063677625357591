#include <tilecheck/spec/semantics.h>

#include <algorithm>
#include <string>

#include <tilecheck/spec/syntax.h>

namespace tilecheck::spec {

LevelStructure level_structure(const std::vector<bool>& combine, size_t rank) {
  return level_structure(combine.size(), rank, [&](size_t i) { return bool{combine[i]}; });
}

namespace {

std::vector<int64_t> final_bounds(const ShapeWithLayout& shape) {
  Int64Domain a;
  return level_bounds(a, shape.dims, shape.layout).back();
}

}  // namespace

void validate_element(const ShapeWithLayout& shape, const std::vector<int64_t>& element) {
  if (static_cast<int64_t>(element.size()) != shape.rank()) {
    throw Error("element (" + join(element) + ") has " + std::to_string(element.size()) +
                " coordinates but the shape has rank " + std::to_string(shape.rank()));
  }
  for (size_t i = 0; i < element.size(); ++i) {
    if (element[i] < 0 || element[i] >= shape.dims[i]) {
      throw Error("element (" + join(element) + ") is out of bounds: coordinate " +
                  std::to_string(i) + " must be in [0, " + std::to_string(shape.dims[i]) + ")");
    }
  }
}

namespace {

// Bit `bit` of a little-endian bit stream.
bool get_bit(std::span<const uint8_t> bytes, int64_t bit) {
  return (bytes[bit / 8] >> (bit % 8)) & 1;
}
void set_bit(std::span<uint8_t> bytes, int64_t bit, bool value) {
  const auto one = static_cast<uint8_t>(1u << (bit % 8));
  bytes[bit / 8] = static_cast<uint8_t>(value ? bytes[bit / 8] | one : bytes[bit / 8] & ~one);
}

void check_buffer(const char* what, size_t actual, int64_t expected) {
  if (static_cast<int64_t>(actual) != expected) {
    throw Error(std::string(what) + " buffer has " + std::to_string(actual) +
                " bytes; the layout needs exactly " + std::to_string(expected));
  }
}

}  // namespace

ShapeWithLayout parse_layout(std::string_view text) {
  try {
    ShapeWithLayout shape = parse_shape(text);
    validate(shape);
    return shape;
  } catch (const Error& e) {
    throw Error("layout '" + shown_text(text) + "': " + e.what());
  }
}

void validate(const ShapeWithLayout& shape) {
  validate_structure(shape);
  require_concrete(shape);
  Int64Domain a;  // every intermediate size is checked on the way
  compute_validated_sizes(a, shape.dims, shape.layout, shape.element_bits());
}

int64_t element_count(const ShapeWithLayout& shape) {
  Int64Domain a;
  return product(a, shape.dims);
}

std::vector<int64_t> tiled_shape(const ShapeWithLayout& shape) {
  validate_structure(shape);
  require_concrete(shape);
  return final_bounds(shape);
}

int64_t padded_element_count(const ShapeWithLayout& shape) {
  validate_structure(shape);
  require_concrete(shape);
  Int64Domain a;
  return padded_element_count(a, shape.dims, shape.layout);
}

int64_t byte_size(const ShapeWithLayout& shape) {
  Int64Domain a;
  return byte_size_of_count(a, padded_element_count(shape), shape.element_bits());
}

int64_t dense_byte_size(const ShapeWithLayout& shape) {
  validate(shape);
  Int64Domain a;
  return a.mul(element_count(shape), shape.dense_element_bytes());
}

int64_t linear_index(const ShapeWithLayout& shape, const std::vector<int64_t>& element) {
  validate(shape);
  validate_element(shape, element);
  Int64Domain a;
  return linear_index_with_tile(a, shape.dims, shape.layout, element);
}

std::optional<std::vector<int64_t>> delinearize(const ShapeWithLayout& shape, int64_t position) {
  validate(shape);
  const int64_t padded = padded_element_count(shape);
  if (position < 0 || position >= padded) {
    throw Error("position " + std::to_string(position) + " is outside [0, " +
                std::to_string(padded) + ")");
  }
  Int64Domain a;
  // Positions in the L(n) tail lie past the final shape: padding by D5.
  if (position >= product(a, final_bounds(shape))) return std::nullopt;
  Untiled<Int64Domain> u = delinearize(a, shape.dims, shape.layout, position);
  if (!u.in_bounds) return std::nullopt;
  return u.index;
}

IndexTrace trace_linear_index(const ShapeWithLayout& shape, const std::vector<int64_t>& element) {
  validate(shape);
  validate_element(shape, element);
  Int64Domain a;
  IndexTrace trace;
  trace.physical_bounds = to_physical_order(shape.dims, shape.layout.minor_to_major);
  trace.physical_index = to_physical_order(element, shape.layout.minor_to_major);
  std::vector<int64_t> bounds = trace.physical_bounds, index = trace.physical_index;
  for (const Tile& t : shape.layout.tiles) {
    LevelTrace level;
    level.tile = t;
    level.bounds_before = bounds;
    level.index_before = index;
    const TileSizes<Int64Domain> sizes = tile_sizes(a, t);
    level.structure = level_structure<Int64Domain>(sizes, bounds.size());
    const std::vector<int64_t> d = extend(a, bounds, level.structure.extension, 1);
    const std::vector<int64_t> e = extend(a, index, level.structure.extension, 0);
    for (const TileGroup& g : level.structure.groups) {
      level.merged_bounds.push_back(group_bound(a, d, g));
      level.merged_index.push_back(group_index(a, d, e, g));
      const DivMod<int64_t> qr = a.div_mod(level.merged_index.back(), *sizes[g.tile_pos]);
      level.tile_index.push_back(qr.quotient);
      level.within_tile_index.push_back(qr.remainder);
    }
    level.bounds_after = tile_bounds(a, sizes, bounds);
    level.index_after = tile_index(a, sizes, bounds, index);
    bounds = level.bounds_after;
    index = level.index_after;
    trace.levels.push_back(level);
  }
  trace.final_bounds = bounds;
  trace.final_index = index;
  trace.linear_index = linear_index(a, index, bounds);
  return trace;
}

namespace {

// Calls f(i, p) for every element: i its dense index (row-major), p its
// linear index (D1-D5). p is linear_index_with_tile of the element, computed
// for a batch of consecutive elements at once over ColumnDomain (arith.h),
// whose values are one entry per element of the batch: the very formulas
// linear_index uses, with one allocation per operation per batch instead of
// several per element.
template <class F>
void for_each_element_position(const ShapeWithLayout& shape, F f) {
  ColumnDomain a;
  std::vector<Column> dims;
  for (int64_t d : shape.dims) dims.push_back(a.constant(d));
  const LayoutLevels<ColumnDomain> layout = layout_levels(a, dims, shape.layout);
  const int64_t count = element_count(shape);
  for (int64_t begin = 0; begin < count; begin += kColumnBatch) {
    const int64_t n = std::min(kColumnBatch, count - begin);
    // Coordinate k of element begin + j, row-major: ((begin + j) / stride_k) mod d_k.
    std::vector<Column> element(shape.dims.size(), Column{ColumnDomain::Entries(n), 0});
    int64_t stride = 1;
    for (size_t k = shape.dims.size(); k-- > 0;) {
      for (int64_t j = 0; j < n; ++j) element[k].entries[j] = (begin + j) / stride % shape.dims[k];
      stride *= shape.dims[k];
    }
    const Column p = linear_index_with_tile(a, layout, element);
    for (int64_t j = 0; j < n; ++j) f(begin + j, p[j]);
  }
}

// Copies `count` bits from bit `from` of `src` to bit `to` of `dst`
// (little-endian bit streams); whole bytes when all three are whole bytes.
void copy_bits(std::span<const uint8_t> src, int64_t from, std::span<uint8_t> dst, int64_t to,
               int64_t count) {
  if (from % 8 == 0 && to % 8 == 0 && count % 8 == 0) {
    std::copy_n(src.begin() + from / 8, count / 8, dst.begin() + to / 8);
    return;
  }
  for (int64_t b = 0; b < count; ++b) set_bit(dst, to + b, get_bit(src, from + b));
}

}  // namespace

// Element i's `bits` bits are dense bits i*8*ceil(bits/8) ... and physical
// bits p*bits ..., p its linear index.
std::vector<uint8_t> pack(const ShapeWithLayout& shape, std::span<const uint8_t> dense) {
  check_buffer("dense", dense.size(), dense_byte_size(shape));
  std::vector<uint8_t> physical(static_cast<size_t>(byte_size(shape)), 0);
  const int64_t bits = shape.element_bits(), dense_bits = 8 * shape.dense_element_bytes();
  for_each_element_position(shape, [&](int64_t i, int64_t p) {
    copy_bits(dense, i * dense_bits, physical, p * bits, bits);
  });
  return physical;
}

std::vector<uint8_t> unpack(const ShapeWithLayout& shape, std::span<const uint8_t> physical) {
  check_buffer("physical", physical.size(), byte_size(shape));
  std::vector<uint8_t> dense(static_cast<size_t>(dense_byte_size(shape)), 0);
  const int64_t bits = shape.element_bits(), dense_bits = 8 * shape.dense_element_bytes();
  for_each_element_position(shape, [&](int64_t i, int64_t p) {
    copy_bits(physical, p * bits, dense, i * dense_bits, bits);
  });
  // Above each value: zeros, or copies of a signed value's top bit.
  return canonical_dense(shape, std::move(dense));
}

std::vector<uint8_t> canonical_dense(const ShapeWithLayout& shape, std::vector<uint8_t> dense) {
  const int64_t bits = shape.element_bits();
  const int64_t dense_bits = 8 * shape.dense_element_bytes();
  const bool extend = is_signed_integral(shape.type);
  for (size_t i = 0; i + dense_bits / 8 <= dense.size(); i += dense_bits / 8) {
    const int64_t first = static_cast<int64_t>(i) * 8;
    const bool negative = extend && get_bit(dense, first + bits - 1);
    for (int64_t b = bits; b < dense_bits; ++b) set_bit(dense, first + b, negative);
  }
  return dense;
}

}  // namespace tilecheck::spec
