#include "peers/libxsmm/libxsmm_layout.h"

#include <libxsmm.h>
#include <libxsmm_dnn_tensor.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace tilecheck::peers {

namespace {

using Kind = LibxsmmFormat::Kind;

// libxsmm_dnn's datatype of an element type, or nullopt when it has none.
std::optional<libxsmm_dnn_datatype> dnn_datatype(ElementType type) {
  switch (type) {
    case ElementType::kF32: return LIBXSMM_DNN_DATATYPE_F32;
    case ElementType::kS32:
    case ElementType::kU32: return LIBXSMM_DNN_DATATYPE_I32;
    case ElementType::kBF16: return LIBXSMM_DNN_DATATYPE_BF16;
    case ElementType::kF16:
    case ElementType::kS16:
    case ElementType::kU16: return LIBXSMM_DNN_DATATYPE_I16;
    case ElementType::kS8:
    case ElementType::kU8: return LIBXSMM_DNN_DATATYPE_I8;
    default: return std::nullopt;
  }
}

// A libxsmm_dnn tensor over `physical` in the blocked activation format:
// its dims innermost first, as libxsmm_dnn describes them. Without a
// buffer (nullptr), only its layout: its size.
class ActivationTensor {
 public:
  ActivationTensor(const LibxsmmFormat& f, const uint8_t* physical) {
    const auto& d = f.dims;  // N, C, H, W
    sizes_ = {static_cast<unsigned>(f.block), static_cast<unsigned>(d[3]), static_cast<unsigned>(d[2]),
              static_cast<unsigned>(d[1] / f.block), static_cast<unsigned>(d[0])};
    layout_.dim_type = types_;
    layout_.dim_size = sizes_.data();
    layout_.num_dims = 5;
    layout_.format = LIBXSMM_DNN_TENSOR_FORMAT_LIBXSMM;
    layout_.datatype = *dnn_datatype(f.type);
    layout_.tensor_type = LIBXSMM_DNN_ACTIVATION;
    if (physical != nullptr) {
      libxsmm_dnn_err_t status = LIBXSMM_DNN_SUCCESS;
      tensor_ = libxsmm_dnn_link_tensor(&layout_, physical, &status);
      check(status, "libxsmm_dnn_link_tensor");
    }
  }
  ~ActivationTensor() {
    if (tensor_ != nullptr) libxsmm_dnn_destroy_tensor(tensor_);
  }
  ActivationTensor(const ActivationTensor&) = delete;
  ActivationTensor& operator=(const ActivationTensor&) = delete;

  const libxsmm_dnn_tensor* tensor() const { return tensor_; }
  int64_t byte_size() {
    libxsmm_dnn_err_t status = LIBXSMM_DNN_SUCCESS;
    const unsigned size = libxsmm_dnn_get_tensor_size(&layout_, &status);
    check(status, "libxsmm_dnn_get_tensor_size");
    return size;
  }

  static void check(libxsmm_dnn_err_t status, const char* what) {
    if (status != LIBXSMM_DNN_SUCCESS) {
      throw std::runtime_error(std::string(what) + ": " + libxsmm_dnn_get_error(status));
    }
  }

 private:
  libxsmm_dnn_tensor_dimtype types_[5] = {LIBXSMM_DNN_TENSOR_DIMTYPE_C, LIBXSMM_DNN_TENSOR_DIMTYPE_W,
                                         LIBXSMM_DNN_TENSOR_DIMTYPE_H, LIBXSMM_DNN_TENSOR_DIMTYPE_C,
                                         LIBXSMM_DNN_TENSOR_DIMTYPE_N};
  std::vector<unsigned> sizes_;
  libxsmm_dnn_tensor_datalayout layout_{};
  libxsmm_dnn_tensor* tensor_ = nullptr;
};

// The physical buffer to link a tensor to: libxsmm_dnn_link_tensor refuses
// a null data pointer ("cannot create tensor"), which an empty buffer (a
// zero dim) has, so an empty one is given as a byte libxsmm never touches.
const uint8_t* tensor_buffer(std::span<const uint8_t> physical) {
  static const uint8_t unused = 0;
  return physical.empty() ? &unused : physical.data();
}

// A rank-2 layout's move: `in` is an m x n column-major matrix (m
// contiguous), written to `out` transposed (libxsmm_otrans) or as it is
// (libxsmm_matcopy). A copy is the same bytes whichever way m and n split them.
void move_matrix(const LibxsmmFormat& f, const uint8_t* in, uint8_t* out, int64_t m, int64_t n) {
  const auto ts = static_cast<unsigned>(f.element_bytes);
  const auto bm = static_cast<libxsmm_blasint>(m), bn = static_cast<libxsmm_blasint>(n);
  if (f.kind == Kind::kTranspose) {
    libxsmm_otrans(out, in, ts, bm, bn, std::max(bm, 1), std::max(bn, 1));
  } else {
    libxsmm_matcopy(out, in, ts, bm, bn, std::max(bm, 1), std::max(bm, 1));
  }
}

}  // namespace

