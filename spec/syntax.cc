#include <tilecheck/spec/syntax.h>

#include <cctype>
#include <limits>

namespace tilecheck {
namespace {

// XLA's layout properties in the order XLA parses and prints them. D(..) is
// read and dropped (dense only), as XLA does; the rest are kept.
constexpr std::string_view kPropertyOrder[] = {"D", "T", "L", "#", "*", "E", "S", "SC", "P", "M"};
constexpr std::string_view kOrderText = "T L # * E S SC P M";

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Shape parse_whole() {
    Shape shape = any_shape();
    skip_spaces();
    if (!at_end()) fail("unexpected " + shown_char() + " after the shape");
    return shape;
  }

  // A shape at the start of the text; `end` is where it stops.
  Shape parse_prefix(size_t& end) {
    Shape shape = any_shape();
    end = pos_;
    return shape;
  }

 private:
  // Counts one level of nesting for as long as it lives.
  class Nested {
   public:
    explicit Nested(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxShapeNesting) {
        p_.fail("shapes nest more than " + std::to_string(kMaxShapeNesting) +
                " deep (an array is 1, an array in a tuple 2; each tuple, b(..) and P(..) "
                "adds one): tilecheck's nesting limit is " + std::to_string(kMaxShapeNesting));
      }
    }
    ~Nested() { --p_.depth_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    Parser& p_;
  };

  Shape any_shape() {
    skip_spaces();
    const Nested level(*this);
    Shape shape;
    if (accept('(')) {
      shape.kind = Shape::Kind::kTuple;
      if (accept(')')) return shape;
      while (true) {
        shape.elements.push_back(any_shape());
        if (accept(')')) return shape;
        expect(',', "expected ',' or ')' in the tuple");
      }
    }
    const int64_t type_column = column();
    std::string_view name = identifier();
    if (name == "b" && accept('(')) {
      // A buffer shape, b(ARRAY), as XLA prints it.
      shape.kind = Shape::Kind::kBuffer;
      const int64_t inner_column = column();
      shape.elements.push_back(any_shape());
      if (!shape.elements[0].is_array()) fail("b(..) holds one array shape", inner_column);
      expect(')', "expected ')' at the end of the buffer shape b(..)");
      return shape;
    }
    if (name.empty()) {
      fail("expected an element type such as f32, bf16 or s4, or '(' to start a tuple",
           type_column);
    }
    if (name == "token" || name == "opaque") {
      shape.kind = name == "token" ? Shape::Kind::kToken : Shape::Kind::kOpaque;
      expect('[', "expected '[' after " + std::string(name));
      expect(']', std::string(name) + " takes no dims: expected ']'");
      return shape;
    }
    std::optional<ElementType> type = element_type_from_name(name);
    if (!type) fail("unknown element type '" + std::string(name) + "'", type_column);
    shape.array = array(*type);
    return shape;
  }

  ShapeWithLayout array(ElementType type) {
    ShapeWithLayout shape;
    shape.type = type;
    expect('[', "expected '[' after the element type");
    skip_spaces();
    if (peek() != ']') {
      while (true) {
        skip_spaces();
        if (accept('?')) {
          shape.dims.push_back(kSymbolicDim);
        } else {
          if (accept('<')) {
            if (peek() != '=') fail("expected '<=' before a dynamic dim's bound");
            ++pos_;
            shape.dynamic_dims.push_back(shape.rank());
          }
          const int64_t c = column();
          const int64_t d = number("a dim size");
          if (d < 0) fail("dim " + std::to_string(d) + " is negative; dims must be >= 0", c);
          shape.dims.push_back(d);
        }
        if (!accept(',')) break;
      }
    }
    expect(']', "expected ',' or ']' in the dims");
    skip_spaces();
    if (peek() == '{') {
      parse_layout(shape);
    } else {
      shape.layout = default_layout(shape.rank());
    }
    return shape;
  }

  void parse_layout(ShapeWithLayout& shape) {
    const int64_t brace_column = column();
    expect('{', "expected '{' to start the layout");
    Layout& layout = shape.layout;
    skip_spaces();
    if (peek() != ':' && peek() != '}') {
      while (true) {
        const int64_t c = column();
        const int64_t d = number("a minor_to_major entry");
        if (d < 0 || d >= shape.rank()) {
          fail("minor_to_major entry " + std::to_string(d) + " is not a dim of a rank-" +
                   std::to_string(shape.rank()) + " shape",
               c);
        }
        layout.minor_to_major.push_back(d);
        if (!accept(',')) break;
      }
    }
    if (accept(':')) parse_properties(layout);
    expect('}', "expected '}' to close the layout");
    try {
      validate_structure(shape);
    } catch (const Error& e) {
      fail(e.what(), brace_column);
    }
  }

