// The layout explorer's entry points: what the page (explorer.js) asks the
// spec, compiled to WebAssembly with emscripten (web/CMakeLists.txt). Each
// takes text as the user typed it and returns one JSON object, which stays
// valid until the next call. The answers are the command's own
// (answers/answers.h, draw/draw.h): the page shows the bytes `tilecheck`
// prints. Only the spec: no impl, no Z3, no gate.
//
// Every call catches what the spec throws and returns {"ok":false,
// "error":...} instead: a layout the user is still typing is the common
// case, never an exception in the page.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "answers/answers.h"
#include "draw/draw.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::web {
namespace {

// The most elements a bitcast is compared over here, one spec index at a
// time each side (a second or so in a browser); `tilecheck bitcast` compares
// larger ones over the impl's plans.
constexpr int64_t kMaxBitcastElements = int64_t{1} << 20;

// A JSON object written field by field.
class Json {
 public:
  Json& field(std::string_view name, std::string_view value) {
    key(name);
    quote(value);
    return *this;
  }
  Json& field(std::string_view name, const char* value) { return field(name, std::string_view(value)); }
  Json& field(std::string_view name, const std::string& value) { return field(name, std::string_view(value)); }
  Json& field(std::string_view name, int64_t value) {
    key(name);
    out_ += std::to_string(value);
    return *this;
  }
  Json& field(std::string_view name, bool value) {
    key(name);
    out_ += value ? "true" : "false";
    return *this;
  }
  Json& field(std::string_view name, const std::vector<int64_t>& values) {
    key(name);
    out_ += '[';
    for (size_t i = 0; i < values.size(); ++i) out_ += (i ? "," : "") + std::to_string(values[i]);
    out_ += ']';
    return *this;
  }
  // A value written by the caller: another object, an array of them, null.
  Json& raw(std::string_view name, std::string_view json) {
    key(name);
    out_ += json;
    return *this;
  }
  std::string str() const { return out_ + '}'; }

 private:
  void key(std::string_view name) {
    out_ += out_.size() > 1 ? "," : "";
    quote(name);
    out_ += ':';
  }
  void quote(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    out_ += '"';
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += c;
      } else if (u < 0x20) {
        out_ += "\\u00";
        out_ += kHex[u >> 4];
        out_ += kHex[u & 15];
      } else {
        out_ += c;
      }
    }
    out_ += '"';
  }
  std::string out_ = "{";
};

std::string error_json(const std::exception& e, bool internal) {
  std::string message = e.what();
  if (internal) message = "internal: " + message;
  Json j;
  j.field("ok", false).field("error", message);
  if (const auto* error = dynamic_cast<const Error*>(&e); error && error->column() > 0) {
    j.field("column", error->column());
  }
  return j.str();
}

// What a call returns, kept until the next call.
const char* reply(std::string json) {
  static std::string last;
  last = std::move(json);
  return last.c_str();
}

template <class F>
const char* answer(F f) {
  try {
    return reply(f());
  } catch (const Error& e) {
    return reply(error_json(e, false));
  } catch (const std::exception& e) {
    return reply(error_json(e, true));
  }
}

// The spec's own index formulas as a plan for answers::bitcast_report.
struct SpecPlan {
  explicit SpecPlan(const ShapeWithLayout& s) : shape(s) { spec::validate(shape); }
  int64_t byte_size() const { return spec::byte_size(shape); }
  int64_t element_count() const { return spec::element_count(shape); }
  int64_t linear_index(const std::vector<int64_t>& e) const { return spec::linear_index(shape, e); }
  const ShapeWithLayout& shape;
};

// The drawing of one array: the SVG when it fits, else the text view (cut
// at 32 rows, as `tilecheck draw`) and why there is no SVG.
void add_drawing(Json& j, const ShapeWithLayout& shape) {
  if (draw::fits_svg(shape)) {
    j.field("svg", draw::svg(shape));
    return;
  }
  try {
    draw::svg(shape);  // throws, saying the sizes
  } catch (const Error& e) {
    j.field("drawing_note", std::string(e.what()));
  }
  j.field("drawing_text", draw::text(shape, 32, "--max-rows"));
}

