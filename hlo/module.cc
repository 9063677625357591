#include "hlo/module.h"

#include <cctype>
#include <sstream>

#include <tilecheck/spec/syntax.h>

namespace tilecheck::hlo {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string strip_percent(std::string_view name) {
  name = trim(name);
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  return std::string(name);
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
         c == '%';
}

// The text of a line, or a name, shown in a warning: at most 100
// printable characters (shown_text).
std::string shown(std::string_view line) { return shown_text(trim(line), 100); }

// The operands between the parentheses that open at `open`: split at commas
// outside any bracket; each operand's last name-like word ("%x" of
// "f32[8]{0} %x"). Returns false when the parentheses do not close.
bool read_operands(std::string_view text, size_t open, std::vector<std::string>& out) {
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    const bool end = depth == 0 && c == ')';
    if ((depth == 1 && c == ',') || end) {
      std::string_view operand = trim(text.substr(start, i - start));
      size_t word = operand.size();
      while (word > 0 && is_name_char(operand[word - 1])) --word;
      if (!operand.empty()) out.push_back(strip_percent(operand.substr(word)));
      start = i + 1;
      if (end) return true;
    }
  }
  return false;
}

class Reader {
 public:
  void line(std::string_view raw) {
    ++module_.lines;
    std::string_view text = trim(raw);
    if (const size_t comment = text.find("//"); comment != std::string_view::npos &&
                                                 text.find('"') == std::string_view::npos) {
      text = trim(text.substr(0, comment));
    }
    if (text.empty()) return;
    if (starts_with(text, "HloModule")) {
      std::string_view rest = trim(text.substr(9));
      size_t end = 0;
      while (end < rest.size() && rest[end] != ',' && !std::isspace(static_cast<unsigned char>(rest[end]))) ++end;
      module_.name = std::string(rest.substr(0, end));
      return;
    }
    if (text == "}") {
      computation_.clear();
      return;
    }
    const size_t equals = text.find(" = ");
    const size_t paren = text.find('(');
    if (text.back() == '{' && (equals == std::string_view::npos || paren < equals)) {
      header(text);
      return;
    }
    if (equals != std::string_view::npos) {
      instruction(text, equals);
      return;
    }
    warn("not an HLO instruction or computation: '" + shown(text) + "'");
  }

  Module take() { return std::move(module_); }

 private:
  void header(std::string_view text) {
    if (starts_with(text, "ENTRY")) text = trim(text.substr(5));
    size_t end = 0;
    while (end < text.size() && is_name_char(text[end])) ++end;
    computation_ = strip_percent(text.substr(0, end));
    if (computation_.empty()) {
      warn("a computation without a name: '" + shown(text) + "'");
      computation_.assign(1, '?');
    }
    module_.computations.push_back(computation_);
  }

  void instruction(std::string_view text, size_t equals) {
    Instruction in;
    in.line = module_.lines;
    in.computation = computation_;
    std::string_view lhs = trim(text.substr(0, equals));
    if (starts_with(lhs, "ROOT ")) {
      in.root = true;
      lhs = trim(lhs.substr(5));
    }
    in.name = strip_percent(lhs);
    const std::string_view rhs = text.substr(equals + 3);
    size_t end = 0;
    try {
      in.shape = parse_shape_prefix(rhs, end);
    } catch (const Error& e) {
      warn("the shape of '" + shown(in.name) + "' is not read: " + e.what());
      return;
    }
    std::string_view rest = trim(rhs.substr(end));
    size_t op_end = 0;
    while (op_end < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[op_end])) ||
                                    rest[op_end] == '-' || rest[op_end] == '_')) {
      ++op_end;
    }
    in.opcode = std::string(rest.substr(0, op_end));
    if (in.opcode.empty() || op_end >= rest.size() || rest[op_end] != '(') {
      warn("'" + shown(in.name) + "' has no opcode with operands: '" + shown(text) + "'");
      return;
    }
    if (!read_operands(rest, op_end, in.operands)) {
      warn("the operands of '" + shown(in.name) + "' are not closed: '" + shown(text) + "'");
      return;
    }
    module_.instructions.push_back(std::move(in));
  }

  void warn(std::string message) { module_.warnings.push_back({module_.lines, std::move(message)}); }

  Module module_;
  std::string computation_;
};

}  // namespace

Module read_module(std::istream& in, const std::function<void(int64_t lines)>& progress) {
  Reader reader;
  std::string line;
  int64_t n = 0;
  while (std::getline(in, line)) {
    reader.line(line);
    if (progress && ++n % 10000 == 0) progress(n);
  }
  return reader.take();
}

Module read_module_text(std::string_view text) {
  std::istringstream in{std::string(text)};
  return read_module(in);
}

}  // namespace tilecheck::hlo
