// tilecheck vectors LAYOUT... | --catalog: golden vectors from the spec (the
// oracle), as JSON Lines, so that an implementation in any language can test
// itself against a file. docs/VECTORS.md is the format's contract; in short,
// per layout, in this order:
//
//   {"layout":L,"elements":N,"bytes":M}               spec::element_count, byte_size
//   {"layout":L,"element":[..],"index":I}             min(count, N) records, spec::linear_index
//   {"layout":L,"dense_hex":D,"packed_hex":P}         spec::pack of a pseudo-random dense array
//   or {"layout":S,"smaller_form_of":L,"dense_hex":D,"packed_hex":P}
//                                                     the same for L on smaller dims (pack_shape)
//   or {"layout":L,"pack_skipped":"why"}              when no form of L fits
//
// L is the canonical text (print_shape), keys come in the order above, JSON
// is compact (no spaces), one record per line.
//
// Which elements: all of them, row-major, when N <= count; otherwise the
// first and the last element, then alternately an element at first-level
// tile boundaries and a uniformly drawn one, without repeats. Everything
// random comes from splitmix64 seeded by the seed and the layout's canonical
// text, so a layout's records do not depend on the other layouts given.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "check/checks.h"
#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {
namespace {

// A pack record's dense array and physical buffer stay within these, so the
// catalogue's file stays a few hundred kilobytes: a larger layout's pack
// record is for a smaller form of it (pack_shape).
constexpr int64_t kMaxPackBytes = 4096;       // the dense array
constexpr int64_t kMaxPackedBytes = 8192;     // the physical buffer

// splitmix64 (Steele, Lea, Flood 2014): tiny, fully specified, the same on
// every platform, unlike std::uniform_int_distribution.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // In [0, n), n >= 1; the modulo bias is irrelevant for test vectors.
  int64_t below(int64_t n) { return static_cast<int64_t>(next() % static_cast<uint64_t>(n)); }

 private:
  uint64_t state_;
};

// For each logical dim, the size of the first-level tile entry that tiles it
// alone (no '*' merged into it), or 0 when no such entry does.
std::vector<int64_t> first_level_tile_per_dim(const ShapeWithLayout& shape) {
  const size_t rank = shape.dims.size();
  std::vector<int64_t> tile_of(rank, 0);
  if (shape.layout.tiles.empty()) return tile_of;
  const Tile& tile = shape.layout.tiles.front();
  std::vector<bool> combine;
  for (const int64_t entry : tile.dims) combine.push_back(entry == kCombineDim);
  const spec::LevelStructure s = spec::level_structure(combine, rank);
  for (const spec::TileGroup& g : s.groups) {
    if (g.first != g.last || g.first < s.extension) continue;
    const size_t physical = g.first - s.extension;
    tile_of[shape.layout.minor_to_major[rank - 1 - physical]] = tile.dims[g.tile_pos];
  }
  return tile_of;
}

// An element whose coordinates sit at the start or the end of a first-level
// tile in every dim a tile entry covers alone; other dims are drawn uniformly.
std::vector<int64_t> tile_boundary_element(const ShapeWithLayout& shape,
                                           const std::vector<int64_t>& tile_of, SplitMix64& rng) {
  std::vector<int64_t> e(shape.dims.size());
  for (size_t i = 0; i < e.size(); ++i) {
    const int64_t d = shape.dims[i], t = tile_of[i];
    if (t == 0) {
      e[i] = rng.below(d);
      continue;
    }
    const int64_t start = rng.below((d + t - 1) / t) * t;
    e[i] = rng.below(2) == 0 ? start : std::min(start + t - 1, d - 1);
  }
  return e;
}

std::vector<int64_t> uniform_element(const ShapeWithLayout& shape, SplitMix64& rng) {
  std::vector<int64_t> e;
  for (const int64_t d : shape.dims) e.push_back(rng.below(d));
  return e;
}

std::vector<std::vector<int64_t>> chosen_elements(const ShapeWithLayout& shape, int64_t count,
                                                  SplitMix64& rng) {
  std::vector<std::vector<int64_t>> chosen;
  const int64_t elements = spec::element_count(shape);
  if (elements <= count) {  // all of them, row-major
    std::vector<int64_t> e(shape.dims.size(), 0);
    for (int64_t i = 0; i < elements; ++i) {
      chosen.push_back(e);
      for (size_t d = e.size(); d-- > 0;) {
        if (++e[d] < shape.dims[d]) break;
        e[d] = 0;
      }
    }
    return chosen;
  }
  // elements > count >= 0, so every dim is >= 1 and count distinct elements exist.
  std::set<std::vector<int64_t>> seen;
  const auto add = [&](std::vector<int64_t> e) {
    if (static_cast<int64_t>(chosen.size()) < count && seen.insert(e).second) {
      chosen.push_back(std::move(e));
    }
  };
  add(std::vector<int64_t>(shape.dims.size(), 0));
  std::vector<int64_t> last;
  for (const int64_t d : shape.dims) last.push_back(d - 1);
  add(last);
  const std::vector<int64_t> tile_of = first_level_tile_per_dim(shape);
  for (int64_t draw = 0; static_cast<int64_t>(chosen.size()) < count; ++draw) {
    add(draw % 2 == 0 ? tile_boundary_element(shape, tile_of, rng) : uniform_element(shape, rng));
  }
  return chosen;
}

