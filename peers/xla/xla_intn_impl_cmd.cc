// tilecheck-xla-intn-impl: XLA's packing of sub-byte integers for host
// transfers -- PackIntN and UnpackIntN of xla/util.h (PackInt4 and
// UnpackInt4 of xla/util.cc before 2024-04), which the transfer managers
// and PJRT's clients call through primitive_util -- as an implementation
// under test, speaking the JSON Lines protocol of docs/PROTOCOL.md:
//
//     tilecheck gate --impl-cmd tilecheck-xla-intn-impl
//
// Those functions pack a dense sequence of sub-byte values, one per byte in
// its low bits, into bytes that each hold as many as fit, and back. So it
// claims the layouts whose buffer is exactly that: an integer type of 1, 2
// or 4 bits (as the XLA at hand has functions for), at its own width (no
// E(n), or E(n) equal to it), untiled, in row-major order, with nothing
// else in the layout. pack calls PackIntN by bit width into a buffer of
// ceil(n * bits / 8) bytes, as XLA's transfer managers size it; unpack
// calls UnpackIntN by bit width, and widens each value to the protocol's
// dense byte (sign-extended for a signed type: UnpackIntN leaves the high
// bits zero, as documented). With TILECHECK_XLA_INTN_API=new_buffer in the
// environment, pack and unpack call instead the overloads that return a
// new buffer (since 2025-03-31), whose size they choose themselves
// (by_bit_width, the default, names the first). byte_size
// and relayout are not offered: these functions have neither.
//
// The functions are XLA's own code, taken from the checkout when the build
// is configured (peers/xla/extract_intn.py); the answer to `start` gives
// the XLA revision and the overload.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>
#include <tilecheck/spec/semantics.h>

#include "peers/command/peer_command.h"
#include "xla/util.h"  // XLA's PackIntN and UnpackIntN, through the shim (xla_intn.h)

#ifndef TILECHECK_XLA_REVISION
#define TILECHECK_XLA_REVISION "unknown revision"
#endif

