#include <tilecheck/spec/reshape_formulation.h>

#include <tilecheck/spec/arith.h>
#include <tilecheck/spec/semantics.h>

namespace tilecheck::spec {
namespace {

// An array view: its bounds and the index of one element in it.
struct Point {
  std::vector<int64_t> bounds;
  std::vector<int64_t> index;
};

const Int64Domain kInt;

// Row-major position by Horner's rule.
int64_t position_of(const Point& p) {
  int64_t pos = 0;
  for (size_t i = 0; i < p.bounds.size(); ++i) pos = kInt.add(kInt.mul(pos, p.bounds[i]), p.index[i]);
  return pos;
}

// A reshape is a bitcast: the element keeps its row-major position.
Point reshape(const Point& p, std::vector<int64_t> new_bounds) {
  int64_t pos = position_of(p);
  std::vector<int64_t> index(new_bounds.size(), 0);
  for (size_t i = new_bounds.size(); i-- > 0;) {
    if (new_bounds[i] == 0) return {new_bounds, index};  // an empty array has no elements
    index[i] = pos % new_bounds[i];
    pos /= new_bounds[i];
  }
  return {new_bounds, index};
}

// One tiling level on the whole (physical) array.
Point apply_tile(const Point& p, const Tile& tile) {
  const size_t k = tile.dims.size();
  // D3: reshape to add leading size-1 dims.
  std::vector<int64_t> bounds = p.bounds;
  while (bounds.size() < k) bounds.insert(bounds.begin(), 1);
  Point q = reshape(p, bounds);
  const size_t prefix = bounds.size() - k;

  // D4: reshape merging each '*' dim into the next more minor one.
  std::vector<int64_t> merged(bounds.begin(), bounds.begin() + prefix), sizes;
  int64_t run = 1;
  for (size_t i = 0; i < k; ++i) {
    run = kInt.mul(run, bounds[prefix + i]);
    if (tile.dims[i] == kCombineDim) continue;
    merged.push_back(run);
    sizes.push_back(tile.dims[i]);
    run = 1;
  }
  q = reshape(q, merged);

  // 1. pad: the index is unchanged, the bounds grow to whole tiles.
  const size_t n = sizes.size();
  for (size_t i = 0; i < n; ++i) {
    q.bounds[prefix + i] = kInt.mul(kInt.ceil_div(q.bounds[prefix + i], sizes[i]), sizes[i]);
  }
  // 2. reshape each tiled dim D into (D/t, t).
  std::vector<int64_t> split(q.bounds.begin(), q.bounds.begin() + prefix);
  for (size_t i = 0; i < n; ++i) {
    split.push_back(q.bounds[prefix + i] / sizes[i]);
    split.push_back(sizes[i]);
  }
  q = reshape(q, split);
  // 3. transpose: the (D/t) dims in order, then the t dims in order.
  Point out;
  out.bounds.assign(q.bounds.begin(), q.bounds.begin() + prefix);
  out.index.assign(q.index.begin(), q.index.begin() + prefix);
  for (size_t part = 0; part < 2; ++part) {
    for (size_t i = 0; i < n; ++i) {
      out.bounds.push_back(q.bounds[prefix + 2 * i + part]);
      out.index.push_back(q.index[prefix + 2 * i + part]);
    }
  }
  return out;
}

Point final_point(const ShapeWithLayout& shape, const std::vector<int64_t>& element) {
  // D1 is a transpose into physical order.
  Point p{to_physical_order(shape.dims, shape.layout.minor_to_major),
          to_physical_order(element, shape.layout.minor_to_major)};
  for (const Tile& t : shape.layout.tiles) p = apply_tile(p, t);
  return p;
}

}  // namespace

int64_t linear_index_by_reshape(const ShapeWithLayout& shape, const std::vector<int64_t>& element) {
  validate(shape);
  validate_element(shape, element);
  return position_of(final_point(shape, element));
}

std::vector<int64_t> tiled_shape_by_reshape(const ShapeWithLayout& shape) {
  validate(shape);
  return final_point(shape, std::vector<int64_t>(shape.dims.size(), 0)).bounds;
}

}  // namespace tilecheck::spec
