#include "answers/answers.h"

#include <charconv>
#include <sstream>
#include <utility>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::answers {

// ---------------------------------------------------------------------------
// The values the commands take.

Shape parse_shape_text(std::string_view text) {
  try {
    return parse_any_shape(text);
  } catch (const Error& e) {
    throw Error("layout '" + shown_text(text) + "': " + e.what());
  }
}

int64_t parse_int64(std::string_view text, std::string_view what) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    throw Error(std::string(what) + " '" + shown_text(text) + "' is not an integer");
  }
  if (ec == std::errc::result_out_of_range) {
    throw Error(std::string(what) + " '" + shown_text(text) + "' does not fit in int64");
  }
  return value;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<int64_t> parse_coordinates(std::string_view text) {
  std::string_view body = trim(text);
  if (body.size() >= 2 && body.front() == '(' && body.back() == ')') {
    body = trim(body.substr(1, body.size() - 2));
  }
  std::vector<int64_t> values;
  if (body.empty()) return values;
  size_t start = 0;
  while (true) {
    const size_t comma = body.find(',', start);
    const std::string_view entry =
        trim(body.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                : comma - start));
    values.push_back(parse_int64(entry, "coordinate " + std::to_string(values.size()) +
                                            " of element '" + shown_text(text) + "':"));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return values;
}

BufferPlace buffer_place(const ShapeWithLayout& shape, int64_t index) {
  const __int128 bits = shape.element_bits();
  const __int128 first = static_cast<__int128>(index) * bits, last = first + bits - 1;
  BufferPlace place{static_cast<int64_t>(first / 8), static_cast<int64_t>(first % 8), ""};
  if (bits % 8 == 0) return place;
  const auto byte_of = [](__int128 b) { return std::to_string(static_cast<int64_t>(b / 8)); };
  const auto bit_of = [](__int128 b) { return std::to_string(static_cast<int64_t>(b % 8)); };
  if (first / 8 == last / 8) {
    place.text = "byte " + byte_of(first) +
                 (bits == 1 ? ", bit " + bit_of(first) : ", bits " + bit_of(first) + "-" + bit_of(last));
  } else {
    place.text = "bytes " + byte_of(first) + "-" + byte_of(last) + ", from bit " + bit_of(first) +
                 " of the first to bit " + bit_of(last) + " of the last";
  }
  return place;
}

// ---------------------------------------------------------------------------
// index and delinearize.

std::string index_text(const ShapeWithLayout& shape, const std::vector<int64_t>& element) {
  const int64_t index = spec::linear_index(shape, element);
  const BufferPlace place = buffer_place(shape, index);
  // Sub-byte widths: where in the buffer, too.
  return std::to_string(index) + (place.text.empty() ? "" : " (" + place.text + ")") + "\n";
}

std::string delinearize_text(const ShapeWithLayout& shape, int64_t position) {
  const auto element = spec::delinearize(shape, position);
  return (element ? join(*element) : "padding") + "\n";
}

// ---------------------------------------------------------------------------
// explain: the derivation as the document shows it for Figure 1,
//
//   linear_index_with_tile(e, d, t) = linear_index((floor(e/t), e mod t), (ceil(d/t), t))
//
// For each tiling level: the D3 extension, the untouched prefix dims, the D4
// merges of '*' dims, the tile index floor(e/t), the within-tile index
// e mod t, and the combined vector with its bounds. Then the final sum, split
// as the document splits it for the last level:
//   linear_index(outer, ceil(d/t)) * t_n*...*t_1 + linear_index(inner, t).