std::variant<LibxsmmFormat, std::string> libxsmm_format(const ShapeWithLayout& shape) {
  const Layout& layout = shape.layout;
  const int bits = natural_bit_width(shape.type);
  if (bits % 8 != 0) return "libxsmm moves whole bytes: a sub-byte element type has no libxsmm layout";
  if (layout.element_size_bits && *layout.element_size_bits != bits) {
    return "libxsmm stores elements at their natural width: E(n) has no libxsmm layout";
  }
  if (layout.tail_padding_alignment) return "libxsmm pads no buffer: L(n) has no libxsmm layout";
  for (int64_t d : shape.dims) {
    if (d > INT_MAX) return "a dim past libxsmm's 32-bit sizes";
  }
  LibxsmmFormat f;
  f.type = shape.type;
  f.element_bytes = bits / 8;
  f.dims = shape.dims;
  if (shape.rank() == 2 && layout.tiles.empty()) {
    f.kind = layout.minor_to_major == std::vector<int64_t>{0, 1} ? Kind::kTranspose : Kind::kCopy;
    return f;
  }
  if (shape.rank() != 4) return "libxsmm lays out rank-2 matrices and rank-4 activations only";
  if (layout.minor_to_major != std::vector<int64_t>{3, 2, 1, 0}) {
    return "libxsmm's blocked activations keep the NCHW dim order: minor_to_major {3,2,1,0} only";
  }
  if (layout.tiles.size() != 1 || layout.tiles[0].dims.size() != 3 || layout.tiles[0].dims[0] < 1 ||
      layout.tiles[0].dims[1] != 1 || layout.tiles[0].dims[2] != 1) {
    return "libxsmm's blocked activations block the channel dim alone: one tile T(b,1,1)";
  }
  if (!dnn_datatype(shape.type)) return "libxsmm_dnn has no element type of this width";
  f.kind = Kind::kBlockedActivation;
  f.block = layout.tiles[0].dims[0];
  if (shape.dims[1] % f.block != 0) {
    return "libxsmm's activation tensors have no padding: the channel dim must be a multiple of the block";
  }
  return f;
}

int64_t libxsmm_byte_size(const LibxsmmFormat& f) {
  if (f.kind == Kind::kBlockedActivation) return ActivationTensor(f, nullptr).byte_size();
  return f.dims[0] * f.dims[1] * f.element_bytes;
}

// The dense array is R x C row-major: column-major, C contiguous. A
// transposed layout's buffer is R contiguous.
void libxsmm_pack(const LibxsmmFormat& f, std::span<const uint8_t> dense, std::span<uint8_t> physical) {
  if (f.kind != Kind::kBlockedActivation) return move_matrix(f, dense.data(), physical.data(), f.dims[1], f.dims[0]);
  ActivationTensor t(f, tensor_buffer(physical));
  ActivationTensor::check(libxsmm_dnn_copyin_tensor(t.tensor(), dense.data(), LIBXSMM_DNN_TENSOR_FORMAT_NCHW),
                          "libxsmm_dnn_copyin_tensor");
}

void libxsmm_unpack(const LibxsmmFormat& f, std::span<const uint8_t> physical, std::span<uint8_t> dense) {
  if (f.kind != Kind::kBlockedActivation) return move_matrix(f, physical.data(), dense.data(), f.dims[0], f.dims[1]);
  ActivationTensor t(f, tensor_buffer(physical));  // copy-out only reads it
  ActivationTensor::check(libxsmm_dnn_copyout_tensor(t.tensor(), dense.data(), LIBXSMM_DNN_TENSOR_FORMAT_NCHW),
                          "libxsmm_dnn_copyout_tensor");
}

std::string libxsmm_version() { return LIBXSMM_VERSION; }

}  // namespace tilecheck::peers
