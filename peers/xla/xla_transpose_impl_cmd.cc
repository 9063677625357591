// tilecheck-xla-transpose-impl: XLA's PJRT TransposePlan as an
// implementation under test, speaking the JSON Lines protocol of
// docs/PROTOCOL.md:
//
//     tilecheck gate --impl-cmd tilecheck-xla-transpose-impl
//
// It claims, layout by layout (the operation `claims`), what a plan's
// Tiling can express (xla_transpose_layout), and answers byte_size with the
// output size of the plan that packs the dense array (OutputNumElems), pack
// and unpack with one plan between the dense array and the layout's buffer,
// and relayout with one plan between the two buffers (two when both are
// tiled, which one plan refuses). Plans run on one thread (num_threads 1, no
// scheduler). An untiled input buffer is given to a plan as byte strides,
// as PJRT passes a host buffer, or, with TILECHECK_XLA_UNTILED_INPUT=tiling
// in the environment, as an empty Tiling: the two take different paths
// through plan creation. The answer to `start` gives the XLA revision it was
// built from, and that choice.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include <tilecheck/spec/model.h>

#include "peers/command/peer_command.h"
#include "peers/xla/xla_transpose_layout.h"

#ifndef TILECHECK_XLA_REVISION
#define TILECHECK_XLA_REVISION "unknown revision"
#endif

namespace {

namespace peers = tilecheck::peers;
using tilecheck::ShapeWithLayout;

// The buffer of a layout the gate sends: claimed, so TransposePlan expresses it.
peers::XlaTransposeLayout layout_of(const ShapeWithLayout& shape) {
  return std::get<peers::XlaTransposeLayout>(peers::xla_transpose_layout(shape));
}

// What a plan can move: every type whose elements are whole bytes, 1 to 16
// of them. Sub-byte types are left out (their elements share bytes).
std::vector<std::string> element_types() {
  std::vector<std::string> names;
  for (const tilecheck::ElementType type : tilecheck::all_element_types()) {
    if (tilecheck::is_sub_byte(type)) continue;
    const int bits = type == tilecheck::ElementType::kPred ? 8 : tilecheck::natural_bit_width(type);
    if (bits % 8 == 0 && bits / 8 <= 16) names.emplace_back(tilecheck::element_type_name(type));
  }
  return names;
}

// `in`, a buffer of `from` (the request's field `what`), moved by
// TransposePlan into a new buffer of `to`: what pack, unpack and relayout
// each are.
peers::Bytes transposed(const peers::XlaTransposeLayout& from, const peers::XlaTransposeLayout& to,
                        std::span<const uint8_t> in, const char* what) {
  peers::require_size(what, in, peers::xla_transpose_buffer_bytes(from));
  peers::Bytes out(peers::xla_transpose_buffer_bytes(to));
  peers::xla_transpose(from, to, in, out);
  return out;
}

peers::PeerOperations xla_transpose_operations() {
  peers::PeerOperations ops;
  ops.name = "XLA TransposePlan";
  ops.version = TILECHECK_XLA_REVISION;
  const char* input = std::getenv("TILECHECK_XLA_UNTILED_INPUT");
  if (input != nullptr && std::strcmp(input, "tiling") == 0) {
    peers::set_xla_transpose_untiled_input(peers::UntiledInput::kTiling);
    ops.version += " (untiled input as Tiling)";
  } else {
    ops.version += " (untiled input as Striding)";
  }
  ops.element_types = element_types();
  // E(n) of a whole number of bytes is an element size a plan takes; the
  // other forms (sub-tiles, combined dims, L(n)) it cannot express.
  ops.features = {"element_size"};
  ops.unclaimed = [](const ShapeWithLayout& shape) -> std::optional<std::string> {
    auto layout = peers::xla_transpose_layout(shape);
    if (const auto* why = std::get_if<std::string>(&layout)) return *why;
    return std::nullopt;
  };
  ops.byte_size = [](const ShapeWithLayout& shape) {
    return peers::xla_transpose_byte_size(peers::xla_transpose_dense(shape), layout_of(shape));
  };
  ops.pack = [](const ShapeWithLayout& shape, std::span<const uint8_t> dense) {
    return transposed(peers::xla_transpose_dense(shape), layout_of(shape), dense, "\"dense\"");
  };
  ops.unpack = [](const ShapeWithLayout& shape, std::span<const uint8_t> physical) {
    return transposed(layout_of(shape), peers::xla_transpose_dense(shape), physical, "\"packed\"");
  };
  ops.relayout = [](const ShapeWithLayout& from, const ShapeWithLayout& to, std::span<const uint8_t> physical) {
    return transposed(layout_of(from), layout_of(to), physical, "\"packed\"");
  };
  return ops;
}

}  // namespace

int main(int argc, char** argv) { return tilecheck::peers::peer_main(argc, argv, xla_transpose_operations); }
