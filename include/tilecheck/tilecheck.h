/* tilecheck C API: the spec (the reference semantics) and the impl (the fast
 * plans) of XLA-style tiled layouts, behind a stable C interface for any
 * language's FFI.
 *
 * What it computes (docs/DESIGN.md D1-D9, tilecheck/spec/semantics.h): for a shape with
 * layout such as "f32[3,5]{1,0:T(2,2)}",
 *   linear index   the position of a logical element in the physical order,
 *                  row-major over the final tiled shape (Figure 1: element
 *                  (2,3) -> 17);
 *   delinearize    its inverse, or "padding" for a position no element maps to;
 *   byte size      ceil(padded_element_count * bits / 8) for the physical
 *                  buffer; element_count * ceil(bits / 8) for the dense one;
 *   pack/unpack    dense buffer (logical dims row-major, ceil(bits/8) bytes per
 *                  element, little-endian, value in the low bits; unpack writes
 *                  the bits above it zero, or sign-extended for a signed type:
 *                  docs/PROTOCOL.md, "Dense buffers") <-> physical
 *                  buffer (element at position p in bits [p*bits, p*bits+bits),
 *                  padding bits zero);
 *   relayout       physical buffer of one layout -> physical buffer of another
 *                  of the same dims and element width.
 * Each query names its engine: TILECHECK_SPEC (the oracle, element by element)
 * or TILECHECK_IMPL (the compiled plans). On every valid input they agree.
 * The engine is passed as an int so that any value an FFI sends is defined
 * behaviour: a value other than the two is TILECHECK_ERROR_INVALID_ARGUMENT.
 *
 * Contract of every function returning tilecheck_status:
 *   - TILECHECK_OK (0) on success, a nonzero status otherwise; no C++
 *     exception ever leaves the library (out of memory is
 *     TILECHECK_ERROR_OUT_OF_MEMORY).
 *   - `error` may be NULL. Otherwise the caller owns it and the library fills
 *     it on every call: status, column (1-based column of the problem in a
 *     layout text, 0 when the error is not about a column) and a
 *     NUL-terminated message ("" on success), truncated to
 *     TILECHECK_ERROR_MESSAGE_SIZE - 1 bytes. Nothing is stored inside the
 *     library, so concurrent calls from many threads are safe as long as each
 *     passes its own tilecheck_error.
 *   - On failure no output argument is written (except `error`, and
 *     `*required` of tilecheck_layout_print).
 *   - A buffer of the wrong size is an error (TILECHECK_ERROR_BUFFER_SIZE):
 *     dense buffers must be exactly tilecheck_dense_byte_size bytes, physical
 *     buffers exactly tilecheck_byte_size bytes. A pointer may be NULL only
 *     when its size is 0.
 *
 * A tilecheck_layout is immutable once parsed: one handle may be used from
 * many threads at once. Free it exactly once with tilecheck_layout_free.
 *
 * Versioning: TILECHECK_C_API_VERSION grows by one whenever this interface
 * changes; tilecheck_c_api_version() says which version the library linked at
 * run time implements.
 *
 * The header is C89/C99 (and C++) compatible; int64_t comes from <stdint.h>. */
#ifndef TILECHECK_TILECHECK_H
#define TILECHECK_TILECHECK_H

#include <stddef.h>
#include <stdint.h>

#define TILECHECK_C_API_VERSION 3

#if defined(_WIN32)
#if defined(TILECHECK_C_BUILDING)
#define TILECHECK_C_API __declspec(dllexport)
#else
#define TILECHECK_C_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define TILECHECK_C_API __attribute__((visibility("default")))
#else
#define TILECHECK_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tilecheck_status {
  TILECHECK_OK = 0,
  /* A NULL pointer with a nonzero size, an element with the wrong number of
     coordinates, an unknown engine, relayout between layouts whose dims or
     element widths differ, overlapping buffers. */
  TILECHECK_ERROR_INVALID_ARGUMENT = 1,
  /* The layout text does not parse, or the layout is invalid (D9): the
     message says why, `column` where. */
  TILECHECK_ERROR_INVALID_LAYOUT = 2,
  /* An element coordinate or a position outside the layout's bounds. */
  TILECHECK_ERROR_OUT_OF_RANGE = 3,
  /* A buffer whose size is not the one the layout requires. */
  TILECHECK_ERROR_BUFFER_SIZE = 4,
  TILECHECK_ERROR_OUT_OF_MEMORY = 5,
  /* Anything else (a bug in tilecheck): the message says what. */
  TILECHECK_ERROR_INTERNAL = 6
} tilecheck_status;

typedef enum tilecheck_engine {
  TILECHECK_SPEC = 0, /* the reference semantics (tilecheck/spec/semantics.h) */
  TILECHECK_IMPL = 1  /* the compiled plans (tilecheck/impl/plan.h) */
} tilecheck_engine;

#define TILECHECK_ERROR_MESSAGE_SIZE 512

