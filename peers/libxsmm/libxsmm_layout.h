// libxsmm as an implementation of tiled layouts (docs/PEERS.md, "libxsmm"):
// the layouts its own functions lay out, derived from an XLA layout, and
// those functions as pack and unpack.
//
//   a rank-2 transposed layout   T[R,C]{0,1}, no tiles: libxsmm_otrans (its
//                                out-of-place transpose) from and to the
//                                dense row-major array, any element width
//                                in whole bytes;
//   a rank-2 row-major layout    T[R,C]{1,0}, no tiles: libxsmm_matcopy;
//   blocked activations          T[N,C,H,W]{3,2,1,0:T(b,1,1)}, C a multiple
//                                of b (libxsmm's "LIBXSMM" activation format
//                                [N][C/b][H][W][b], which oneDNN calls
//                                nChw16c for b = 16): libxsmm_dnn's
//                                copy-in and copy-out of a tensor from and
//                                to NCHW, for the element types libxsmm_dnn
//                                has (f32, bf16, 32-, 16- and 8-bit
//                                integers), its byte size from
//                                libxsmm_dnn_get_tensor_size.
//
// Nothing else: libxsmm 1.17 has no other layout conversion an XLA layout
// can state (its blocked GEMM's A and B formats order their blocks and the
// elements within them differently, which one XLA tiling cannot).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::peers {

struct LibxsmmFormat {
  enum class Kind { kTranspose, kCopy, kBlockedActivation };
  Kind kind;
  ElementType type;
  int64_t element_bytes = 0;
  std::vector<int64_t> dims;  // the logical dims: R,C or N,C,H,W
  int64_t block = 0;          // b of a blocked activation
};

// How libxsmm lays out `shape`, or why it cannot (one sentence).
std::variant<LibxsmmFormat, std::string> libxsmm_format(const ShapeWithLayout& shape);

// libxsmm's own functions on the format's buffers: the dense array is the
// layout's logical dims row-major. The sizes are the caller's to check.
int64_t libxsmm_byte_size(const LibxsmmFormat& format);
void libxsmm_pack(const LibxsmmFormat& format, std::span<const uint8_t> dense, std::span<uint8_t> physical);
void libxsmm_unpack(const LibxsmmFormat& format, std::span<const uint8_t> physical, std::span<uint8_t> dense);

// libxsmm's version, as LIBXSMM_VERSION gives it ("1.17").
std::string libxsmm_version();

}  // namespace tilecheck::peers