  // The property name at the cursor ("SC" before "S"), or empty.
  std::string_view property_name() {
    skip_spaces();
    if (text_.substr(pos_, 2) == "SC") return "SC";
    const char c = peek();
    for (std::string_view p : kPropertyOrder) {
      if (p.size() == 1 && p[0] == c) return p;
    }
    return {};
  }

  void parse_properties(Layout& layout) {
    // `stage` is one past the index in kPropertyOrder of the last property seen.
    size_t stage = 0;
    while (true) {
      const int64_t c = column();
      const std::string_view p = property_name();
      if (p.empty()) break;
      size_t s = 0;
      while (kPropertyOrder[s] != p) ++s;
      if (s < stage) {
        fail("property " + std::string(p) +
                 "(..) is out of order or repeated; a layout lists its properties in XLA's "
                 "order " + std::string(kOrderText) +
                 ", each at most once (write repeated tiles as T(..)(..))",
             c);
      }
      stage = s + 1;
      pos_ += p.size();
      expect('(', "expected '(' after " + std::string(p));
      if (p == "D") {
        dim_level_types();
      } else if (p == "T") {
        // XLA writes repeated tiling as one T followed by the tiles: T(8,128)(2,1).
        layout.tiles.push_back(tile(0));
        while (accept('(')) layout.tiles.push_back(tile(tile_entries(layout)));
      } else if (p == "#" || p == "*") {
        const int64_t tc = column();
        skip_spaces();
        const std::string_view name = identifier();
        const std::optional<ElementType> type = element_type_from_name(name);
        if (!type || !is_integral(*type)) {
          fail(std::string(p) + "(..) takes an integer type such as u32, found '" +
                   std::string(name) + "'",
               tc);
        }
        (p == "#" ? layout.index_type : layout.pointer_type) = *type;
        expect(')', "expected ')' to close " + std::string(p) + "(..)");
      } else if (p == "SC") {
        layout.split_configs.push_back(split_config());
        while (accept('(')) layout.split_configs.push_back(split_config());
      } else if (p == "P") {
        const int64_t sc = column();
        const Shape physical = any_shape();
        if (!physical.is_array()) fail("P(..) takes an array shape", sc);
        layout.physical_shape = print_shape(physical.array);
        expect(')', "expected ')' to close P(..)");
      } else {
        const int64_t vc = column();
        const int64_t v = number("a number");
        expect(')', "expected ')' to close " + std::string(p) + "(..)");
        set_number_property(layout, p[0], v, vc);
      }
    }
    skip_spaces();
    if (peek() != '}' && !at_end()) {
      fail("unknown layout property " + shown_char() + "; expected one of " +
           std::string(kOrderText));
    }
  }

  // L, E, S and M; XLA's defaults (L(1), S(0), M(0)) are stored as absent,
  // since XLA does not distinguish them and never prints them.
  void set_number_property(Layout& layout, char p, int64_t v, int64_t vc) {
    if (p == 'L') {
      if (v < 1) fail("L(" + std::to_string(v) + ") must be at least 1", vc);
      if (v > 1) layout.tail_padding_alignment = v;
    } else if (p == 'E') {
      if (v < 1 || v > 128) fail("E(" + std::to_string(v) + ") is outside 1..128", vc);
      layout.element_size_bits = v;
    } else if (p == 'S') {
      if (v < 0) fail("S(" + std::to_string(v) + ") must be >= 0", vc);
      if (v > 0) layout.memory_space = v;
    } else {
      if (v < 0) fail("M(" + std::to_string(v) + ") must be >= 0", vc);
      if (v > 0) layout.metadata_prefix_bytes = v;
    }
  }