typedef struct tilecheck_error {
  int status;     /* a tilecheck_status */
  int64_t column; /* 1-based column in the layout text, or 0 */
  char message[TILECHECK_ERROR_MESSAGE_SIZE];
} tilecheck_error;

/* A parsed and validated shape with layout (opaque). */
typedef struct tilecheck_layout tilecheck_layout;

/* The TILECHECK_C_API_VERSION the library was built with. */
TILECHECK_C_API int tilecheck_c_api_version(void);
/* The tilecheck package version, "MAJOR.MINOR.PATCH" (static storage). */
TILECHECK_C_API const char *tilecheck_version(void);
/* A static, NUL-terminated name for a status ("TILECHECK_ERROR_BUFFER_SIZE");
   "unknown status" for any other value. */
TILECHECK_C_API const char *tilecheck_status_name(int status);

/* Parses `text` (NUL-terminated, XLA syntax) and validates it with both
   engines: the structure, and every size computable in int64. On success
   *layout is a new handle. */
TILECHECK_C_API tilecheck_status tilecheck_layout_parse(const char *text, tilecheck_layout **layout,
                                                        tilecheck_error *error);
/* Frees a handle; NULL is allowed and does nothing. */
TILECHECK_C_API void tilecheck_layout_free(tilecheck_layout *layout);

/* The canonical text of the layout. *required (if `required` is not NULL) is
   always set to the buffer size needed, terminating NUL included; the text is
   written only when buffer_size >= that size, else TILECHECK_ERROR_BUFFER_SIZE. */
TILECHECK_C_API tilecheck_status tilecheck_layout_print(const tilecheck_layout *layout,
                                                        char *buffer, size_t buffer_size,
                                                        size_t *required, tilecheck_error *error);

/* The number of logical dims. */
TILECHECK_C_API tilecheck_status tilecheck_rank(const tilecheck_layout *layout, int64_t *rank,
                                                tilecheck_error *error);
/* Element width in bits after E(n) (D6). */
TILECHECK_C_API tilecheck_status tilecheck_element_bits(const tilecheck_layout *layout,
                                                        int64_t *bits, tilecheck_error *error);
/* Product of the logical dims. */
TILECHECK_C_API tilecheck_status tilecheck_element_count(const tilecheck_layout *layout, int engine,
                                                         int64_t *count, tilecheck_error *error);
/* Product of the final tiled shape rounded up to L(n) (D5): the number of
   positions, padding included. */
TILECHECK_C_API tilecheck_status tilecheck_padded_element_count(const tilecheck_layout *layout,
                                                                int engine, int64_t *count,
                                                                tilecheck_error *error);
/* Bytes of the physical buffer: ceil(padded_element_count * bits / 8). */
TILECHECK_C_API tilecheck_status tilecheck_byte_size(const tilecheck_layout *layout, int engine,
                                                     int64_t *bytes, tilecheck_error *error);
/* Bytes of the dense buffer: element_count * ceil(bits / 8). */
TILECHECK_C_API tilecheck_status tilecheck_dense_byte_size(const tilecheck_layout *layout,
                                                           int engine, int64_t *bytes,
                                                           tilecheck_error *error);

/* The position of `element` (rank coordinates, logical dim order). `rank`
   must equal the layout's rank; every coordinate must be in bounds. */
TILECHECK_C_API tilecheck_status tilecheck_linear_index(const tilecheck_layout *layout, int engine,
                                                        const int64_t *element, int64_t rank,
                                                        int64_t *index, tilecheck_error *error);
/* The element stored at `position`, 0 <= position < padded_element_count.
   *is_element = 1 and element[0..rank) written for an element; *is_element
   = 0 and `element` untouched for padding. `rank` must equal the layout's. */
TILECHECK_C_API tilecheck_status tilecheck_delinearize(const tilecheck_layout *layout, int engine,
                                                       int64_t position, int64_t *element,
                                                       int64_t rank, int *is_element,
                                                       tilecheck_error *error);

/* Batches, one call for many (since version 2). `count` elements of `rank`
   coordinates each, row after row -> `count` positions in `indices`. Every
   coordinate is checked before anything is written: the first one out of
   bounds is TILECHECK_ERROR_OUT_OF_RANGE, its place in the message. */
TILECHECK_C_API tilecheck_status tilecheck_linear_index_batch(const tilecheck_layout *layout,
                                                              int engine, const int64_t *elements,
                                                              int64_t count, int64_t rank,
                                                              int64_t *indices,
                                                              tilecheck_error *error);
/* `count` positions -> for each, is_element[i] = 1 and its `rank`
   coordinates at elements[i*rank..), or is_element[i] = 0 and that row set
   to -1 for padding. Every position is checked before anything is written
   (0 <= position < padded_element_count). */
TILECHECK_C_API tilecheck_status tilecheck_delinearize_batch(const tilecheck_layout *layout,
                                                             int engine, const int64_t *positions,
                                                             int64_t count, int64_t *elements,
                                                             int64_t rank, int *is_element,
                                                             tilecheck_error *error);

