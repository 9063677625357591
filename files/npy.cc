#include "files/npy.h"

#include <bit>
#include <charconv>
#include <optional>

#include <tilecheck/spec/syntax.h>

namespace tilecheck::files {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kAlignment = 64;
constexpr size_t kMaxHeaderBytes = size_t{1} << 24;  // numpy itself refuses headers past 10 KB by default

// A reader of the header dict: Python literal syntax, restricted to what a
// .npy header of a plain array holds. Nothing nests (the shape is one flat
// tuple), so it needs no recursion.
class DictReader {
 public:
  explicit DictReader(std::string_view text) : text_(text) {}

  NpyHeader read() {
    std::optional<std::string> descr;
    std::optional<bool> fortran;
    std::optional<std::vector<int64_t>> shape;
    skip_space();
    expect('{');
    skip_space();
    while (!at('}')) {
      const size_t key_at = pos_;
      const std::string key = read_string("a key in quotes");
      skip_space();
      expect(':');
      skip_space();
      const auto once = [&](bool seen) {
        if (seen) fail_at(key_at, "the key '" + key + "' appears twice");
      };
      if (key == "descr") {
        once(descr.has_value());
        if (at('[')) {
          fail("'descr' is a list: a structured dtype, which tilecheck does not read (an array of "
               "plain elements has a descr string such as '<f4')");
        }
        descr = read_string("the descr string, e.g. '<f4'");
      } else if (key == "fortran_order") {
        once(fortran.has_value());
        fortran = read_bool();
      } else if (key == "shape") {
        once(shape.has_value());
        shape = read_tuple();
      } else {
        fail_at(key_at, "unknown key '" + key + "' (a .npy header has 'descr', 'fortran_order' and 'shape')");
      }
      skip_space();
      if (at(',')) {
        ++pos_;
        skip_space();
      } else if (!at('}')) {
        fail("expected ',' or '}'");
      }
    }
    ++pos_;
    // numpy pads the dict with spaces and ends it with '\n'.
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n')) ++pos_;
    if (pos_ != text_.size()) fail("unexpected text after the dict");
    if (!descr) fail_at(0, "the key 'descr' is missing");
    if (!fortran) fail_at(0, "the key 'fortran_order' is missing");
    if (!shape) fail_at(0, "the key 'shape' is missing");
    return NpyHeader{*descr, *fortran, *shape};
  }

 private:
  [[noreturn]] void fail_at(size_t at, const std::string& message) const {
    const std::string shown = shown_text(text_.substr(0, text_.find_last_not_of(" \n") + 1), 200);
    throw Error("the .npy header '" + shown + "' is not one tilecheck reads: " + message + " (at character " +
                std::to_string(at + 1) + ")");
  }
  [[noreturn]] void fail(const std::string& message) const { fail_at(pos_, message); }

  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  void expect(char c) {
    if (!at(c)) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  void skip_space() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }

  std::string read_string(const char* what) {
    if (!at('\'') && !at('"')) fail(std::string("expected ") + what);
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) fail("a string without its closing quote");
    const std::string_view body = text_.substr(pos_, end - pos_);
    if (body.find('\\') != std::string_view::npos || body.find('\n') != std::string_view::npos) {
      fail("escapes and line breaks in a string are not read");
    }
    pos_ = end + 1;
    return std::string(body);
  }

  bool read_bool() {
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true},
                                      std::pair{std::string_view("False"), false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    fail("expected True or False");
  }

  int64_t read_int() {
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    if (pos_ == start) fail("expected a dim: an integer >= 0");
    int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, value);
    if (ec != std::errc()) fail_at(start, "a dim that does not fit int64");
    return value;
  }

  // "()", "(5,)", "(3, 5)", "(3, 5,)"; "(5)" is not a tuple in Python.
  std::vector<int64_t> read_tuple() {
    expect('(');
    skip_space();
    std::vector<int64_t> dims;
    bool trailing_comma = false;
    while (!at(')')) {
      dims.push_back(read_int());
      skip_space();
      trailing_comma = at(',');
      if (trailing_comma) {
        ++pos_;
        skip_space();
      } else if (!at(')')) {
        fail("expected ',' or ')' in the shape");
      }
    }
    if (dims.size() == 1 && !trailing_comma) fail("a one-dim shape needs its comma: (n,)");
    ++pos_;
    return dims;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

uint32_t little_endian(const uint8_t* bytes, int count) {
  uint32_t value = 0;
  for (int i = count - 1; i >= 0; --i) value = value << 8 | bytes[i];
  return value;
}

}  // namespace

