#include "conformance/coverage.h"

#include <algorithm>
#include <set>
#include <tuple>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {
namespace {

// The element counts past 2^16 and 2^20: required only where the run's
// size set sends them (coverage_of).
bool is_size_feature(const std::string& feature) {
  return feature == "2^16+ elements" || feature == "2^20+ elements";
}

// Coverage::required (coverage.h), but for the sizes.
bool form_required(const CoverageCell& c) {
  const bool buffer = is_buffer_function(c.function);
  if (c.order == "other" && c.feature == "scalar") return false;
  if ((c.feature == "E(n)" || c.feature == "half-filled byte") && c.width != "sub-byte") return false;
  const bool index_only = c.feature == "past 2^31" || c.feature == "past 2^32" || c.feature == "past 2^53" ||
                          c.feature == "dim past 2^32" || c.feature == "2^31+ tiles";
  if (index_only && buffer) return false;
  if (c.feature == "zero-size" && c.function == ImplFunction::kLinearIndex) return false;
  return true;
}

}  // namespace

const std::vector<std::string>& coverage_features() {
  static const std::vector<std::string> f = {
      "untiled",        "tiled",           "ragged",      "sub-tiles",   "combined dim (*)",
      "E(n)",           "L(n)",            "memory space", "scalar",     "zero-size",
      "rank 4-6",       "rank 7+",        "half-filled byte", "past 2^31",  "past 2^32",
      "past 2^53",      "dim past 2^32",  "2^31+ tiles", "2^16+ elements", "2^20+ elements"};
  return f;
}

const std::vector<std::string>& coverage_width_classes() {
  static const std::vector<std::string> w = {"sub-byte", "8-bit", "16-bit", "32-bit", "64-bit+"};
  return w;
}

std::vector<std::string> features_of(const ShapeWithLayout& s) {
  std::vector<std::string> out;
  const Layout& l = s.layout;
  out.push_back(l.tiles.empty() ? "untiled" : "tiled");
  // A dim that the first tile does not divide (the most minor dims, in
  // physical order), or an odd untiled count.
  bool ragged = false;
  if (!l.tiles.empty()) {
    const std::vector<int64_t>& t = l.tiles.front().dims;
    const size_t rank = s.dims.size();
    for (size_t j = 0; j < t.size() && j < rank; ++j) {
      const int64_t entry = t[t.size() - 1 - j];
      const int64_t dim = s.dims[static_cast<size_t>(l.minor_to_major[j])];
      if (entry != kCombineDim && entry > 0 && dim % entry != 0) ragged = true;
    }
  } else {
    ragged = spec::element_count(s) % 2 == 1;
  }
  if (ragged) out.push_back("ragged");
  if (l.tiles.size() >= 2) out.push_back("sub-tiles");
  const bool combines = std::any_of(l.tiles.begin(), l.tiles.end(), [](const Tile& t) {
    return std::find(t.dims.begin(), t.dims.end(), kCombineDim) != t.dims.end();
  });
  if (combines) out.push_back("combined dim (*)");
  if (l.element_size_bits) out.push_back("E(n)");
  if (l.tail_padding_alignment) out.push_back("L(n)");
  if (l.memory_space) out.push_back("memory space");
  if (s.dims.empty()) out.push_back("scalar");
  if (spec::element_count(s) == 0) out.push_back("zero-size");
  if (s.dims.size() >= 4 && s.dims.size() <= 6) out.push_back("rank 4-6");
  if (s.dims.size() >= 7) out.push_back("rank 7+");
  const int64_t padded = spec::padded_element_count(s);
  if (s.element_bits() < 8 && (padded * s.element_bits()) % 8 != 0) out.push_back("half-filled byte");
  if (padded > (int64_t{1} << 31)) out.push_back("past 2^31");
  if (padded > (int64_t{1} << 32)) out.push_back("past 2^32");
  if (padded > (int64_t{1} << 53)) out.push_back("past 2^53");
  // Data movement at size: the element count, not the positions.
  const int64_t count = spec::element_count(s);
  if (count > (int64_t{1} << 16)) out.push_back("2^16+ elements");
  if (count > (int64_t{1} << 20)) out.push_back("2^20+ elements");
  if (std::any_of(s.dims.begin(), s.dims.end(), [](int64_t d) { return d > (int64_t{1} << 32); })) {
    out.push_back("dim past 2^32");
  }
  if (!l.tiles.empty()) {
    // The first level's tiles: its padded count over a tile's elements.
    ShapeWithLayout first = s;
    first.layout.tiles.resize(1);
    first.layout.tail_padding_alignment.reset();
    int64_t tile = 1;
    for (int64_t entry : l.tiles.front().dims) tile *= entry == kCombineDim ? 1 : entry;
    if (spec::padded_element_count(first) / tile > (int64_t{1} << 31)) out.push_back("2^31+ tiles");
  }
  return out;
}

std::string dim_order_of(const ShapeWithLayout& s) {
  return s.layout.minor_to_major == default_layout(s.rank()).minor_to_major ? "default" : "other";
}

namespace {
std::string width_class(int64_t bits) {
  if (bits < 8) return "sub-byte";
  if (bits == 8) return "8-bit";
  if (bits == 16) return "16-bit";
  if (bits == 32) return "32-bit";
  return "64-bit+";
}
}  // namespace

std::string width_class_of(const ShapeWithLayout& s) { return width_class(s.element_bits()); }


Coverage coverage_of(const ConformanceReport& r) {
  Coverage cov;
  std::set<std::string> widths_sent;
  for (const CaseOutcome& c : r.cases) {
    if (c.status != CaseOutcome::Status::kPassed && c.status != CaseOutcome::Status::kFailed) continue;
    const ShapeWithLayout s = parse_shape(c.layout);
    const std::string order = dim_order_of(s), width = width_class_of(s);
    // A class is claimed when a type of that natural width was answered
    // (an f32 layout with E(16) does not claim the 16-bit types).
    widths_sent.insert(width_class(natural_bit_width(s.type)));
    for (const std::string& f : features_of(s)) ++cov.reached[{f, order, width, c.function}];
  }
  // The sizes a run must reach: those of the size set's layouts it sends
  // (within --max-array-bytes, kept by --max-rank and --types).
  std::set<std::tuple<std::string, std::string, std::string>> sizes_sent;  // feature, order, width
  if (r.rules.stream.size_set && r.given_layouts == 0 && r.replayed_sequences == 0) {
    for (const ShapeWithLayout& s : size_set_within(r.max_array_bytes)) {
      if (!r.rules.stream.keeps(s)) continue;
      for (const std::string& f : features_of(s)) {
        if (is_size_feature(f)) sizes_sent.insert({f, dim_order_of(s), width_class_of(s)});
      }
    }
  }
  for (const FunctionReport& f : r.functions) {
    if (!f.exported) continue;
    for (const std::string& feature : coverage_features()) {
      for (const char* order : {"default", "other"}) {
        for (const std::string& width : coverage_width_classes()) {
          if (is_size_feature(feature) && !sizes_sent.count({feature, order, width})) continue;
          const CoverageCell cell{feature, order, width, f.function};
          if (!form_required(cell)) continue;
          cov.required.insert(cell);
          if (cov.reached.count(cell)) continue;
          (widths_sent.count(width) ? cov.holes : cov.unclaimed).push_back(cell);
        }
      }
    }
  }
  return cov;
}

}  // namespace tilecheck::conformance
