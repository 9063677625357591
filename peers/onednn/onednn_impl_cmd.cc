// tilecheck-onednn-impl: oneDNN's reorders as an implementation under
// test, speaking the JSON Lines protocol of docs/PROTOCOL.md:
//
//     tilecheck gate --impl-cmd tilecheck-onednn-impl
//
// It claims, layout by layout (the operation `claims`), what oneDNN's
// blocked memory descriptors can express (onednn_format), and answers
// byte_size with the descriptor's size, pack and unpack with a reorder
// between the dense array and the blocked descriptor, and relayout with a
// reorder between two blocked descriptors. oneDNN runs on one thread, with
// the ISA it picks for this CPU, or at most the one ONEDNN_MAX_CPU_ISA names.
// The answer to `start` gives oneDNN's version and that ISA.
#include <iostream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>
#include <oneapi/dnnl/dnnl.hpp>
#include <tilecheck/spec/syntax.h>

#include "conformance/jsonl_protocol.h"
#include "peers/onednn/onednn_layout.h"

namespace {

using nlohmann::json;
using tilecheck::ShapeWithLayout;
namespace jsonl = tilecheck::conformance::jsonl;
namespace peers = tilecheck::peers;

const char* isa_name(dnnl::cpu_isa isa) {
  switch (isa) {
    case dnnl::cpu_isa::sse41: return "SSE4.1";
    case dnnl::cpu_isa::avx: return "AVX";
    case dnnl::cpu_isa::avx2: return "AVX2";
    case dnnl::cpu_isa::avx2_vnni: return "AVX2_VNNI";
    case dnnl::cpu_isa::avx512_core: return "AVX512_CORE";
    case dnnl::cpu_isa::avx512_core_vnni: return "AVX512_CORE_VNNI";
    case dnnl::cpu_isa::avx512_core_bf16: return "AVX512_CORE_BF16";
    case dnnl::cpu_isa::avx512_core_amx: return "AVX512_CORE_AMX";
    default: return "other";
  }
}

std::string version() {
  const dnnl_version_t* v = dnnl_version();
  return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) + " (ISA " +
         isa_name(dnnl::get_effective_cpu_isa()) + ")";
}

ShapeWithLayout layout_of(const json& request, const char* key) {
  return tilecheck::parse_shape(request.at(key).at("text").get<std::string>());
}

peers::OneDnnFormat format_of(const ShapeWithLayout& shape) {
  auto format = peers::onednn_format(shape);
  if (const auto* why = std::get_if<std::string>(&format)) {
    throw std::runtime_error("oneDNN cannot express " + tilecheck::print_shape(shape) + ": " + *why);
  }
  return std::move(std::get<peers::OneDnnFormat>(format));
}

std::vector<uint8_t> bytes_of(const json& request, const char* key, size_t expected) {
  auto bytes = jsonl::base64_decode(request.at(key).get<std::string>());
  if (!bytes) throw std::runtime_error(std::string("\"") + key + "\" is not base64");
  if (bytes->size() != expected) {
    throw std::runtime_error(std::string("\"") + key + "\" holds " + std::to_string(bytes->size()) + " bytes, not " +
                  std::to_string(expected));
  }
  return std::move(*bytes);
}

json answer(const json& request) {
  const std::string op = request.at("op");
  if (op == "start") {
    return {{"protocol", jsonl::kProtocolVersion},
            {"name", "oneDNN reorder"},
            {"version", version()},
            {"capabilities",
             {{"operations", {"claims", "byte_size", "pack", "unpack", "relayout"}},
              {"element_types", {"f32", "s32", "bf16", "f16", "s8", "u8"}},
              {"features", {"sub_tiles", "element_size"}}}}};
  }
  const ShapeWithLayout shape = layout_of(request, "layout");
  if (op == "claims") {
    const auto format = peers::onednn_format(shape);
    if (const auto* why = std::get_if<std::string>(&format)) return {{"claimed", false}, {"message", *why}};
    return {{"claimed", true}};
  }
  const peers::OneDnnFormat format = format_of(shape);
  if (op == "byte_size") return {{"bytes", format.blocked.get_size()}};
  if (op == "pack") {
    const std::vector<uint8_t> dense = bytes_of(request, "dense", format.plain.get_size());
    std::vector<uint8_t> packed(format.blocked.get_size());
    peers::onednn_pack(format, dense, packed);
    return {{"packed", jsonl::base64_encode(packed)}};
  }
  if (op == "unpack") {
    const std::vector<uint8_t> packed = bytes_of(request, "packed", format.blocked.get_size());
    std::vector<uint8_t> dense(format.plain.get_size());
    peers::onednn_unpack(format, packed, dense);
    return {{"dense", jsonl::base64_encode(dense)}};
  }
  if (op == "relayout") {
    const peers::OneDnnFormat to = format_of(layout_of(request, "to"));
    const std::vector<uint8_t> packed = bytes_of(request, "packed", format.blocked.get_size());
    std::vector<uint8_t> out(to.blocked.get_size());
    peers::onednn_relayout(format, to, packed, out);
    return {{"packed", jsonl::base64_encode(out)}};
  }
  throw std::runtime_error("unknown operation '" + op + "'");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 1) {
    std::cerr << "usage: " << argv[0]
              << " (no arguments): speaks tilecheck's JSON Lines protocol on standard input and output;\n"
                 "run it as: tilecheck gate --impl-cmd "
              << argv[0] << "\n";
    return 2;
  }
  if (!peers::limit_onednn_to_one_thread()) std::cerr << "tilecheck-onednn-impl: oneDNN may use several threads\n";
  std::string line;
  while (std::getline(std::cin, line)) {
    json reply;
    json seq = nullptr;
    try {
      const json request = json::parse(line);
      seq = request.at("seq");
      reply = {{"result", answer(request)}};
    } catch (const std::exception& e) {  // a request it cannot answer, or oneDNN's error
      reply = {{"errored", {{"message", e.what()}}}};
    }
    reply["seq"] = seq;
    std::cout << reply.dump() << "\n" << std::flush;
  }
  return 0;
}
