#include "conformance/jsonl_protocol.h"

#include <algorithm>
#include <array>
#include <limits>

#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance::jsonl {

nlohmann::json layout_fields(const ShapeWithLayout& shape) {
  nlohmann::json tiles = nlohmann::json::array();
  for (const Tile& tile : shape.layout.tiles) {
    nlohmann::json entries = nlohmann::json::array();
    for (int64_t e : tile.dims) {
      if (e == kCombineDim) {
        entries.push_back("*");
      } else {
        entries.push_back(e);
      }
    }
    tiles.push_back(entries);
  }
  const Layout& l = shape.layout;
  return {{"text", print_shape(shape)},
          {"element_type", std::string(element_type_name(shape.type))},
          {"element_bits", shape.element_bits()},
          {"dims", shape.dims},
          {"dynamic_dims", shape.dynamic_dims},
          {"minor_to_major", l.minor_to_major},
          {"tiles", tiles},
          {"element_size_bits",
           l.element_size_bits ? nlohmann::json(*l.element_size_bits) : nlohmann::json(nullptr)},
          {"tail_padding_alignment", l.tail_padding_alignment.value_or(1)},
          {"memory_space", l.memory_space.value_or(0)}};
}

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64_encode(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    for (int s : {18, 12, 6, 0}) out += kAlphabet[(v >> s) & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = uint32_t{bytes[i]} << 16;
    if (rest == 2) v |= uint32_t{bytes[i + 1]} << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::vector<uint8_t>> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
    std::array<int, 4> s{};
    for (int k = 0; k < 4 - pad; ++k) {
      s[k] = sextet(text[i + k]);
      if (s[k] < 0) return std::nullopt;
    }
    const uint32_t v = (uint32_t(s[0]) << 18) | (uint32_t(s[1]) << 12) | (uint32_t(s[2]) << 6) |
                       uint32_t(s[3]);
    // Canonical: the bits a padded group drops must be zero.
    if ((pad == 1 && (v & 0xFF) != 0) || (pad == 2 && (v & 0xFFFF) != 0)) return std::nullopt;
    out.push_back(static_cast<uint8_t>(v >> 16));
    if (pad < 2) out.push_back(static_cast<uint8_t>(v >> 8));
    if (pad < 1) out.push_back(static_cast<uint8_t>(v));
  }
  return out;
}

namespace {

Reply broken(std::string why) { return {Reply::Kind::kBroken, nullptr, std::move(why)}; }

// The `message` of a skipped or errored reply, which must be an object.
std::optional<std::string> message_of(const nlohmann::json& body) {
  if (!body.is_object()) return std::nullopt;
  const auto m = body.find("message");
  if (m == body.end() || !m->is_string()) return std::nullopt;
  return m->get<std::string>();
}

std::string shortened(std::string_view line) {
  constexpr size_t kShown = 120;
  std::string out(line.substr(0, kShown));
  // Only printable ASCII goes into a report line.
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  }
  return line.size() > kShown ? out + "..." : out;
}

void append_value(std::string& out, const nlohmann::json& value, int depth) {
  constexpr size_t kEnough = 121;  // shortened() cuts at 120
  constexpr int kDeepest = 4;
  if (out.size() >= kEnough) return;
  if (value.is_array() || value.is_object()) {
    const bool array = value.is_array();
    if (depth >= kDeepest) {
      out += array ? "[...]" : "{...}";
      return;
    }
    out += array ? '[' : '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end() && out.size() < kEnough; ++it) {
      if (!first) out += ',';
      first = false;
      if (!array) out += nlohmann::json(it.key()).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace) + ':';
      append_value(out, *it, depth + 1);
    }
    out += array ? ']' : '}';
    return;
  }
  out += value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::optional<int64_t> as_int64(const nlohmann::json& value) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (value.is_number_integer()) return value.get<int64_t>();
  return std::nullopt;
}

std::string shown_value(const nlohmann::json& value) {
  std::string out;
  append_value(out, value, 0);
  return shortened(out);
}

