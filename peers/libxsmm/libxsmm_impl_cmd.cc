// tilecheck-libxsmm-impl: libxsmm's layout functions as an implementation
// under test, speaking the JSON Lines protocol of docs/PROTOCOL.md:
//
//     tilecheck gate --impl-cmd tilecheck-libxsmm-impl
//
// It claims, layout by layout, what libxsmm lays out (libxsmm_format:
// rank-2 transposes and copies, blocked rank-4 activations), and answers
// byte_size, pack and unpack with libxsmm's own functions. No relayout.
#include <string>

#include <tilecheck/spec/semantics.h>

#include "peers/command/peer_command.h"
#include "peers/libxsmm/libxsmm_layout.h"

namespace {

namespace peers = tilecheck::peers;
using tilecheck::ShapeWithLayout;

// The format of a layout the gate sends: claimed, so libxsmm lays it out.
peers::LibxsmmFormat format_of(const ShapeWithLayout& shape) {
  return std::get<peers::LibxsmmFormat>(peers::libxsmm_format(shape));
}

peers::PeerOperations libxsmm_operations() {
  peers::PeerOperations ops;
  ops.name = "libxsmm";
  ops.version = peers::libxsmm_version();
  ops.element_types = {"pred", "s8", "u8", "s16", "u16", "f16", "bf16", "s32", "u32", "f32", "s64", "u64", "f64",
                       "c64", "c128", "f8e4m3fn", "f8e5m2"};
  ops.features = {};
  ops.unclaimed = [](const ShapeWithLayout& shape) -> std::optional<std::string> {
    auto format = peers::libxsmm_format(shape);
    if (const auto* why = std::get_if<std::string>(&format)) return *why;
    return std::nullopt;
  };
  ops.byte_size = [](const ShapeWithLayout& shape) { return peers::libxsmm_byte_size(format_of(shape)); };
  ops.pack = [](const ShapeWithLayout& shape, std::span<const uint8_t> dense) {
    const peers::LibxsmmFormat f = format_of(shape);
    peers::require_size("\"dense\"", dense, static_cast<size_t>(tilecheck::spec::dense_byte_size(shape)));
    peers::Bytes physical(static_cast<size_t>(peers::libxsmm_byte_size(f)));
    peers::libxsmm_pack(f, dense, physical);
    return physical;
  };
  ops.unpack = [](const ShapeWithLayout& shape, std::span<const uint8_t> physical) {
    const peers::LibxsmmFormat f = format_of(shape);
    peers::require_size("\"packed\"", physical, static_cast<size_t>(peers::libxsmm_byte_size(f)));
    peers::Bytes dense(static_cast<size_t>(tilecheck::spec::dense_byte_size(shape)));
    peers::libxsmm_unpack(f, physical, dense);
    return dense;
  };
  return ops;
}

}  // namespace

int main(int argc, char** argv) { return tilecheck::peers::peer_main(argc, argv, libxsmm_operations); }
