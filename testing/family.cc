#include <tilecheck/testing/family.h>

#include <algorithm>
#include <numeric>
#include <set>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::testing {
namespace {

// The tile sizes that land on each logical dim: a tile of k entries covers
// the k most minor dims in physical order (the order minor_to_major lists,
// reversed), its last entry the most minor; '*' and 1 are no size to hit.
// For an element width that is not a whole number of bytes, the elements
// of one byte-aligned group (two s4, eight pred with E(1), eight E(3))
// land on the most minor dim as well.
std::vector<std::set<int64_t>> tile_sizes_by_dim(const ShapeWithLayout& shape) {
  const size_t rank = shape.dims.size();
  std::vector<std::set<int64_t>> by_dim(rank);
  if (rank == 0) return by_dim;
  const std::vector<int64_t>& m2m = shape.layout.minor_to_major;
  for (const Tile& tile : shape.layout.tiles) {
    const size_t k = tile.dims.size();
    for (size_t j = 0; j < k; ++j) {
      const size_t minor_rank = k - 1 - j;  // 0: the most minor dim
      if (minor_rank >= rank || tile.dims[j] == kCombineDim || tile.dims[j] <= 1) continue;
      by_dim[static_cast<size_t>(m2m[minor_rank])].insert(tile.dims[j]);
    }
  }
  const int64_t bits = shape.element_bits();
  if (bits % 8 != 0) by_dim[static_cast<size_t>(m2m[0])].insert(8 / std::gcd(bits, int64_t{8}));
  return by_dim;
}

// The element count, or max + 1 when it is over `max` (dims >= 0).
int64_t count_up_to(const std::vector<int64_t>& dims, int64_t max) {
  int64_t count = 1;
  for (const int64_t d : dims) {
    if (d == 0) return 0;
  }
  for (const int64_t d : dims) {
    if (count > max / d) return max + 1;
    count *= d;
  }
  return count;
}

}  // namespace

Family::Family(const std::vector<std::string>& texts, FamilyOptions options) : options_(options) {
  if (texts.empty()) throw Error("family(): no layout text given");
  // A drawn array is allocated whole, so a budget past 2^40 elements is no
  // budget; the sizes' arithmetic below stays far from int64's end.
  if (options_.max_elements < 1 || options_.max_elements > int64_t{1} << 40) {
    throw Error("family(): max_elements must be in 1..2^40, not " + std::to_string(options_.max_elements));
  }
  for (const std::string& text : texts) {
    const std::string named = "family(): '" + text + "': ";
    Member member;
    member.text = text;
    try {
      member.pattern = parse_shape(text);
    } catch (const Error& e) {
      throw Error(named + e.what());
    }
    ShapeWithLayout smallest = member.pattern;
    for (int64_t& d : smallest.dims) d = d == kSymbolicDim ? 1 : d;
    try {
      spec::validate(smallest);
    } catch (const Error& e) {
      throw Error(named + "not a valid layout (with each '?' at 1): " + e.what());
    }
    if (count_up_to(smallest.dims, options_.max_elements) > options_.max_elements) {
      throw Error(named + "its written dims alone hold more than max_elements (" +
                  std::to_string(options_.max_elements) + ") elements");
    }
    std::vector<std::set<int64_t>> tiles = tile_sizes_by_dim(member.pattern);
    size_t open = 0;
    const int64_t cap = options_.max_elements;
    for (size_t d = 0; d < member.pattern.dims.size(); ++d) {
      // Tiles larger than the budget give no size it allows (and the
      // arithmetic stays within int64: t <= 2^40 + 1).
      std::erase_if(tiles[d], [&](int64_t t) { return t > cap + 1; });
      member.largest_tile.push_back(tiles[d].empty() ? 1 : std::min(*tiles[d].rbegin(), cap));
      std::set<int64_t> sizes;
      if (member.pattern.dims[d] == kSymbolicDim) {
        ++open;
        sizes = {1, 2, 3};
        if (options_.zero_dims) sizes.insert(0);
        for (const int64_t t : tiles[d]) sizes.insert({t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1, 3 * t + 1});
        std::erase_if(sizes, [&](int64_t s) { return s > cap; });
      }
      member.sizes.emplace_back(sizes.begin(), sizes.end());
    }
    open_dims_ = std::max(open_dims_, open);
    members_.push_back(std::move(member));
  }
}

std::string Family::text() const {
  std::string out;
  for (const Member& m : members_) out += (out.empty() ? "" : " | ") + m.text;
  return out;
}

int64_t Family::member_of(const ShapeWithLayout& shape) const {
  for (size_t m = 0; m < members_.size(); ++m) {
    const ShapeWithLayout& p = members_[m].pattern;
    if (p.type != shape.type || p.dims.size() != shape.dims.size() || !(p.layout == shape.layout) ||
        p.dynamic_dims != shape.dynamic_dims) {
      continue;
    }
    bool fits = true;
    for (size_t d = 0; fits && d < p.dims.size(); ++d) {
      fits = p.dims[d] == kSymbolicDim ? shape.dims[d] >= (options_.zero_dims ? 0 : 1) : p.dims[d] == shape.dims[d];
    }
    if (fits) return static_cast<int64_t>(m);
  }
  return -1;
}

bool Family::contains(const ShapeWithLayout& shape) const { return member_of(shape) >= 0; }

ShapeWithLayout Family::fit(size_t m, std::vector<int64_t> dims) const {
  const Member& member = members_.at(m);
  ShapeWithLayout shape = member.pattern;
  for (size_t d = 0; d < dims.size() && d < shape.dims.size(); ++d) {
    if (shape.dims[d] == kSymbolicDim) shape.dims[d] = std::max<int64_t>(dims[d], 0);
  }
  while (count_up_to(shape.dims, options_.max_elements) > options_.max_elements) {
    size_t largest = 0;
    for (size_t d = 0; d < shape.dims.size(); ++d) {
      const bool open = member.pattern.dims[d] == kSymbolicDim;
      if (open && (member.pattern.dims[largest] != kSymbolicDim || shape.dims[d] > shape.dims[largest])) largest = d;
    }
    const int64_t half = shape.dims[largest] / 2;
    int64_t next = 1;
    for (const int64_t s : member.sizes[largest]) {
      if (s >= 1 && s <= half) next = s;
    }
    shape.dims[largest] = next;
  }
  return shape;
}

}  // namespace tilecheck::testing