Reply read_reply(std::string_view line, int64_t seq) {
  nlohmann::json j;
  // nlohmann-json parses and frees without recursion, but copies and prints
  // a value recursively: a reply nested deeper than any answer needs is
  // refused while it is read.
  struct TooDeep {};
  const auto bounded = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth >= kMaxReplyNesting) throw TooDeep{};  // the reply object is depth 0, level 1
    return true;
  };
  try {
    j = nlohmann::json::parse(line, bounded);
  } catch (const TooDeep&) {
    return broken("answered JSON nested more than " + std::to_string(kMaxReplyNesting) +
                  " levels deep: " + shortened(line));
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's message ends with the reason after " - ", e.g. "invalid
    // string: ill-formed UTF-8 byte".
    const std::string what = e.what();
    const size_t dash = what.rfind(" - ");
    const std::string reason = dash == std::string::npos ? what : what.substr(dash + 3);
    return broken("answered a line that is not JSON (" + shortened(reason) +
                  "): " + shortened(line));
  }
  if (!j.is_object()) return broken("answered JSON that is not an object: " + shortened(line));
  const auto s = j.find("seq");
  if (s == j.end() || !s->is_number_integer()) {
    return broken("answered without an integer \"seq\": " + shortened(line));
  }
  if (as_int64(*s) != seq) {
    return broken("answered seq " + shown_value(*s) + " to the request with seq " +
                  std::to_string(seq));
  }
  const int kinds = static_cast<int>(j.contains("result")) +
                    static_cast<int>(j.contains("skipped")) +
                    static_cast<int>(j.contains("errored"));
  if (kinds != 1) {
    return broken("a reply holds exactly one of \"result\", \"skipped\" and \"errored\": " +
                  shortened(line));
  }
  if (j.contains("result")) return {Reply::Kind::kResult, j["result"], ""};
  const bool skipped = j.contains("skipped");
  const std::optional<std::string> message = message_of(j[skipped ? "skipped" : "errored"]);
  if (!message) {
    return broken(std::string("\"") + (skipped ? "skipped" : "errored") +
                  "\" must be an object with a string \"message\": " + shortened(line));
  }
  return {skipped ? Reply::Kind::kSkipped : Reply::Kind::kErrored, nullptr, *message};
}

namespace {

std::vector<std::string> string_list(const nlohmann::json& result, const char* key,
                                     bool required) {
  const auto it = result.find(key);
  if (it == result.end()) {
    if (required) throw Error(std::string("the answer to start has no \"") + key + "\"");
    return {};
  }
  if (!it->is_array()) throw Error(std::string("\"") + key + "\" must be a list of strings");
  std::vector<std::string> out;
  for (const nlohmann::json& e : *it) {
    if (!e.is_string()) throw Error(std::string("\"") + key + "\" must be a list of strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

void require_known(const std::vector<std::string>& names, const std::vector<std::string>& known,
                   const char* what) {
  for (const std::string& n : names) {
    if (std::find(known.begin(), known.end(), n) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw Error(std::string("unknown ") + what + " '" + n + "' (protocol " +
                  std::to_string(kProtocolVersion) + " knows " + list + ")");
    }
  }
}

}  // namespace

Capabilities read_capabilities(const nlohmann::json& result) {
  if (!result.is_object()) throw Error("the answer to start must be an object");
  const auto version = result.find("protocol");
  if (version == result.end() || as_int64(*version) != kProtocolVersion) {
    throw Error("the answer to start must say \"protocol\": " + std::to_string(kProtocolVersion) +
                " (the version tilecheck speaks)");
  }
  Capabilities c;
  for (auto [key, field] : {std::pair{"name", &c.name}, std::pair{"version", &c.version}}) {
    const auto it = result.find(key);
    if (it == result.end() || !it->is_string()) {
      throw Error(std::string("the answer to start must give \"") + key + "\" as a string");
    }
    *field = it->get<std::string>();
  }
  const auto caps = result.find("capabilities");
  if (caps == result.end() || !caps->is_object()) {
    throw Error("the answer to start must give \"capabilities\" as an object");
  }
  c.operations = string_list(*caps, "operations", true);
  require_known(c.operations, all_operations(), "operation");
  if (caps->contains("element_types")) {
    std::vector<ElementType> types;
    for (const std::string& name : string_list(*caps, "element_types", false)) {
      const std::optional<ElementType> t = element_type_from_name(name);
      if (!t) throw Error("unknown element type '" + name + "' in \"element_types\"");
      types.push_back(*t);
    }
    c.element_types = types;
  }
  if (caps->contains("features")) {
    c.features = string_list(*caps, "features", false);
    require_known(*c.features, all_features(), "feature");
  }
  return c;
}

std::optional<Claim> read_claim(const nlohmann::json& result) {
  if (!result.is_object()) return std::nullopt;
  const auto claimed = result.find("claimed");
  if (claimed == result.end() || !claimed->is_boolean()) return std::nullopt;
  Claim c{claimed->get<bool>(), ""};
  if (const auto message = result.find("message"); message != result.end()) {
    if (!message->is_string()) return std::nullopt;
    c.message = message->get<std::string>();
  }
  return c;
}

std::vector<std::string> features_of(const ShapeWithLayout& shape) {
  std::vector<std::string> out;
  const Layout& l = shape.layout;
  if (l.tiles.size() > 1) out.push_back("sub_tiles");
  const bool combined = std::any_of(l.tiles.begin(), l.tiles.end(), [](const Tile& t) {
    return std::find(t.dims.begin(), t.dims.end(), kCombineDim) != t.dims.end();
  });
  if (combined) out.push_back("combined_dims");
  if (l.element_size_bits) out.push_back("element_size");
  if (l.tail_padding_alignment.value_or(1) != 1) out.push_back("tail_padding");
  return out;
}

}  // namespace tilecheck::conformance::jsonl