std::string python_tuple(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::string npy_preamble(const NpyHeader& header) {
  std::string dict = "{'descr': '" + header.descr + "', 'fortran_order': " +
                     (header.fortran_order ? "True" : "False") +
                     ", 'shape': " + python_tuple(header.shape) + ", }";
  // Version 1.0 has a 2-byte length; 2.0 the same layout with 4 bytes.
  const size_t version1_fixed = kMagic.size() + 2 + 2;
  const bool version1 = dict.size() + 1 + kAlignment + version1_fixed <= 0xffff;
  const size_t fixed = version1 ? version1_fixed : version1_fixed + 2;
  const size_t padded = (fixed + dict.size() + 1 + kAlignment - 1) / kAlignment * kAlignment;
  dict.append(padded - fixed - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += static_cast<char>(version1 ? 1 : 2);
  out += '\0';
  const uint32_t length = static_cast<uint32_t>(dict.size());
  for (size_t i = 0; i < (version1 ? 2u : 4u); ++i) out += static_cast<char>(length >> (8 * i) & 0xff);
  return out + dict;
}

NpyHeader parse_npy_header(std::string_view text) { return DictReader(text).read(); }

NpyHeader read_npy_preamble(const std::function<size_t(uint8_t*, size_t)>& read,
                            int64_t& preamble_bytes) {
  uint8_t start[12] = {};
  const size_t got = read(start, 8);
  const std::string_view magic(reinterpret_cast<const char*>(start), std::min<size_t>(got, 6));
  if (got < 6 || magic != kMagic) {
    throw Error("not a .npy file: it starts with '" + shown_text(magic) + "', not '\\x93NUMPY'" +
                (got < 6 ? " (" + std::to_string(got) + " bytes in all)" : ""));
  }
  if (got < 8) throw Error("the .npy file ends inside its format version");
  const int major = start[6], minor = start[7];
  if (major < 1 || major > 3 || minor != 0) {
    throw Error(".npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                ", which tilecheck does not read (it reads 1.0, 2.0 and 3.0)");
  }
  const int length_bytes = major == 1 ? 2 : 4;
  if (read(start + 8, length_bytes) != static_cast<size_t>(length_bytes)) {
    throw Error("the .npy file ends inside its header length");
  }
  const uint32_t length = little_endian(start + 8, length_bytes);
  if (length > kMaxHeaderBytes) {
    throw Error("a .npy header of " + std::to_string(length) + " bytes; tilecheck reads headers up to " +
                std::to_string(kMaxHeaderBytes) + " bytes");
  }
  std::string text(length, '\0');
  const size_t text_got = read(reinterpret_cast<uint8_t*>(text.data()), length);
  if (text_got != length) {
    throw Error("the .npy header is truncated: its length field says " + std::to_string(length) +
                " bytes, the file has " + std::to_string(text_got));
  }
  preamble_bytes = 8 + length_bytes + static_cast<int64_t>(length);
  return parse_npy_header(text);
}

std::string dense_dtype(const ShapeWithLayout& shape) {
  const ElementType type = shape.type;
  const int64_t bytes = shape.dense_element_bytes();
  const bool natural = shape.element_bits() == natural_bit_width(type) ||
                       (type == ElementType::kPred && bytes == 1);
  if (natural) {
    switch (type) {
      case ElementType::kPred: return "|b1";
      case ElementType::kF16: return "<f2";
      case ElementType::kF32: return "<f4";
      case ElementType::kF64: return "<f8";
      case ElementType::kC64: return "<c8";
      case ElementType::kC128: return "<c16";
      default: break;  // integers of the dense element's bytes; other floats as their bits
    }
  }
  const char kind = is_signed_integral(type) ? 'i' : 'u';
  switch (bytes) {
    case 1: return std::string("|") + kind + "1";
    case 2: case 4: case 8: return std::string("<") + kind + std::to_string(bytes);
    default: return "|V" + std::to_string(bytes);
  }
}

void check_dtype(std::string_view found, std::string_view expected, std::string_view what) {
  const auto mismatch = [&](const std::string& extra) {
    return Error("dtype '" + std::string(found) + "', but " + std::string(what) + " has dtype '" +
                 std::string(expected) + "'" + extra + " (docs/FILES.md)");
  };
  // found: a byte-order mark and the type code with its size.
  if (found.empty() || std::string_view("<>=|").find(found[0]) == std::string_view::npos) {
    throw mismatch("; a descr starts with a byte-order mark, one of < > = |");
  }
  const std::string_view code = found.substr(1);
  if (code != expected.substr(1)) throw mismatch("");
  // The item size: the digits after the kind letter.
  const bool one_byte = code.size() >= 2 && code.substr(1) == "1";
  const char order = found[0];
  if (order == '>' && !one_byte) {
    throw Error("dtype '" + std::string(found) + "' is big-endian; tilecheck reads little-endian data (" +
                std::string(what) + " has dtype '" + std::string(expected) +
                "'; in numpy: a.astype('<" + std::string(code) + "'))");
  }
  if (order == '=' && std::endian::native != std::endian::little && !one_byte) {
    throw Error("dtype '" + std::string(found) + "' is this host's byte order, which is not little-endian");
  }
}

}  // namespace tilecheck::files