namespace {

std::vector<int64_t> slice(const std::vector<int64_t>& v, size_t begin, size_t end) {
  return std::vector<int64_t>(v.begin() + begin, v.begin() + end);
}

// linear_index(e, d) by Horner's rule, as the document writes it: "(1*3 + 1)".
std::string horner(const std::vector<int64_t>& e, const std::vector<int64_t>& d) {
  if (e.empty()) return "0";
  std::string s = std::to_string(e[0]);
  for (size_t i = 1; i < e.size(); ++i) {
    s = (i > 1 ? "(" + s + ")" : s) + "*" + std::to_string(d[i]) + " + " + std::to_string(e[i]);
  }
  return s;
}

std::string parenthesized_if_sum(const std::string& s) {
  return s.find('+') == std::string::npos ? s : "(" + s + ")";
}

// The non-'*' entries of a tile, the sizes floor(e/t) and e mod t use.
std::vector<int64_t> tile_sizes(const spec::LevelTrace& level) {
  std::vector<int64_t> sizes;
  for (const spec::TileGroup& g : level.structure.groups) sizes.push_back(level.tile.dims[g.tile_pos]);
  return sizes;
}

void print_level(std::ostream& out, size_t number, const spec::LevelTrace& level) {
  const spec::LevelStructure& s = level.structure;
  const std::vector<int64_t> t = tile_sizes(level);
  out << "level " << number << ": tile " << print_tile(level.tile) << " on element "
      << tuple(level.index_before) << ", bounds " << tuple(level.bounds_before) << "\n";
  if (s.extension > 0) {
    out << "  extend (D3)        the tile has more dims than the shape: " << s.extension
        << " leading dim(s) of size 1, index 0\n";
  }
  // Indices and bounds after the D3 extension, which the groups refer to.
  std::vector<int64_t> e(s.extension, 0), d(s.extension, 1);
  e.insert(e.end(), level.index_before.begin(), level.index_before.end());
  d.insert(d.end(), level.bounds_before.begin(), level.bounds_before.end());
  if (s.prefix > 0) {
    out << "  untiled prefix     " << tuple(slice(e, 0, s.prefix)) << " of bounds "
        << tuple(slice(d, 0, s.prefix)) << " (dims the tile does not reach)\n";
  }
  for (size_t k = 0; k < s.groups.size(); ++k) {
    const spec::TileGroup& g = s.groups[k];
    if (g.first == g.last) continue;
    out << "  combine (D4, '*')  dims " << g.first << ".." << g.last << ": index "
        << horner(slice(e, g.first, g.last + 1), slice(d, g.first, g.last + 1)) << " = "
        << level.merged_index[k] << ", bound " << join(slice(d, g.first, g.last + 1), "*")
        << " = " << level.merged_bounds[k] << "\n";
  }
  out << "  tile index         floor(" << tuple(level.merged_index) << " / " << tuple(t)
      << ") = " << tuple(level.tile_index) << "\n";
  out << "  within-tile index  " << tuple(level.merged_index) << " mod " << tuple(t) << " = "
      << tuple(level.within_tile_index) << "\n";
  out << "  combined vector    " << tuple(level.index_after) << ", bounds ";
  std::string bounds_formula;
  if (s.prefix > 0) bounds_formula += join(slice(d, 0, s.prefix)) + ", ";
  bounds_formula += "ceil(" + tuple(level.merged_bounds) + " / " + tuple(t) + "), " + tuple(t);
  out << "(" << bounds_formula << ") = " << tuple(level.bounds_after) << "\n";
}

void print_sum(std::ostream& out, const spec::IndexTrace& trace) {
  const std::vector<int64_t>& e = trace.final_index;
  const std::vector<int64_t>& d = trace.final_bounds;
  out << "linear_index(" << tuple(e) << ", " << tuple(d) << ")\n";
  if (!trace.levels.empty()) {
    // The document's split of the last level: tile part times tile size plus
    // the within-tile part.
    const size_t inner = trace.levels.back().within_tile_index.size();
    const size_t outer = e.size() - inner;
    const std::vector<int64_t> outer_e = slice(e, 0, outer), outer_d = slice(d, 0, outer);
    const std::vector<int64_t> inner_e = slice(e, outer, e.size()), inner_d = slice(d, outer, d.size());
    out << "  = linear_index(" << tuple(outer_e) << ", " << tuple(outer_d) << ") * "
        << join(inner_d, "*") << " + linear_index(" << tuple(inner_e) << ", " << tuple(inner_d)
        << ")\n";
    out << "  = " << parenthesized_if_sum(horner(outer_e, outer_d)) << " * " << join(inner_d, "*")
        << " + " << parenthesized_if_sum(horner(inner_e, inner_d)) << "\n";
  } else if (e.size() > 1) {
    out << "  = " << horner(e, d) << "\n";
  }
  out << "  = " << trace.linear_index << "\n";
}

}  // namespace

std::string explain_text(const ShapeWithLayout& shape, const std::vector<int64_t>& element) {
  const spec::IndexTrace trace = spec::trace_linear_index(shape, element);
  std::ostringstream out;
  out << "element " << tuple(element) << " of " << print_shape(shape) << "\n";
  out << "physical order (minor_to_major " << join(shape.layout.minor_to_major)
      << "): element " << tuple(trace.physical_index) << ", bounds "
      << tuple(trace.physical_bounds) << "\n";
  for (size_t k = 0; k < trace.levels.size(); ++k) print_level(out, k + 1, trace.levels[k]);
  print_sum(out, trace);
  const BufferPlace place = buffer_place(shape, trace.linear_index);
  if (!place.text.empty()) out << "  in the buffer: " << place.text << "\n";
  return out.str();
}

// ---------------------------------------------------------------------------
// size: element count, padded count, exact bytes and tiled shape; with the
// XLA model XLA's ArraySize and ByteSizeOf beside them, and why they differ
// (tilecheck/spec/xla_model.h). A tuple gets one row per array and the totals.