// A dense array of pseudo-random values in canonical form (docs/PROTOCOL.md,
// "Dense buffers"), so unpack(pack(dense)) == dense.
std::vector<uint8_t> random_dense_array(const ShapeWithLayout& shape, SplitMix64& rng) {
  std::vector<uint8_t> dense(static_cast<size_t>(spec::dense_byte_size(shape)));
  for (uint8_t& byte : dense) byte = static_cast<uint8_t>(rng.next());
  if (shape.type == ElementType::kPred) {
    for (uint8_t& byte : dense) byte &= 1;  // pred holds 0 or 1
  }
  return spec::canonical_dense(shape, std::move(dense));
}

bool fits_pack_record(const ShapeWithLayout& shape) {
  // Every dense element takes at least one byte; this order never overflows.
  return spec::element_count(shape) <= kMaxPackBytes &&
         spec::dense_byte_size(shape) <= kMaxPackBytes && spec::byte_size(shape) <= kMaxPackedBytes;
}

// The layout a pack record is written for: `shape` itself when it fits,
// else the same layout (tiles, minor-to-major, E, L) on smaller dims, the
// largest dim taken to half plus one at each step, which keeps dims off
// the tile sizes, so ragged edges and padding stay; nullopt when even all
// dims 1 do not fit (a tile larger than the limit).
std::optional<ShapeWithLayout> pack_shape(ShapeWithLayout shape) {
  while (!fits_pack_record(shape)) {
    const auto largest = std::max_element(shape.dims.begin(), shape.dims.end());
    if (largest == shape.dims.end() || *largest <= 1) return std::nullopt;
    *largest = *largest <= 2 ? 1 : *largest / 2 + 1;
  }
  return shape;
}

std::string hex(const std::vector<uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

void write_line(std::ostream& out, const nlohmann::ordered_json& record) {
  out << record.dump() << "\n";
}

void write_vectors(std::ostream& out, const ShapeWithLayout& shape, int64_t count, uint64_t seed) {
  const std::string layout = print_shape(shape);
  SplitMix64 rng(check::layout_seed(seed, layout));
  const int64_t elements = spec::element_count(shape), bytes = spec::byte_size(shape);
  write_line(out, {{"layout", layout}, {"elements", elements}, {"bytes", bytes}});
  for (const std::vector<int64_t>& e : chosen_elements(shape, count, rng)) {
    write_line(out, {{"layout", layout}, {"element", e}, {"index", spec::linear_index(shape, e)}});
  }
  const std::optional<ShapeWithLayout> small = pack_shape(shape);
  if (!small) {
    write_line(out, {{"layout", layout},
                     {"pack_skipped", "one tile of this layout is above the " +
                                          std::to_string(kMaxPackedBytes) +
                                          "-byte limit for pack records"}});
    return;
  }
  const std::vector<uint8_t> dense = random_dense_array(*small, rng);
  nlohmann::ordered_json record = {{"layout", print_shape(*small)}};
  if (!(*small == shape)) record["smaller_form_of"] = layout;
  record["dense_hex"] = hex(dense);
  record["packed_hex"] = hex(spec::pack(*small, dense));
  write_line(out, record);
}

}  // namespace

void add_vectors_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> layouts;
    bool catalog = false;
    int64_t count = 16;
    uint64_t seed = 1;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "vectors",
      "golden vectors from the spec as JSON Lines: sizes, indices of chosen elements, and a "
      "packed buffer (format: docs/VECTORS.md)");
  CLI::Option* layouts = command->add_option("LAYOUT", args->layouts,
                                             "shapes with layouts, e.g. 'f32[3,5]{1,0:T(2,2)}'");
  command->add_flag("--catalog", args->catalog, "every layout of the built-in catalogue")
      ->excludes(layouts);
  command->add_option("--count", args->count, "index records per layout (all elements if fewer)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{100000}));
  command->add_option("--seed", args->seed, "seed of the element choice and the dense values")
      ->capture_default_str();
  command->callback([args] {
    std::vector<ShapeWithLayout> shapes;
    if (args->catalog) {
      for (const CatalogEntry& entry : catalog())
        shapes.push_back(parse_layout_argument(entry.layout));
    } else {
      if (args->layouts.empty()) throw Error("give one or more LAYOUTs, or --catalog");
      for (const std::string& text : args->layouts) shapes.push_back(parse_layout_argument(text));
    }
    std::ostringstream out;  // nothing is printed unless every layout is valid
    for (const ShapeWithLayout& shape : shapes) write_vectors(out, shape, args->count, args->seed);
    std::cout << out.str();
  });
}

}  // namespace tilecheck::cli