  // D(D,D,...): XLA's dim level types, which XLA reads and drops. Dense (D)
  // entries change nothing; any other level type makes a sparse layout.
  void dim_level_types() {
    skip_spaces();
    if (accept(')')) return;
    while (true) {
      skip_spaces();
      const int64_t c = column();
      const char kind = peek();
      if (kind != 'D' && kind != 'C' && kind != 'S' && kind != 'H') {
        fail("expected a dim level type (D, C, S or H)", c);
      }
      ++pos_;
      bool modified = false;
      while (peek() == '+' || peek() == '~') {
        ++pos_;
        modified = true;
      }
      if (kind != 'D' || modified) {
        fail("sparse layouts are not supported: D(..) gives a dim level type other than dense "
             "(D)",
             c);
      }
      if (!accept(',')) break;
    }
    expect(')', "expected ',' or ')' in D(..)");
  }

  SplitConfig split_config() {
    SplitConfig sc;
    const int64_t c = column();
    sc.dimension = number("a split config's dim");
    if (sc.dimension < 0) fail("a split config's dim must be >= 0", c);
    expect(':', "expected ':' after the split config's dim");
    skip_spaces();
    if (peek() != ')') {
      while (true) {
        const int64_t ic = column();
        const int64_t index = number("a split index");
        if (index < 0) fail("split index " + std::to_string(index) + " is negative", ic);
        sc.split_indices.push_back(index);
        if (!accept(',')) break;
      }
    }
    expect(')', "expected ',' or ')' in the split config");
    return sc;
  }

  static int64_t tile_entries(const Layout& layout) {
    int64_t n = 0;
    for (const Tile& t : layout.tiles) n += static_cast<int64_t>(t.dims.size());
    return n;
  }

  // One tile's entries, after `before` entries of the tiles before it.
  Tile tile(int64_t before) {
    Tile t;
    int64_t star_column = 0;
    skip_spaces();
    if (peek() == ')') fail("empty tile T(); a tile needs at least one entry");
    while (true) {
      skip_spaces();
      const int64_t c = column();
      if (before + static_cast<int64_t>(t.dims.size()) == kMaxTileEntries) {
        fail("the layout lists more than " + std::to_string(kMaxTileEntries) +
                 " tile entries over all its tiles: tilecheck's tile entry limit is " +
                 std::to_string(kMaxTileEntries),
             c);
      }
      if (accept('*')) {
        t.dims.push_back(kCombineDim);
        star_column = c;
      } else {
        const int64_t v = number("a tile entry");
        if (v <= 0) {
          fail("tile entry " + std::to_string(v) + " must be >= 1 (or '*' to combine dims)", c);
        }
        t.dims.push_back(v);
      }
      if (!accept(',')) break;
    }
    if (t.dims.back() == kCombineDim) {
      fail("'*' cannot be a tile's last entry; it combines a dim with the next more minor one",
           star_column);
    }
    expect(')', "expected ',' or ')' in the tile");
    return t;
  }

  // A decimal integer with an optional leading '-', checked against int64.
  int64_t number(const std::string& what) {
    skip_spaces();
    const int64_t start_column = column();
    bool negative = accept('-');
    if (!std::isdigit(static_cast<unsigned char>(peek()))) {
      fail("expected " + what + (at_end() ? ", found the end of the text"
                                          : ", found " + shown_char()),
           start_column);
    }
    int64_t value = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const int digit = peek() - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        fail("number is too large for int64", start_column);
      }
      value = value * 10 + digit;
      ++pos_;
    }
    return negative ? -value : value;
  }

  std::string_view identifier() {
    const size_t start = pos_;
    while (std::isalnum(static_cast<unsigned char>(peek()))) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // Spaces and C comments, which XLA writes in tuples: /*index=5*/.
  void skip_spaces() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        const size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) fail("unterminated comment '/*'");
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }
  bool accept(char c) {
    skip_spaces();
    if (peek() != c || at_end()) return false;
    ++pos_;
    return true;
  }
  void expect(char c, const std::string& message) {
    if (!accept(c)) {
      fail(message + (at_end() ? ", found the end of the text"
                               : ", found " + shown_char()));
    }
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  // The character at the cursor for a message: 'x', or the byte in hex when
  // it is not printable ASCII (a NUL, a control, invalid UTF-8), so every
  // message is printable text and valid UTF-8.
  std::string shown_char() const {
    const auto u = static_cast<unsigned char>(peek());
    if (u >= 0x20 && u < 0x7f) return "'" + std::string(1, static_cast<char>(u)) + "'";
    constexpr char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
  }
  bool at_end() const { return pos_ >= text_.size(); }
  int64_t column() const { return static_cast<int64_t>(pos_) + 1; }
  [[noreturn]] void fail(const std::string& message, int64_t at = 0) const {
    throw Error(message, at > 0 ? at : column());
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;  // shapes open at the cursor (Nested)
};

std::string join_tile(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += values[i] == kCombineDim ? "*" : std::to_string(values[i]);
  }
  return out;
}