ArraySizes array_sizes(const ShapeWithLayout& shape) {
  ArraySizes s;
  s.shape = print_shape(shape);
  s.element_bits = shape.element_bits();
  try {
    spec::validate(shape);
    s.elements = spec::element_count(shape);
    s.padded = spec::padded_element_count(shape);
    s.bytes = spec::byte_size(shape);
    s.tiled = spec::tiled_shape(shape);
  } catch (const Error& e) {
    s.exact_error = e.what();
  }
  try {
    s.array_size = xla::array_size(shape);
    s.byte_size_of = xla::byte_size_of(shape);
    if (s.bytes) {
      const xla::SizeComparison c = xla::compare_sizes(shape);
      s.meaningless = c.meaningless;
      s.reasons = c.reasons;
    }
  } catch (const Error& e) {
    s.xla_error = e.what();
  }
  if (!s.bytes && !s.array_size) {
    throw Error("layout '" + s.shape + "': " + s.exact_error);
  }
  return s;
}

namespace {

void print_array_sizes(std::ostream& out, const ArraySizes& s, bool xla_model,
                       const std::string& indent) {
  if (s.bytes) {
    out << indent << "elements         " << s.elements << "\n"
        << indent << "padded elements  " << *s.padded << " (" << *s.padded - s.elements
        << " padding)\n"
        << indent << "bytes            " << *s.bytes << " (" << s.element_bits
        << " bits per element)\n"
        << indent << "tiled shape      " << tuple(s.tiled) << "\n";
  } else {
    out << indent << "bytes            " << s.exact_error << "\n";
  }
  if (!xla_model) return;
  if (!s.array_size) {
    out << indent << "XLA ArraySize    " << s.xla_error << "\n";
    return;
  }
  out << indent << "XLA ArraySize    " << *s.array_size
      << (s.meaningless ? " (meaningless: see below)" : "") << "\n"
      << indent << "XLA ByteSizeOf   " << *s.byte_size_of << " (elements only, no padding)\n";
  if (s.bytes && *s.bytes == *s.array_size && s.reasons.empty()) {
    out << indent << "the exact size and XLA's ArraySize agree\n";
  }
  for (const std::string& reason : s.reasons) out << indent << "why: " << reason << "\n";
}

}  // namespace

std::string size_text(const Shape& whole, bool xla_model) {
  std::ostringstream out;
  if (whole.is_array()) {
    print_array_sizes(out, array_sizes(whole.array), xla_model, "");
    return out.str();
  }
  // A tuple: each array, then the totals of the sizes every array has.
  int64_t total = 0, total_array_size = 0;
  bool total_known = true, xla_known = true;
  std::vector<std::pair<Leaf, ArraySizes>> rows;
  for (const Leaf& leaf : array_leaves(whole)) {
    ArraySizes s = array_sizes(*leaf.array);
    if (s.bytes) total += *s.bytes; else total_known = false;
    if (s.array_size) total_array_size += *s.array_size; else xla_known = false;
    rows.emplace_back(leaf, std::move(s));
  }
  const int64_t table = xla::byte_size_of(whole);
  const bool buffer = whole.kind == Shape::Kind::kBuffer;
  if (buffer) {
    out << "buffer of one array\n";
  } else {
    out << "tuple of " << whole.elements.size() << " element"
        << (whole.elements.size() == 1 ? "" : "s") << ", " << rows.size() << " array"
        << (rows.size() == 1 ? "" : "s") << "\n";
  }
  for (const auto& [leaf, s] : rows) {
    out << "array {" << join(leaf.path) << "} " << s.shape << "\n";
    print_array_sizes(out, s, xla_model, "  ");
  }
  out << "total bytes      "
      << (total_known ? std::to_string(total) : "unknown (an array is not supported)") << "\n";
  if (xla_model) {
    out << "total XLA ArraySize " << (xla_known ? std::to_string(total_array_size) : "unknown")
        << "\n";
    if (buffer) {
      out << "XLA ByteSizeOf of the buffer " << table << " (its array's)\n";
    } else {
      out << "XLA ByteSizeOf of the tuple " << table << " (its index table: "
          << xla::kPointerSize << " bytes per element)\n";
    }
  }
  return out.str();
}

// ---------------------------------------------------------------------------
// bitcast.

std::string bitcast_text(const ShapeWithLayout& from, const ShapeWithLayout& to,
                         const std::optional<std::vector<int64_t>>& transpose,
                         const BitcastReport& r) {
  std::string out = print_shape(from) + " -> " + print_shape(to) +
                    (transpose ? " (transpose " + join(*transpose) + ")" : "") + ": " +
                    (r.is_bitcast ? "a bitcast" : "NOT a bitcast") + "\n";
  for (const std::string& reason : r.reasons) out += "  " + reason + "\n";
  out += "  bytes " + std::to_string(r.from_bytes) + " and " + std::to_string(r.to_bytes) + "; " +
         std::to_string(r.elements_checked) + " element" + (r.elements_checked == 1 ? "" : "s") +
         " compared\n";
  return out;
}

}  // namespace tilecheck::answers
