/* The interface an implementation under test exports for
 * `tilecheck gate --impl PATH.so` (the conformance runner, cli/conformance.h).
 *
 * A shared library exports, with C linkage, tilecheck_impl_linear_index
 * (required) and any of the two others. Every function returns 0 on success;
 * nonzero means "this layout is not supported", and the runner counts the
 * layout as skipped for that function. `shape_with_layout` is XLA's text,
 * as `tilecheck` prints it canonically: e.g. "bf16[16,256]{1,0:T(8,128)(2,1)}".
 *
 *   linear_index  the position of `element` (logical coordinates, dim 0 most
 *                 major, `rank` of them, always in bounds) in the physical
 *                 buffer, counted in elements (D5).
 *   pack          dense source -> physical buffer. The source holds the
 *                 logical dims row-major, one element per ceil(width/8) bytes,
 *                 little-endian, sub-byte values in the low bits; the buffer
 *                 holds the element at position p in bits [p*width,
 *                 p*width + width), padding bits zero (D7, D8). The runner
 *                 passes src_bytes and dst_bytes as the spec sizes them.
 *   byte_size     the physical buffer's size in bytes (D6).
 *
 * The runner calls these in a child process, so a crash, abort or hang is a
 * failure of the implementation, never of tilecheck. Functions must not
 * write outside dst or modify src; the runner checks both.
 */
#ifndef TILECHECK_CONFORMANCE_PLUGIN_H_
#define TILECHECK_CONFORMANCE_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int tilecheck_impl_linear_index(const char* shape_with_layout, int64_t rank,
                                const int64_t* element, int64_t* linear_index);
int tilecheck_impl_pack(const char* shape_with_layout, const void* src, size_t src_bytes,
                        void* dst, size_t dst_bytes);
int tilecheck_impl_byte_size(const char* shape_with_layout, int64_t* bytes);

typedef int (*tilecheck_impl_linear_index_fn)(const char*, int64_t, const int64_t*, int64_t*);
typedef int (*tilecheck_impl_pack_fn)(const char*, const void*, size_t, void*, size_t);
typedef int (*tilecheck_impl_byte_size_fn)(const char*, int64_t*);

#ifdef __cplusplus
}
#endif

#endif /* TILECHECK_CONFORMANCE_PLUGIN_H_ */