std::string print_dims(const ShapeWithLayout& shape) {
  std::string out;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (i > 0) out += ',';
    if (shape.dims[i] == kSymbolicDim) {
      out += '?';
    } else {
      if (shape.is_dynamic(i)) out += "<=";
      out += std::to_string(shape.dims[i]);
    }
  }
  return out;
}

}  // namespace

std::string shown_text(std::string_view text, size_t max_chars) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u >= 0x20 && u < 0x7f && u != '\\') {
      out += text[i];
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
    if (out.size() >= max_chars && i + 1 < text.size()) {
      return out + "... (" + std::to_string(text.size()) + " bytes in all)";
    }
  }
  return out;
}

Shape parse_any_shape(std::string_view text) { return Parser(text).parse_whole(); }

Shape parse_shape_prefix(std::string_view text, size_t& end) {
  return Parser(text).parse_prefix(end);
}

ShapeWithLayout parse_shape(std::string_view text) {
  Shape shape = parse_any_shape(text);
  if (!shape.is_array()) {
    throw Error(std::string("expected one array shape, found ") +
                (shape.kind == Shape::Kind::kTuple    ? "a tuple"
                 : shape.kind == Shape::Kind::kBuffer ? "a buffer b(..)"
                                                      : "a token or opaque value"));
  }
  return std::move(shape.array);
}

std::string print_tile(const Tile& tile) {
  std::string out = "(";
  out += join_tile(tile.dims);
  out += ')';
  return out;
}

std::string print_properties(const Layout& layout) {
  std::string out;
  if (!layout.tiles.empty()) out += "T";
  for (const Tile& t : layout.tiles) out += print_tile(t);
  // A property XLA does not print at its default value (L(1), S(0), M(0)).
  const auto number = [&out](std::string_view name, std::optional<int64_t> v,
                             std::optional<int64_t> xla_default) {
    if (v && v != xla_default) out += std::string(name) + "(" + std::to_string(*v) + ")";
  };
  number("L", layout.tail_padding_alignment, 1);
  if (layout.index_type) out += "#(" + std::string(element_type_name(*layout.index_type)) + ")";
  if (layout.pointer_type) {
    out += "*(" + std::string(element_type_name(*layout.pointer_type)) + ")";
  }
  number("E", layout.element_size_bits, std::nullopt);
  number("S", layout.memory_space, 0);
  if (!layout.split_configs.empty()) out += "SC";
  for (const SplitConfig& sc : layout.split_configs) {
    out += '(';
    out += std::to_string(sc.dimension) + ":" + join(sc.split_indices);
    out += ')';
  }
  if (layout.physical_shape) out += "P(" + *layout.physical_shape + ")";
  number("M", layout.metadata_prefix_bytes, 0);
  return out;
}

std::string print_shape(const ShapeWithLayout& shape) {
  std::string out = std::string(element_type_name(shape.type)) + "[" + print_dims(shape) + "]";
  const std::string properties = print_properties(shape.layout);
  if (shape.rank() == 0 && properties.empty()) return out;
  out += "{" + join(shape.layout.minor_to_major);
  if (!properties.empty()) out += ":" + properties;
  return out + "}";
}

std::string print_any_shape(const Shape& shape) {
  switch (shape.kind) {
    case Shape::Kind::kArray: return print_shape(shape.array);
    case Shape::Kind::kToken: return "token[]";
    case Shape::Kind::kOpaque: return "opaque[]";
    case Shape::Kind::kBuffer: return "b(" + print_any_shape(shape.elements.at(0)) + ")";
    case Shape::Kind::kTuple: break;
  }
  std::string out = "(";
  for (size_t i = 0; i < shape.elements.size(); ++i) {
    // XLA annotates every fifth element of a tuple with its index.
    if (i > 0) out += i % 5 == 0 ? ", /*index=" + std::to_string(i) + "*/" : ", ";
    out += print_any_shape(shape.elements[i]);
  }
  return out + ")";
}

}  // namespace tilecheck
