// The example implementation (example_impl.h) as a program speaking the JSON
// Lines protocol of docs/PROTOCOL.md, for
//
//     tilecheck gate --impl-cmd 'tilecheck_example_impl_cmd'
//
// One request per line on standard input, one reply per line on standard
// output; nothing else is written there. It reads each layout from the
// request's "text" with tilecheck's parser; `parse` answers whether a text
// is a layout (the parser's structural checks, and sizes that fit int64).
//
// `--bug NAME` makes it wrong on purpose (example_impl.h lists the names).
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>
#include <tilecheck/spec/syntax.h>

#include "example_impl.h"

namespace {

using nlohmann::json;
using tilecheck::ShapeWithLayout;
using tilecheck_example::Bug;
using tilecheck_example::ExampleImpl;

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(const std::vector<uint8_t>& in) {
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    const uint32_t n = (uint32_t{in[i]} << 16) | (i + 1 < in.size() ? uint32_t{in[i + 1]} << 8 : 0) |
                       (i + 2 < in.size() ? uint32_t{in[i + 2]} : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}

std::vector<uint8_t> base64_decode(const std::string& in) {
  std::vector<uint8_t> out;
  uint32_t n = 0;
  int bits = 0;
  for (char ch : in) {
    if (ch == '=') break;
    const char* at = std::strchr(kAlphabet, ch);
    if (at == nullptr || ch == '\0') throw tilecheck_example::Unsupported("not base64");
    n = (n << 6) | static_cast<uint32_t>(at - kAlphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>(n >> bits));
    }
  }
  return out;
}

// Whether `text` is a layout: it parses, it has no unbounded dim '?' (which
// has no buffer), and its sizes fit in int64.
json parse_result(const ExampleImpl& impl, const std::string& text) {
  try {
    const ShapeWithLayout s = tilecheck::parse_shape(text);
    if (s.has_symbolic_dims()) return {{"valid", false}, {"message", "an unbounded dim '?' has no size"}};
    impl.byte_size(s);
    return {{"valid", true}};
  } catch (const std::exception& e) {
    return {{"valid", false}, {"message", e.what()}};
  }
}

json answer(ExampleImpl& impl, const std::string& name, const json& request) {
  const std::string op = request.at("op");
  if (op == "start") {
    return {{"result",
             {{"protocol", 1},
              {"name", name},
              {"version", "1.0"},
              {"capabilities",
               {{"operations", {"byte_size", "linear_index", "delinearize", "pack", "unpack",
                                "relayout", "parse"}}}}}}};
  }
  if (op == "parse") return {{"result", parse_result(impl, request.at("text"))}};
  const ShapeWithLayout s = tilecheck::parse_shape(request.at("layout").at("text").get<std::string>());
  if (op == "byte_size") return {{"result", {{"bytes", impl.byte_size(s)}}}};
  if (op == "linear_index") {
    json indices = json::array();
    for (const json& e : request.at("elements")) {
      const std::vector<int64_t> element = e.get<std::vector<int64_t>>();
      if (static_cast<int64_t>(element.size()) != s.rank()) throw tilecheck_example::Unsupported("wrong rank");
      indices.push_back(impl.linear_index(s, element.data()));
    }
    return {{"result", {{"indices", indices}}}};
  }
  if (op == "delinearize") {
    json elements = json::array();
    for (const json& p : request.at("positions")) {
      const auto e = impl.delinearize(s, p.get<int64_t>());
      elements.push_back(e ? json(*e) : json(nullptr));
    }
    return {{"result", {{"elements", elements}}}};
  }
  if (op == "pack" || op == "unpack") {
    const std::vector<uint8_t> in = base64_decode(request.at(op == "pack" ? "dense" : "packed"));
    const std::vector<uint8_t> out =
        op == "pack" ? impl.pack(s, in.data(), in.size()) : impl.unpack(s, in.data(), in.size());
    return {{"result", {{op == "pack" ? "packed" : "dense", base64_encode(out)}}}};
  }
  if (op == "relayout") {
    const ShapeWithLayout to = tilecheck::parse_shape(request.at("to").at("text").get<std::string>());
    const std::vector<uint8_t> in = base64_decode(request.at("packed"));
    return {{"result", {{"packed", base64_encode(impl.relayout(s, to, in.data(), in.size()))}}}};
  }
  return {{"errored", {{"message", "unknown operation '" + op + "'"}}}};
}

}  // namespace

int main(int argc, char** argv) {
  Bug bug = Bug::kNone;
  std::string name = "tilecheck_example_impl_cmd";
  if (argc == 3 && std::string(argv[1]) == "--bug" && tilecheck_example::bug_names().count(argv[2])) {
    bug = tilecheck_example::bug_names().at(argv[2]);
    name += std::string(" --bug ") + argv[2];
  } else if (argc != 1) {
    std::cerr << "usage: " << argv[0] << " [--bug NAME]; NAME one of:";
    for (const auto& [bug_name, value] : tilecheck_example::bug_names()) std::cerr << " " << bug_name;
    std::cerr << "\n";
    return 2;
  }
  ExampleImpl impl(bug);
  std::string line;
  while (std::getline(std::cin, line)) {
    json reply;
    json seq = nullptr;
    try {
      const json request = json::parse(line);
      seq = request.at("seq");
      reply = answer(impl, name, request);
    } catch (const tilecheck_example::Unsupported& e) {
      reply = {{"skipped", {{"message", e.what()}}}};
    } catch (const std::exception& e) {  // a bug of ours: say so
      reply = {{"errored", {{"message", e.what()}}}};
    }
    reply["seq"] = seq;
    std::cout << reply.dump() << "\n" << std::flush;
  }
  return 0;
}
