#include <tilecheck/spec/syntax.h>

#include <cctype>
#include <limits>

namespace tilecheck {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  ShapeWithLayout parse() {
    ShapeWithLayout shape;
    skip_spaces();
    const int64_t type_column = column();
    std::string_view name = identifier();
    if (name.empty()) fail("expected an element type such as f32, bf16 or s4", type_column);
    std::optional<ElementType> type = element_type_from_name(name);
    if (!type) fail("unknown element type '" + std::string(name) + "'", type_column);
    shape.type = *type;

    expect('[', "expected '[' after the element type");
    skip_spaces();
    if (peek() != ']') {
      while (true) {
        skip_spaces();
        if (peek() == '?') {
          ++pos_;
          shape.dims.push_back(kSymbolicDim);
        } else if (peek() == '<') {
          fail("dynamic dims ('<=') are not supported; give the bound as a static dim");
        } else {
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
    if (at_end()) {
      shape.layout = default_layout(shape.rank());
    } else {
      parse_layout(shape);
    }
    skip_spaces();
    if (!at_end()) fail("unexpected '" + std::string(1, peek()) + "' after the shape");
    return shape;
  }

 private:
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

  void parse_properties(Layout& layout) {
    // Order T* L? E? S?; `stage` is the index of the last property seen.
    int stage = 0;
    const std::string order = "TLES";
    while (true) {
      skip_spaces();
      const char p = peek();
      const int64_t c = column();
      const size_t s = order.find(p);
      if (p == '\0' || s == std::string::npos) break;
      ++pos_;
      const int this_stage = static_cast<int>(s) + 1;
      if (this_stage <= stage) {
        fail(std::string("property ") + p +
                 "(..) is out of order or repeated; layouts list T(..)... L(n) E(n) S(n) in that "
                 "order, each at most once (write repeated tiles as T(..)(..))",
             c);
      }
      stage = this_stage;
      expect('(', std::string("expected '(' after ") + p);
      if (p == 'T') {
        // XLA writes repeated tiling as one T followed by the tiles: T(8,128)(2,1).
        layout.tiles.push_back(tile());
        while (accept('(')) layout.tiles.push_back(tile());
        continue;
      }
      const int64_t vc = column();
      const int64_t v = number("a number");
      expect(')', std::string("expected ')' to close ") + p + "(..)");
      if (p == 'L') {
        if (v < 1) fail("L(" + std::to_string(v) + ") must be at least 1", vc);
        layout.tail_padding_alignment = v;
      } else if (p == 'E') {
        if (v < 1 || v > 128) fail("E(" + std::to_string(v) + ") is outside 1..128", vc);
        layout.element_size_bits = v;
      } else {
        if (v < 0) fail("S(" + std::to_string(v) + ") must be >= 0", vc);
        layout.memory_space = v;
      }
    }
    skip_spaces();
    if (peek() != '}' && !at_end()) {
      fail("unknown layout property '" + std::string(1, peek()) + "'; expected T, L, E or S");
    }
  }

  Tile tile() {
    Tile t;
    int64_t star_column = 0;
    skip_spaces();
    if (peek() == ')') fail("empty tile T(); a tile needs at least one entry");
    while (true) {
      skip_spaces();
      const int64_t c = column();
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
                                          : ", found '" + std::string(1, peek()) + "'"),
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

  void skip_spaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
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
                               : ", found '" + std::string(1, peek()) + "'"));
    }
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool at_end() const { return pos_ >= text_.size(); }
  int64_t column() const { return static_cast<int64_t>(pos_) + 1; }
  [[noreturn]] void fail(const std::string& message, int64_t at = 0) const {
    throw Error(message, at > 0 ? at : column());
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::string join_dims(const std::vector<int64_t>& values, bool tile) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    if (tile && values[i] == kCombineDim) {
      out += '*';
    } else if (!tile && values[i] == kSymbolicDim) {
      out += '?';
    } else {
      out += std::to_string(values[i]);
    }
  }
  return out;
}

}  // namespace

ShapeWithLayout parse_shape(std::string_view text) { return Parser(text).parse(); }

std::string print_tile(const Tile& tile) { return "(" + join_dims(tile.dims, true) + ")"; }

std::string print_shape(const ShapeWithLayout& shape) {
  std::string out = std::string(element_type_name(shape.type)) + "[" + join_dims(shape.dims, false) + "]";
  const Layout& layout = shape.layout;
  std::string properties;
  if (!layout.tiles.empty()) properties += "T";
  for (const Tile& t : layout.tiles) properties += print_tile(t);
  if (layout.tail_padding_alignment) {
    properties += "L(" + std::to_string(*layout.tail_padding_alignment) + ")";
  }
  if (layout.element_size_bits) {
    properties += "E(" + std::to_string(*layout.element_size_bits) + ")";
  }
  if (layout.memory_space) properties += "S(" + std::to_string(*layout.memory_space) + ")";
  if (shape.rank() == 0 && properties.empty()) return out;
  out += "{" + join_dims(layout.minor_to_major, false);
  if (!properties.empty()) out += ":" + properties;
  return out + "}";
}

}  // namespace tilecheck
