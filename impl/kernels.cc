// Highway kernels of impl/kernels.h: this file only dispatches. The kernels
// live one family per file, each compiled once per SIMD target through the
// re-inclusion below: rows-inl.h (row interleaves), panel-inl.h (panels),
// transpose-inl.h (transposing panels), kernel_common-inl.h (their stores).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "impl/kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "impl/kernels.h"
#include "impl/rows-inl.h"
#include "impl/panel-inl.h"
#include "impl/transpose-inl.h"

#if HWY_ONCE
namespace tilecheck::impl::kernels {

HWY_EXPORT(PackRows2U16);
HWY_EXPORT(PackRows4U8);
HWY_EXPORT(PackRows8U4);
HWY_EXPORT(PackRows32U1);
HWY_EXPORT(UnpackRows2U16);
HWY_EXPORT(UnpackRows4U8);
HWY_EXPORT(UnpackRows8U4);
HWY_EXPORT(UnpackRows32U1);
HWY_EXPORT(PackSubByteRuns);
HWY_EXPORT(UnpackSubByteRuns);
HWY_EXPORT(TransposeElements);
HWY_EXPORT(PackPanel);
HWY_EXPORT(TransposePanelPack);
HWY_EXPORT(TransposePanelUnpack);

void transpose_panel_pack(const TransposePanel& panel, const uint8_t* dense, uint8_t* phys, int64_t cols,
                          bool stream) {
  HWY_DYNAMIC_DISPATCH(TransposePanelPack)(panel, dense, phys, cols, stream);
}
void transpose_panel_unpack(const TransposePanel& panel, const uint8_t* phys, uint8_t* dense, int64_t cols,
                            bool stream) {
  HWY_DYNAMIC_DISPATCH(TransposePanelUnpack)(panel, phys, dense, cols, stream);
}
HWY_EXPORT(UnpackPanel);

void pack_panel(const Panel& panel, const uint8_t* dense, uint8_t* phys, int64_t cols, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackPanel)(panel, dense, phys, cols, stream);
}
void unpack_panel(const Panel& panel, const uint8_t* phys, uint8_t* dense, int64_t cols, bool stream) {
  HWY_DYNAMIC_DISPATCH(UnpackPanel)(panel, phys, dense, cols, stream);
}
HWY_EXPORT(CopyRuns);
void copy_runs(const uint8_t* from, int64_t from_stride, uint8_t* to, int64_t to_stride, int64_t count,
               int64_t bytes, bool stream) {
  HWY_DYNAMIC_DISPATCH(CopyRuns)(from, from_stride, to, to_stride, count, bytes, stream);
}
void flush_streams() { hwy::FlushStream(); }

void transpose_elements(int64_t elem_bytes, const uint8_t* src, int64_t src_stride, uint8_t* dst,
                        int64_t dst_stride, int64_t rows, int64_t cols, bool stream) {
  HWY_DYNAMIC_DISPATCH(TransposeElements)(elem_bytes, src, src_stride, dst, dst_stride, rows, cols, stream);
}

void pack_rows2_u16(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows2U16)(dense, row_stride, phys, n, stream);
}
void pack_rows4_u8(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows4U8)(dense, row_stride, phys, n, stream);
}
void pack_rows8_u4(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows8U4)(dense, row_stride, phys, n, stream);
}
void pack_rows32_u1(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(PackRows32U1)(dense, row_stride, phys, n, stream);
}
void unpack_rows2_u16(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  HWY_DYNAMIC_DISPATCH(UnpackRows2U16)(phys, dense, row_stride, n);
}
void unpack_rows4_u8(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  HWY_DYNAMIC_DISPATCH(UnpackRows4U8)(phys, dense, row_stride, n);
}
void unpack_rows8_u4(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream,
                     bool sign) {
  HWY_DYNAMIC_DISPATCH(UnpackRows8U4)(phys, dense, row_stride, n, stream, sign);
}
void unpack_rows32_u1(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream,
                      bool sign) {
  HWY_DYNAMIC_DISPATCH(UnpackRows32U1)(phys, dense, row_stride, n, stream, sign);
}
void pack_sub_byte_runs(int bits, const uint8_t* dense, int64_t dense_stride, uint8_t* phys, int64_t phys_stride,
                        int64_t count, int64_t bytes) {
  HWY_DYNAMIC_DISPATCH(PackSubByteRuns)(bits, dense, dense_stride, phys, phys_stride, count, bytes);
}
void unpack_sub_byte_runs(int bits, const uint8_t* phys, int64_t phys_stride, uint8_t* dense, int64_t dense_stride,
                          int64_t count, int64_t bytes, bool sign) {
  HWY_DYNAMIC_DISPATCH(UnpackSubByteRuns)(bits, phys, phys_stride, dense, dense_stride, count, bytes, sign);
}

}  // namespace tilecheck::impl::kernels
#endif
