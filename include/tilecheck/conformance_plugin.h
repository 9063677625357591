/* The interface an implementation under test exports for
 * `tilecheck gate --impl PATH.so` (the conformance runner, conformance/).
 *
 * A shared library exports, with C linkage, tilecheck_impl_linear_index
 * (required) and any of the others; the gate checks what is exported. Every
 * function returns 0 on success; nonzero means "this layout is not
 * supported", and the runner counts the case as skipped for that function
 * (which fails the gate unless it is listed as a known gap).
 * `shape_with_layout` is XLA's text, as `tilecheck` prints it canonically:
 * e.g. "bf16[16,256]{1,0:T(8,128)(2,1)}".
 *
 *   linear_index  the position of `element` (logical coordinates, dim 0 most
 *                 major, `rank` of them, always in bounds) in the physical
 *                 buffer, counted in elements (D5).
 *   byte_size     the physical buffer's size in bytes (D6).
 *   pack          dense source -> physical buffer, every padding bit zero
 *                 (D7, D8). The runner passes src_bytes and dst_bytes as the
 *                 spec sizes them.
 *   unpack        physical buffer -> dense array; the padding bits of the
 *                 source hold anything and must be ignored.
 *   delinearize   the element stored at `position` of the physical buffer
 *                 (counted in elements, below the padded element count):
 *                 `rank` coordinates into `element` and *is_padding = 0, or
 *                 *is_padding = 1 when the position is padding.
 *   relayout      the physical buffer of `from` -> the physical buffer of
 *                 `to`, a layout of the same dims and element width; the
 *                 source's padding holds anything, the result's is zero.
 *
 * Dense arrays follow docs/PROTOCOL.md, "Dense buffers": the logical dims
 * row-major, one element per ceil(width/8) bytes, little-endian, the value
 * in the low bits, the bits above it zero or, for a signed integer type,
 * copies of its top bit (s4 -1 is 0xff); pack ignores the bits above. In a
 * physical buffer the element at position p holds bits [p*width,
 * p*width + width).
 *
 * unpack, delinearize and relayout came after the first three: a plugin
 * built against a header without them exports only the first three and is
 * checked on those, unchanged.
 *
 * The runner calls these in a child process of its own, so a crash, abort
 * or hang is a failure of the implementation, never of tilecheck. Functions
 * must not write outside dst or modify src; the runner checks both.
 */
#ifndef TILECHECK_CONFORMANCE_PLUGIN_H_
#define TILECHECK_CONFORMANCE_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

/* 2: unpack, delinearize and relayout; a header without this macro has the
   first three functions only. */
#define TILECHECK_CONFORMANCE_PLUGIN_VERSION 2

#ifdef __cplusplus
extern "C" {
#endif

int tilecheck_impl_linear_index(const char* shape_with_layout, int64_t rank,
                                const int64_t* element, int64_t* linear_index);
int tilecheck_impl_pack(const char* shape_with_layout, const void* src, size_t src_bytes,
                        void* dst, size_t dst_bytes);
int tilecheck_impl_byte_size(const char* shape_with_layout, int64_t* bytes);
int tilecheck_impl_unpack(const char* shape_with_layout, const void* src, size_t src_bytes,
                          void* dst, size_t dst_bytes);
int tilecheck_impl_delinearize(const char* shape_with_layout, int64_t position, int64_t rank,
                               int64_t* element, int* is_padding);
int tilecheck_impl_relayout(const char* from, const char* to, const void* src, size_t src_bytes,
                            void* dst, size_t dst_bytes);

typedef int (*tilecheck_impl_linear_index_fn)(const char*, int64_t, const int64_t*, int64_t*);
typedef int (*tilecheck_impl_pack_fn)(const char*, const void*, size_t, void*, size_t);
typedef int (*tilecheck_impl_byte_size_fn)(const char*, int64_t*);
typedef int (*tilecheck_impl_unpack_fn)(const char*, const void*, size_t, void*, size_t);
typedef int (*tilecheck_impl_delinearize_fn)(const char*, int64_t, int64_t, int64_t*, int*);
typedef int (*tilecheck_impl_relayout_fn)(const char*, const char*, const void*, size_t, void*,
                                          size_t);

#ifdef __cplusplus
}
#endif

#endif /* TILECHECK_CONFORMANCE_PLUGIN_H_ */