namespace {

namespace peers = tilecheck::peers;
using tilecheck::ElementType;
using tilecheck::ShapeWithLayout;

bool new_buffer = false;  // TILECHECK_XLA_INTN_API=new_buffer

// The bit widths the XLA at hand packs: 4 only (PackInt4), or what
// PackIntN's templates take (1 to 7 bits; the integer types of 1, 2 and 4).
bool packs(int bits) {
#if defined(TILECHECK_XLA_PACK_INTN)
  return bits == 1 || bits == 2 || bits == 4;
#else
  return bits == 4;
#endif
}

std::vector<std::string> element_types() {
  std::vector<std::string> names;
  for (const ElementType type : tilecheck::all_element_types()) {
    if (tilecheck::is_integral(type) && packs(tilecheck::natural_bit_width(type))) {
      names.emplace_back(tilecheck::element_type_name(type));
    }
  }
  return names;
}

std::optional<std::string> unclaimed(const ShapeWithLayout& shape) {
  const tilecheck::Layout& l = shape.layout;
  const int bits = tilecheck::natural_bit_width(shape.type);
  if (!tilecheck::is_integral(shape.type) || !packs(bits)) {
    return "a " + std::string(tilecheck::element_type_name(shape.type)) +
           " element: the XLA at hand packs integers of " + std::string(packs(1) ? "1, 2 and 4" : "4") + " bits";
  }
  if (shape.element_bits() != bits) return std::string("E(n) other than the type's width: elements are not packed");
  if (!l.tiles.empty()) return std::string("a tile: PackIntN packs a dense sequence");
  for (size_t i = 0; i < l.minor_to_major.size(); ++i) {
    if (l.minor_to_major[i] != static_cast<int64_t>(l.minor_to_major.size() - 1 - i)) {
      return std::string("not row-major: PackIntN packs the elements in the order it is given them");
    }
  }
  if (shape.has_symbolic_dims() || !shape.dynamic_dims.empty()) return std::string("a dim that is not static");
  if (l.tail_padding_alignment || !l.split_configs.empty() || l.physical_shape || l.index_type || l.pointer_type ||
      l.metadata_prefix_bytes) {
    return std::string("L(n), SC, P, #, * or M in the layout: more than a packed sequence");
  }
  return std::nullopt;
}

// The bytes of n packed values of `bits` each, as XLA's transfer managers
// size a packed buffer (CeilOfRatio of the count by the values per byte).
size_t packed_bytes(size_t n, int bits) { return (n * bits + 7) / 8; }

peers::Bytes pack(const ShapeWithLayout& shape, std::span<const uint8_t> dense) {
  // The protocol's dense array: one byte per value (spec::dense_byte_size).
  const size_t n = static_cast<size_t>(tilecheck::spec::dense_byte_size(shape));
  const int bits = tilecheck::natural_bit_width(shape.type);
  peers::require_size("\"dense\"", dense, n);
  const char* in = reinterpret_cast<const char*>(dense.data());
#if defined(TILECHECK_XLA_PACK_INTN_NEW_BUFFER)
  if (new_buffer) {
    // The overload sizes its buffer itself; the reply is that buffer,
    // of the size the function gives: size * bits / 8.
    std::unique_ptr<char[]> packed = xla::PackIntN(bits, in, n);
    const size_t size = n * bits / 8;
    return peers::Bytes(packed.get(), packed.get() + size);
  }
#endif
  // As XLA's transfer managers size the packed buffer.
  peers::Bytes out(packed_bytes(n, bits));
  char* o = reinterpret_cast<char*>(out.data());
#if defined(TILECHECK_XLA_PACK_INTN)
  xla::PackIntN(bits, absl::MakeConstSpan(in, n), absl::MakeSpan(o, out.size()));
#else
  xla::PackInt4(absl::MakeConstSpan(in, n), absl::MakeSpan(o, out.size()));
#endif
  return out;
}

peers::Bytes unpack(const ShapeWithLayout& shape, std::span<const uint8_t> physical) {
  const size_t n = static_cast<size_t>(tilecheck::spec::dense_byte_size(shape));
  const int bits = tilecheck::natural_bit_width(shape.type);
  peers::require_size("\"packed\"", physical, packed_bytes(n, bits));
  const char* in = reinterpret_cast<const char*>(physical.data());
  peers::Bytes out(n);
  char* o = reinterpret_cast<char*>(out.data());
#if defined(TILECHECK_XLA_PACK_INTN_NEW_BUFFER)
  if (new_buffer) {
    // Unpacks every value the bytes hold, size * 8 / bits of them: the
    // array's are the first n.
    std::unique_ptr<char[]> unpacked = xla::UnpackIntN(bits, in, physical.size());
    std::copy(unpacked.get(), unpacked.get() + n, o);
  } else
#endif
  {
#if defined(TILECHECK_XLA_PACK_INTN)
    xla::UnpackIntN(bits, absl::MakeConstSpan(in, physical.size()), absl::MakeSpan(o, n));
#else
    xla::UnpackInt4(absl::MakeConstSpan(in, physical.size()), absl::MakeSpan(o, n));
#endif
  }
  // The protocol's dense byte holds a signed value sign-extended.
  if (tilecheck::is_signed_integral(shape.type)) {
    for (uint8_t& v : out) {
      if (v >> (bits - 1) & 1) v |= static_cast<uint8_t>(0xff << bits);
    }
  }
  return out;
}

peers::PeerOperations xla_intn_operations() {
  peers::PeerOperations ops;
  ops.name = "XLA sub-byte packing";
  ops.version = TILECHECK_XLA_REVISION;
#if defined(TILECHECK_XLA_PACK_INTN)
  ops.version += new_buffer ? " (PackIntN into a new buffer)" : " (PackIntN by bit width)";
#else
  ops.version += " (PackInt4)";
#endif
  ops.element_types = element_types();
  ops.features = {"element_size"};
  ops.unclaimed = unclaimed;
  ops.pack = pack;
  ops.unpack = unpack;
  return ops;
}

}  // namespace

int main(int argc, char** argv) {
  const char* api = std::getenv("TILECHECK_XLA_INTN_API");
  if (api != nullptr && std::strcmp(api, "new_buffer") != 0 && std::strcmp(api, "by_bit_width") != 0) {
    std::fprintf(stderr, "tilecheck-xla-intn-impl: TILECHECK_XLA_INTN_API is 'by_bit_width' or 'new_buffer', not '%s'\n",
                 api);
    return 2;
  }
  new_buffer = api != nullptr && std::strcmp(api, "new_buffer") == 0;
#if !defined(TILECHECK_XLA_PACK_INTN_NEW_BUFFER)
  if (new_buffer) {
    std::fprintf(stderr,
                 "tilecheck-xla-intn-impl: TILECHECK_XLA_INTN_API=new_buffer: this XLA (%s) has no PackIntN that "
                 "returns a new buffer (added 2025-03-31)\n",
                 TILECHECK_XLA_REVISION);
    return 2;
  }
#endif
  return tilecheck::peers::peer_main(argc, argv, xla_intn_operations);
}