/* Dense -> physical (padding zero). dense_bytes == tilecheck_dense_byte_size,
   physical_bytes == tilecheck_byte_size. */
TILECHECK_C_API tilecheck_status tilecheck_pack(const tilecheck_layout *layout, int engine,
                                                const void *dense, size_t dense_bytes,
                                                void *physical, size_t physical_bytes,
                                                tilecheck_error *error);
/* Physical -> dense (padding ignored, bits above the width written zero). */
TILECHECK_C_API tilecheck_status tilecheck_unpack(const tilecheck_layout *layout, int engine,
                                                  const void *physical, size_t physical_bytes,
                                                  void *dense, size_t dense_bytes,
                                                  tilecheck_error *error);
/* Physical buffer of `from` -> physical buffer of `to` (padding of `to`
   zero). Both layouts must have the same dims and element width. The impl
   runs a RelayoutPlan built for this call; the spec, which has no relayout of
   its own, unpacks with `from` and packs with `to`. */
TILECHECK_C_API tilecheck_status tilecheck_relayout(const tilecheck_layout *from,
                                                    const tilecheck_layout *to, int engine,
                                                    const void *src, size_t src_bytes, void *dst,
                                                    size_t dst_bytes, tilecheck_error *error);

/* Strided dense arrays and row slices (since version 3).

   A strided dense array, as a DLPack tensor or a numpy view gives it: the
   element e at byte sum over l of e[l] * dense_strides[l] from `dense`;
   `rank` strides, each a non-negative multiple of the dense element size
   (DLPack's strides count elements: multiply them by the itemsize).
   dense_bytes runs from the first element to the end of the last
   (tilecheck_dense_span_bytes). Pack reads only the elements; unpack writes
   only them (the bytes between keep their values) and refuses strides under
   which two elements may share bytes (a stride 0: numpy's broadcast). The
   impl runs a plan built for the call; the spec gathers the elements into a
   row-major array (scatters them, for unpack). */
TILECHECK_C_API tilecheck_status tilecheck_dense_span_bytes(const tilecheck_layout *layout,
                                                            const int64_t *dense_strides,
                                                            int64_t rank, int64_t *bytes,
                                                            tilecheck_error *error);
TILECHECK_C_API tilecheck_status tilecheck_pack_strided(const tilecheck_layout *layout, int engine,
                                                        const void *dense, size_t dense_bytes,
                                                        const int64_t *dense_strides, int64_t rank,
                                                        void *physical, size_t physical_bytes,
                                                        tilecheck_error *error);
TILECHECK_C_API tilecheck_status tilecheck_unpack_strided(const tilecheck_layout *layout, int engine,
                                                          const void *physical,
                                                          size_t physical_bytes, void *dense,
                                                          size_t dense_bytes,
                                                          const int64_t *dense_strides,
                                                          int64_t rank, tilecheck_error *error);
/* Rows [begin, end) of the layout's physical-major dim (*dim: the last
   entry of minor_to_major), for chunked transfers: a new handle *slice for
   the slice alone (the same layout, dims[*dim] = end - begin; free it with
   tilecheck_layout_free), the byte range [*physical_offset,
   *physical_offset + *physical_bytes) of the whole physical buffer that
   the slice occupies, and *dense_offset, the byte of the slice's first
   element in the whole row-major dense array. Pack the slice with
   tilecheck_pack_strided(slice, ..., dense + *dense_offset, the whole's
   row-major strides, ...) into that range; slice after slice, that writes
   the whole pack. begin and end must be multiples of
   tilecheck_row_slice_granularity's rows (end may also be the dim's size);
   layouts with tail padding, or whose sub-tiles split the tile count,
   cannot be sliced (TILECHECK_ERROR_INVALID_ARGUMENT saying why). */
TILECHECK_C_API tilecheck_status tilecheck_row_slice_granularity(const tilecheck_layout *layout,
                                                                 int64_t *rows,
                                                                 tilecheck_error *error);
TILECHECK_C_API tilecheck_status tilecheck_row_slice(const tilecheck_layout *layout, int64_t begin,
                                                     int64_t end, tilecheck_layout **slice,
                                                     int64_t *dim, int64_t *physical_offset,
                                                     int64_t *physical_bytes,
                                                     int64_t *dense_offset,
                                                     tilecheck_error *error);

/* The built-in catalogue (tilecheck/spec/catalog.h): tilecheck_catalog_size() entries;
   entry i's name and canonical layout text, static NUL-terminated strings,
   or NULL when i is out of range. The catalogue is built on first use: out
   of memory then makes the size 0 and the strings NULL. */
TILECHECK_C_API size_t tilecheck_catalog_size(void);
TILECHECK_C_API const char *tilecheck_catalog_name(size_t i);
TILECHECK_C_API const char *tilecheck_catalog_layout(size_t i);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILECHECK_TILECHECK_H */
