// Golden vectors from the spec (vectors/generate.h). docs/VECTORS.md is the
// format's contract and vectors/v1/tiled_layouts_schema_v1.json its schema;
// in short, one JSON document, as Wycheproof's test vectors are:
//
//   {"format", "formatVersion", "schema", "generatorVersion", "options",
//    "numberOfTests", "header", "notes": {flag: {description}},
//    "testGroups": [
//      {"type": "LayoutTest", "id", "layout", "fields", ["smallerFormOf"],
//       ["packSkipped"], ["comment"], "tests": [
//         {"id", "op": "size", "elements", "bytes", "result", "flags"}
//         {"id", "op": "linear_index", "element", "index", ...}   min(count, N) of them
//         {"id", "op": "delinearize", "position", "element": null, ...}  padding, up to 4
//         {"id", "op": "pack", "dense_hex", "packed_hex", ["padding_mask_hex"], ...}
//         {"id", "op": "unpack", "packed_hex", "dense_hex", ...}  padding bits random
//       ]},
//      {"type": "ParseTest", "tests": [{"id", "op": "parse", "text", "result", ...}]}]}
//
// A layout's pack tests are in a group of their own, for the same layout on
// smaller dims, when its buffers are large (pack_shape). Each test is on one
// line, so the files diff well.
//
// Which elements: all of them, row-major, when N <= count; otherwise the
// first and the last element, then alternately an element at first-level
// tile boundaries and a uniformly drawn one, without repeats. Everything
// random comes from splitmix64 seeded by the seed and the layout's canonical
// text, so a layout's tests do not depend on the other layouts given.
#include "vectors/generate.h"

#include <algorithm>
#include <optional>
#include <set>
#include <span>