std::string layout_json(std::string_view text) {
  const Shape whole = answers::parse_shape_text(text);
  Json j;
  j.field("ok", true).field("shape", print_any_shape(whole)).field("array", whole.is_array());
  j.field("size", answers::size_text(whole, /*xla_model=*/true));
  if (!whole.is_array()) {
    std::string leaves = "[";
    for (const Leaf& leaf : array_leaves(whole)) {
      Json l;
      l.field("path", leaf.path).field("shape", print_shape(*leaf.array));
      leaves += (leaves.size() > 1 ? "," : "") + l.str();
    }
    j.raw("leaves", leaves + "]");
    return j.str();
  }
  // The views of one array need the oracle's checks, as `index` and `draw`.
  ShapeWithLayout shape;
  try {
    shape = spec::parse_layout(text);
  } catch (const Error& e) {
    j.field("array_error", std::string(e.what()));
    return j.str();
  }
  j.field("dims", shape.dims)
      .field("elements", spec::element_count(shape))
      .field("padded", spec::padded_element_count(shape))
      .field("tiled_shape", spec::tiled_shape(shape));
  // The tiled shape level by level: the physical bounds, then each level's.
  if (spec::element_count(shape) > 0) {
    const spec::IndexTrace trace =
        spec::trace_linear_index(shape, std::vector<int64_t>(shape.rank(), 0));
    std::string levels = "[";
    for (const spec::LevelTrace& level : trace.levels) {
      Json l;
      l.field("tile", print_tile(level.tile)).field("bounds", level.bounds_after);
      levels += (levels.size() > 1 ? "," : "") + l.str();
    }
    j.field("physical_bounds", trace.physical_bounds).raw("levels", levels + "]");
  }
  add_drawing(j, shape);
  return j.str();
}

std::string element_json(std::string_view text, std::string_view element_text) {
  const ShapeWithLayout shape = spec::parse_layout(text);
  const std::vector<int64_t> element = answers::parse_coordinates(element_text);
  Json j;
  j.field("ok", true)
      .field("element", element)
      .field("index", spec::linear_index(shape, element))
      .field("index_text", answers::index_text(shape, element))
      .field("explain", answers::explain_text(shape, element));
  return j.str();
}

std::string position_json(std::string_view text, std::string_view position_text) {
  const ShapeWithLayout shape = spec::parse_layout(text);
  const int64_t position = answers::parse_int64(position_text, "position");
  const std::optional<std::vector<int64_t>> element = spec::delinearize(shape, position);
  Json j;
  j.field("ok", true).field("position", position).field("text", answers::delinearize_text(shape, position));
  if (element) j.field("element", *element); else j.raw("element", "null");
  return j.str();
}

std::string bitcast_json(std::string_view from_text, std::string_view to_text,
                         std::string_view transpose_text) {
  const ShapeWithLayout from = spec::parse_layout(from_text);
  const ShapeWithLayout to = spec::parse_layout(to_text);
  std::optional<std::vector<int64_t>> perm;
  if (!transpose_text.empty()) perm = answers::parse_coordinates(transpose_text);
  const int64_t elements = std::max(spec::element_count(from), spec::element_count(to));
  if (elements > kMaxBitcastElements) {
    throw Error("the explorer compares bitcasts of at most " + std::to_string(kMaxBitcastElements) +
                " elements, and these have " + std::to_string(elements) +
                "; `tilecheck bitcast` compares them over the impl's plans");
  }
  const answers::BitcastReport r = answers::bitcast_report<SpecPlan>(from, to, perm);
  Json j;
  j.field("ok", true).field("bitcast", r.is_bitcast).field("text", answers::bitcast_text(from, to, perm, r));
  if (r.first_moved) {
    Json m;
    m.field("from_element", r.first_moved->from_element)
        .field("to_element", r.first_moved->to_element)
        .field("from_position", r.first_moved->from_position)
        .field("to_position", r.first_moved->to_position);
    j.raw("first_moved", m.str());
  }
  // The relayout picture: both memory maps, when both fit.
  Json from_drawing, to_drawing;
  add_drawing(from_drawing, from);
  add_drawing(to_drawing, to);
  j.raw("from_drawing", from_drawing.str()).raw("to_drawing", to_drawing.str());
  return j.str();
}

std::string catalog_json() {
  std::string entries = "[";
  for (const CatalogEntry& entry : catalog()) {
    Json e;
    e.field("name", entry.name).field("layout", entry.layout).field("why", entry.why);
    entries += (entries.size() > 1 ? "," : "") + e.str();
  }
  Json j;
  j.field("ok", true).raw("entries", entries + "]");
  return j.str();
}

}  // namespace
}  // namespace tilecheck::web

// The page calls these through emscripten's cwrap (explorer.js).
extern "C" {

const char* tc_catalog() {
  return tilecheck::web::answer([] { return tilecheck::web::catalog_json(); });
}
const char* tc_layout(const char* text) {
  return tilecheck::web::answer([&] { return tilecheck::web::layout_json(text); });
}
const char* tc_element(const char* text, const char* element) {
  return tilecheck::web::answer([&] { return tilecheck::web::element_json(text, element); });
}
const char* tc_position(const char* text, const char* position) {
  return tilecheck::web::answer([&] { return tilecheck::web::position_json(text, position); });
}
const char* tc_bitcast(const char* from, const char* to, const char* transpose) {
  return tilecheck::web::answer([&] { return tilecheck::web::bitcast_json(from, to, transpose); });
}

}  // extern "C"
