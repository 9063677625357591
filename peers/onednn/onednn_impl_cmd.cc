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
#include <string>

#include <oneapi/dnnl/dnnl.hpp>

#include "peers/command/peer_command.h"
#include "peers/onednn/onednn_layout.h"

namespace {

namespace peers = tilecheck::peers;
using tilecheck::ShapeWithLayout;

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

// The format of a layout the gate sends: claimed, so oneDNN expresses it.
peers::OneDnnFormat format_of(const ShapeWithLayout& shape) {
  return std::get<peers::OneDnnFormat>(peers::onednn_format(shape));
}

// `in`, a buffer of `from` (the request's field `what`), reordered by
// oneDNN into a new buffer of `to`: what pack, unpack and relayout each are.
peers::Bytes reordered(const dnnl::memory::desc& from, const dnnl::memory::desc& to, std::span<const uint8_t> in,
                       const char* what) {
  peers::require_size(what, in, from.get_size());
  peers::Bytes out(to.get_size());
  peers::onednn_reorder(from, to, in, out);
  return out;
}

peers::PeerOperations onednn_operations() {
  if (!peers::limit_onednn_to_one_thread()) std::cerr << "tilecheck-onednn-impl: oneDNN may use several threads\n";
  peers::PeerOperations ops;
  const dnnl_version_t* v = dnnl_version();
  ops.name = "oneDNN reorder";
  ops.version = std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
                " (ISA " + isa_name(dnnl::get_effective_cpu_isa()) + ")";
  ops.element_types = {"f32", "s32", "bf16", "f16", "s8", "u8"};
  ops.features = {"sub_tiles", "element_size"};
  ops.unclaimed = [](const ShapeWithLayout& shape) -> std::optional<std::string> {
    auto format = peers::onednn_format(shape);
    if (const auto* why = std::get_if<std::string>(&format)) return *why;
    return std::nullopt;
  };
  ops.byte_size = [](const ShapeWithLayout& shape) { return static_cast<int64_t>(format_of(shape).blocked.get_size()); };
  ops.pack = [](const ShapeWithLayout& shape, std::span<const uint8_t> dense) {
    const peers::OneDnnFormat f = format_of(shape);
    return reordered(f.plain, f.blocked, dense, "\"dense\"");
  };
  ops.unpack = [](const ShapeWithLayout& shape, std::span<const uint8_t> physical) {
    const peers::OneDnnFormat f = format_of(shape);
    return reordered(f.blocked, f.plain, physical, "\"packed\"");
  };
  ops.relayout = [](const ShapeWithLayout& from, const ShapeWithLayout& to, std::span<const uint8_t> physical) {
    return reordered(format_of(from).blocked, format_of(to).blocked, physical, "\"packed\"");
  };
  return ops;
}

}  // namespace

int main(int argc, char** argv) { return tilecheck::peers::peer_main(argc, argv, onednn_operations); }