#include "conformance/jsonl_protocol.h"
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::vectors {
namespace {

// A pack test's dense array and physical buffer stay within these, so the
// catalogue's file stays under a megabyte: a larger layout's pack tests
// are for a smaller form of it (pack_shape).
constexpr int64_t kMaxPackBytes = 2048;       // the dense array
constexpr int64_t kMaxPackedBytes = 8192;     // the physical buffer

// gen's splitmix64 (Steele, Lea, Flood 2014): tiny, fully specified, the
// same on every platform, unlike std::uniform_int_distribution.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() { return gen::splitmix64(state_); }
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
    for_each_element(shape.dims, [&](const std::vector<int64_t>& e) { chosen.push_back(e); });
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

// The layout the pack tests are written for: `shape` itself when it fits,
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

std::string hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// ---------------------------------------------------------------------------
// Flags: what a test exercises, for users to filter on. The notes of every
// file explain each one; the order here is the order in the file.

const std::vector<std::pair<std::string, std::string>>& flag_notes() {
  static const std::vector<std::pair<std::string, std::string>> notes = {
      {"Untiled", "No tiles: the dims are laid out in minor-to-major order."},
      {"Transposed",
       "Minor-to-major is not the default {n-1,...,0}: the physical order of the dims differs "
       "from the logical one."},
      {"SubTiles", "More than one tile, as in T(8,128)(2,1): tiles within tiles."},
      {"CombinedDims", "A '*' tile entry combines a dim with the next more minor one."},
      {"TileRankAboveShapeRank",
       "The first tile has more entries than the shape has dims: the shape is extended with "
       "leading dims of 1."},
      {"Ragged",
       "A dim that a first-level tile entry tiles alone is not a multiple of that entry: its "
       "last tile is partly padding."},
      {"Padding",
       "The physical buffer holds padding: positions no element maps to, or bits after the "
       "last position. tilecheck's pack writes them zero, as XLA does, but their contents are "
       "implementation-defined: compare a pack outside padding_mask_hex (or exactly, if the "
       "implementation promises zero padding). An unpack must ignore them."},
      {"TailPadding", "L(n) with n > 1 rounds the padded element count up to a multiple of n."},
      {"SubByte", "Elements of 1, 2 or 4 bits, several per byte, lowest bits first."},
      {"BitsAcrossBytes",
       "An element width that neither divides 8 nor is a multiple of it (E(12)): elements "
       "straddle bytes."},
      {"SignExtended",
       "A signed integer type narrower than its dense bytes: unpack sign-extends (s4 -1 is "
       "0xff in the dense array), pack reads the low bits."},
      {"Pred", "pred: each dense element is 0 or 1."},
      {"ElementSize", "The layout gives E(n)."},
      {"ElementSizeOnWideType",
       "E(n) on a type that is neither sub-byte nor pred: XLA's layout validation accepts it, "
       "XLA's CPU and GPU backends reject it."},
      {"ElementSizeOnPred",
       "E(n) on pred (E(1): one bit per element): XLA's CPU and GPU backends reject it."},
      {"Scalar", "Rank 0: one element."},
      {"ZeroSize", "A dim of 0: no elements."},
      {"DynamicDim", "A bounded dynamic dim <=N, sized at its bound."},
      {"SmallerForm",
       "The group's layout is another group's (smallerFormOf) on smaller dims, so that its "
       "buffers stay small; tiles, minor-to-major and E(n) are the same."},
      {"NonzeroPadding",
       "An unpack test whose buffer holds random bits in its padding: the dense array must "
       "come out as with zero padding."},
      {"NonCanonicalText",
       "A parse test whose text is not as tilecheck and XLA print it; canonical is the "
       "printed form."},
  };
  return notes;
}

bool has_flag(std::string_view name) {
  for (const auto& [flag, note] : flag_notes()) {
    if (flag == name) return true;
  }
  return false;
}

// For each logical dim, whether a first-level tile entry that tiles it alone
// leaves a partial tile.
bool ragged(const ShapeWithLayout& shape) {
  const std::vector<int64_t> tile_of = first_level_tile_per_dim(shape);
  for (size_t i = 0; i < tile_of.size(); ++i) {
    if (tile_of[i] > 0 && shape.dims[i] % tile_of[i] != 0) return true;
  }
  return false;
}

// Which bits of the physical buffer no element occupies, as a mask (1 =
// padding), or an empty vector when there are none. The shape is small
// (fits_pack_record).
std::vector<uint8_t> padding_mask(const ShapeWithLayout& shape) {
  const int64_t bits = shape.element_bits(), bytes = spec::byte_size(shape);
  std::vector<uint8_t> mask(static_cast<size_t>(bytes), 0xff);
  for_each_element(shape.dims, [&](const std::vector<int64_t>& e) {
    const int64_t first = spec::linear_index(shape, e) * bits;
    for (int64_t bit = first; bit < first + bits; ++bit) {
      mask[static_cast<size_t>(bit / 8)] &= static_cast<uint8_t>(~(1u << (bit % 8)));
    }
  });
  if (std::all_of(mask.begin(), mask.end(), [](uint8_t b) { return b == 0; })) return {};
  return mask;
}

// Up to four padding positions (the last position, when it is padding, and
// others drawn at random): delinearize must say no element is there.
std::vector<int64_t> padding_positions(const ShapeWithLayout& shape, SplitMix64& rng) {
  const int64_t padded = spec::padded_element_count(shape);
  std::set<int64_t> found;
  if (padded == spec::element_count(shape)) return {};
  for (int draw = 0; draw <= 64 && found.size() < 4; ++draw) {
    const int64_t p = draw == 0 ? padded - 1 : rng.below(padded);
    if (!spec::delinearize(shape, p)) found.insert(p);
  }
  return {found.begin(), found.end()};
}

std::vector<std::string> layout_flags(const ShapeWithLayout& shape) {
  const Layout& l = shape.layout;
  const int64_t bits = shape.element_bits(), natural = natural_bit_width(shape.type);
  const bool pred = shape.type == ElementType::kPred;
  bool combined = false;
  for (const Tile& t : l.tiles) {
    combined |= std::find(t.dims.begin(), t.dims.end(), kCombineDim) != t.dims.end();
  }
  const std::pair<const char*, bool> flags[] = {
      {"Untiled", l.tiles.empty()},
      {"Transposed", !(l.minor_to_major == default_layout(shape.rank()).minor_to_major)},
      {"SubTiles", l.tiles.size() > 1},
      {"CombinedDims", combined},
      {"TileRankAboveShapeRank",
       !l.tiles.empty() && static_cast<int64_t>(l.tiles.front().dims.size()) > shape.rank()},
      {"Ragged", ragged(shape)},
      // In 128 bits: a byte size near 2^62 has more bits than int64 holds.
      {"Padding", __int128{spec::byte_size(shape)} * 8 > __int128{spec::element_count(shape)} * bits},
      {"TailPadding", l.tail_padding_alignment.value_or(1) > 1},
      {"SubByte", bits < 8},
      {"BitsAcrossBytes", 8 % bits != 0 && bits % 8 != 0},
      {"SignExtended", is_signed_integral(shape.type) && bits % 8 != 0},
      {"Pred", pred},
      {"ElementSize", l.element_size_bits.has_value()},
      {"ElementSizeOnWideType",
       l.element_size_bits.has_value() && !pred && !is_sub_byte(shape.type) && natural >= 8},
      {"ElementSizeOnPred", l.element_size_bits.has_value() && pred},
      {"Scalar", shape.rank() == 0},
      {"ZeroSize", spec::element_count(shape) == 0},
      {"DynamicDim", !shape.dynamic_dims.empty()},
  };
  std::vector<std::string> out;
  for (const auto& [name, set] : flags) {
    if (set) out.emplace_back(name);
  }
  return out;
}

// The flags in the order of the notes, each once.
std::vector<std::string> ordered(const std::vector<std::string>& flags) {
  std::vector<std::string> out;
  for (const auto& [flag, note] : flag_notes()) {
    if (std::find(flags.begin(), flags.end(), flag) != flags.end()) out.push_back(flag);
  }
  return out;
}

std::vector<std::string> with(std::vector<std::string> flags, std::string_view more) {
  flags.emplace_back(more);
  return ordered(flags);
}

// ---------------------------------------------------------------------------
// Tests

Json test(std::string id, std::string_view op) {
  return {{"id", std::move(id)}, {"op", op}};
}

void finish(Json& t, std::string_view result, std::vector<std::string> flags) {
  t["result"] = result;
  t["flags"] = std::move(flags);
}

std::string element_id(const std::vector<int64_t>& e) {
  std::string id(1, '[');
  id += join(e);
  id += ']';
  return id;
}

Json layout_group(const std::string& id, const ShapeWithLayout& shape, std::string_view comment) {
  Json group = {{"type", "LayoutTest"},
                {"id", id},
                {"layout", print_shape(shape)},
                {"fields", conformance::jsonl::layout_fields(shape)}};
  if (!comment.empty()) group["comment"] = comment;
  group["tests"] = Json::array();
  return group;
}

void add_size_test(Json& group, const ShapeWithLayout& shape,
                   const std::vector<std::string>& flags) {
  Json t = test(group["id"].get<std::string>() + "/size", "size");
  t["elements"] = spec::element_count(shape);
  t["bytes"] = spec::byte_size(shape);
  finish(t, "valid", flags);
  group["tests"].push_back(std::move(t));
}

// The pack test and, when the layout has padding bits, an unpack test whose
// padding holds random bits.
void add_buffer_tests(Json& group, const ShapeWithLayout& shape,
                      const std::vector<std::string>& flags, SplitMix64& rng) {
  const std::string id = group["id"];
  const std::vector<uint8_t> dense = random_dense_array(shape, rng);
  const std::vector<uint8_t> packed = spec::pack(shape, dense);
  const std::vector<uint8_t> mask = padding_mask(shape);
  Json pack = test(id + "/pack", "pack");
  pack["dense_hex"] = hex(dense);
  pack["packed_hex"] = hex(packed);
  if (!mask.empty()) pack["padding_mask_hex"] = hex(mask);
  finish(pack, "valid", flags);
  group["tests"].push_back(std::move(pack));
  if (mask.empty()) return;
  std::vector<uint8_t> noisy = packed;
  for (size_t i = 0; i < noisy.size(); ++i) noisy[i] |= static_cast<uint8_t>(rng.next()) & mask[i];
  Json unpack = test(id + "/unpack_nonzero_padding", "unpack");
  unpack["packed_hex"] = hex(noisy);
  unpack["dense_hex"] = hex(dense);
  finish(unpack, "valid", with(flags, "NonzeroPadding"));
  group["tests"].push_back(std::move(unpack));
}

// One layout's groups: its own (size, indices, and its buffers when they fit),
// then, when they do not, a group for a smaller form with its size and buffers.
std::vector<Json> layout_groups(const std::string& id, const ShapeWithLayout& shape,
                                std::string_view comment, int64_t count, uint64_t seed) {
  SplitMix64 rng(gen::layout_seed(seed, print_shape(shape)));
  std::vector<Json> groups{layout_group(id, shape, comment)};
  Json& group = groups.front();
  const std::vector<std::string> flags = layout_flags(shape);
  add_size_test(group, shape, flags);
  for (const std::vector<int64_t>& e : chosen_elements(shape, count, rng)) {
    Json t = test(id + "/index" + element_id(e), "linear_index");
    t["element"] = e;
    t["index"] = spec::linear_index(shape, e);
    finish(t, "valid", flags);
    group["tests"].push_back(std::move(t));
  }
  for (const int64_t p : padding_positions(shape, rng)) {
    Json t = test(id + "/delinearize[" + std::to_string(p) + "]", "delinearize");
    t["position"] = p;
    t["element"] = nullptr;
    finish(t, "valid", flags);
    group["tests"].push_back(std::move(t));
  }
  const std::optional<ShapeWithLayout> small = pack_shape(shape);
  if (!small) {
    group["packSkipped"] = "one tile of this layout is above the " +
                           std::to_string(kMaxPackedBytes) + "-byte limit for pack tests";
    return groups;
  }
  if (*small == shape) {
    add_buffer_tests(group, shape, flags, rng);
    return groups;
  }
  Json smaller = layout_group(id + "/smaller", *small, "");
  smaller["smallerFormOf"] = id;
  const std::vector<std::string> small_flags = with(layout_flags(*small), "SmallerForm");
  add_size_test(smaller, *small, small_flags);
  add_buffer_tests(smaller, *small, small_flags, rng);
  groups.push_back(std::move(smaller));
  return groups;
}

std::string_view verdict_name(ParseVerdict verdict) {
  switch (verdict) {
    case ParseVerdict::kValid: return "valid";
    case ParseVerdict::kInvalid: return "invalid";
    case ParseVerdict::kAcceptable: return "acceptable";
  }
  return "";
}

Json parse_group() {
  Json tests = Json::array();
  for (const ParseCase& c : parse_cases()) {
    Json t = test("parse/" + std::string(c.name), "parse");
    t["text"] = c.text;
    std::vector<std::string> flags;
    for (size_t at = 0; at < c.flags.size();) {
      const size_t end = std::min(c.flags.find(' ', at), c.flags.size());
      if (end > at) flags.emplace_back(c.flags.substr(at, end - at));
      at = end + 1;
    }
    if (c.verdict == ParseVerdict::kInvalid) {
      t["error"] = c.error;
    } else {
      const ShapeWithLayout shape = spec::parse_layout(c.text);
      t["canonical"] = print_shape(shape);
      t["elements"] = spec::element_count(shape);
      t["bytes"] = spec::byte_size(shape);
      for (std::string& f : layout_flags(shape)) flags.push_back(std::move(f));
    }
    for (const std::string& f : flags) {
      if (!has_flag(f)) throw Error("parse case " + std::string(c.name) + ": unknown flag " + f);
    }
    finish(t, verdict_name(c.verdict), ordered(flags));
    t["comment"] = c.why;
    tests.push_back(std::move(t));
  }
  return {{"type", "ParseTest"}, {"tests", std::move(tests)}};
}

constexpr std::string_view kSchema = "tiled_layouts_schema_v1.json";
constexpr int kFormatVersion = 1;

}  // namespace

// ---------------------------------------------------------------------------
// The document

std::string render(const Json& doc) {
  std::string out = "{\n";
  bool first_key = true;
  for (const auto& [key, value] : doc.items()) {
    out += first_key ? "" : ",\n";
    first_key = false;
    out += "  " + Json(key).dump() + ": ";
    if (key == "notes" || key == "header") {
      out += value.is_object() ? "{\n" : "[\n";
      bool first = true;
      for (const auto& [k, v] : value.items()) {
        out += first ? "    " : ",\n    ";
        first = false;
        if (value.is_object()) out += Json(k).dump() + ": ";
        out += v.dump();
      }
      out += value.is_object() ? "\n  }" : "\n  ]";
    } else if (key == "testGroups") {
      out += "[";
      bool first_group = true;
      for (const Json& group : value) {
        out += first_group ? "\n    {" : ",\n    {";
        first_group = false;
        bool first = true;
        for (const auto& [k, v] : group.items()) {
          out += first ? "\n      " : ",\n      ";
          first = false;
          out += Json(k).dump() + ": ";
          if (k != "tests") {
            out += v.dump();
            continue;
          }
          out += "[";
          for (size_t i = 0; i < v.size(); ++i) out += (i ? ",\n        " : "\n        ") + v[i].dump();
          out += "\n      ]";
        }
        out += "\n    }";
      }
      out += "\n  ]";
    } else {
      out += value.dump();
    }
  }
  return out + "\n}\n";
}

Json document(const std::vector<Entry>& entries, bool parse_tests, const Options& options) {
  if (options.count < 0 || options.count > kMaxCount) {
    throw Error("count " + std::to_string(options.count) + " is not in [0, " +
                std::to_string(kMaxCount) + "]");
  }
  const int64_t count = options.count;
  const uint64_t seed = options.seed;
  std::vector<Json> groups;
  for (const Entry& entry : entries) {
    for (Json& g : layout_groups(entry.id, entry.shape, entry.comment, count, seed)) {
      groups.push_back(std::move(g));
    }
  }
  if (parse_tests) groups.push_back(parse_group());
  int64_t tests = 0;
  for (const Json& g : groups) tests += static_cast<int64_t>(g["tests"].size());
  Json notes = Json::object();
  for (const auto& [flag, note] : flag_notes()) notes[flag] = {{"description", note}};
  return {{"format", "tilecheck tiled layout vectors"},
          {"formatVersion", kFormatVersion},
          {"schema", kSchema},
          {"generatorVersion", std::string("tilecheck ") + TILECHECK_VERSION_STRING},
          {"options", {{"count", count}, {"seed", seed}}},
          {"numberOfTests", tests},
          {"header",
           {"Test vectors of XLA tiled layouts, from tilecheck's executable spec.",
            "The format is documented in tilecheck's docs/VECTORS.md; schema: " +
                std::string(kSchema) + ".",
            "result: valid = an implementation must give exactly these values; invalid = it "
            "must reject the text; acceptable = it may reject the text, and if it accepts it, "
            "must give these values."}},
          {"notes", std::move(notes)},
          {"testGroups", std::move(groups)}};
}

std::string list(const Json& doc) {
  std::string out;
  for (const Json& group : doc["testGroups"]) {
    for (const Json& t : group["tests"]) {
      std::string flags;
      for (const Json& f : t["flags"]) {
        if (!flags.empty()) flags += ',';
        flags += f.get<std::string>();
      }
      out += t["id"].get<std::string>() + "\t" + t["result"].get<std::string>() + "\t" + flags + "\n";
    }
  }
  return out;
}

Json catalog_document(const Options& options) {
  std::vector<Entry> entries;
  for (const CatalogEntry& entry : catalog()) {
    entries.push_back({std::string(entry.name), spec::parse_layout(entry.layout), std::string(entry.why)});
  }
  return document(entries, true, options);
}

Json layouts_document(const std::vector<ShapeWithLayout>& shapes, const Options& options) {
  std::vector<Entry> entries;
  for (const ShapeWithLayout& shape : shapes) entries.push_back({print_shape(shape), shape, ""});
  return document(entries, false, options);
}

}  // namespace tilecheck::vectors
