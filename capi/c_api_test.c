/* The C API from C: every function, its error paths (status, message,
 * column, nothing written), the document's worked examples, and on every
 * catalogue layout the spec and impl engines agreeing through the API.
 * Exits 1 after printing each failed check, 0 when all pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilecheck/tilecheck.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* A call that must fail with `status`, leaving a message in `error`. */
#define CHECK_FAILS(call, status_expected)                                                        \
  do {                                                                                            \
    tilecheck_status got_ = (call);                                                               \
    if (got_ != (status_expected) || error.status != (status_expected) ||                         \
        error.message[0] == '\0') {                                                               \
      ++failures;                                                                                 \
      fprintf(stderr, "%s:%d: %s returned %s (error.status %s, \"%s\"), expected %s\n", __FILE__, \
              __LINE__, #call, tilecheck_status_name(got_), tilecheck_status_name(error.status),  \
              error.message, tilecheck_status_name(status_expected));                             \
    }                                                                                             \
  } while (0)

#define CHECK_OK(call)                                                                      \
  do {                                                                                      \
    tilecheck_status got_ = (call);                                                         \
    if (got_ != TILECHECK_OK || error.status != TILECHECK_OK || error.message[0] != '\0') { \
      ++failures;                                                                           \
      fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call,             \
              tilecheck_status_name(got_), error.message);                                  \
    }                                                                                       \
  } while (0)

static const tilecheck_engine engines[2] = {TILECHECK_SPEC, TILECHECK_IMPL};

static tilecheck_layout *parse_or_die(const char *text) {
  tilecheck_layout *layout = NULL;
  tilecheck_error error;
  if (tilecheck_layout_parse(text, &layout, &error) != TILECHECK_OK) {
    fprintf(stderr, "cannot parse %s: %s\n", text, error.message);
    exit(1);
  }
  return layout;
}

static void test_versions_and_status_names(void) {
  const char *version = tilecheck_version();
  CHECK(tilecheck_c_api_version() == TILECHECK_C_API_VERSION);
  CHECK(version != NULL && strchr(version, '.') != NULL);
  CHECK(strcmp(tilecheck_status_name(TILECHECK_OK), "TILECHECK_OK") == 0);
  CHECK(strcmp(tilecheck_status_name(TILECHECK_ERROR_INVALID_ARGUMENT),
               "TILECHECK_ERROR_INVALID_ARGUMENT") == 0);
  CHECK(strcmp(tilecheck_status_name(TILECHECK_ERROR_INVALID_LAYOUT),
               "TILECHECK_ERROR_INVALID_LAYOUT") == 0);
  CHECK(strcmp(tilecheck_status_name(TILECHECK_ERROR_OUT_OF_RANGE),
               "TILECHECK_ERROR_OUT_OF_RANGE") == 0);
  CHECK(strcmp(tilecheck_status_name(TILECHECK_ERROR_BUFFER_SIZE), "TILECHECK_ERROR_BUFFER_SIZE") ==
        0);
  CHECK(strcmp(tilecheck_status_name(TILECHECK_ERROR_OUT_OF_MEMORY),
               "TILECHECK_ERROR_OUT_OF_MEMORY") == 0);
  CHECK(strcmp(tilecheck_status_name(TILECHECK_ERROR_INTERNAL), "TILECHECK_ERROR_INTERNAL") == 0);
  CHECK(strcmp(tilecheck_status_name(99), "unknown status") == 0);
}

static void test_parse_and_print(void) {
  tilecheck_error error;
  tilecheck_layout *layout = NULL;
  tilecheck_layout *untouched = (tilecheck_layout *)&error; /* a sentinel, never dereferenced */
  char text[64];
  size_t required = 0;

  /* Case-insensitive type, spaces: printed canonically. */
  CHECK_OK(tilecheck_layout_parse("F32[3, 5]{1,0:T(2,2)}", &layout, &error));
  CHECK_OK(tilecheck_layout_print(layout, text, sizeof text, &required, &error));
  CHECK(strcmp(text, "f32[3,5]{1,0:T(2,2)}") == 0);
  CHECK(required == strlen("f32[3,5]{1,0:T(2,2)}") + 1);
  /* Exactly the required size works; one byte less writes nothing. */
  CHECK_OK(tilecheck_layout_print(layout, text, required, NULL, &error));
  memset(text, 'x', sizeof text);
  required = 0;
  CHECK_FAILS(tilecheck_layout_print(layout, text, 20, &required, &error),
              TILECHECK_ERROR_BUFFER_SIZE);
  CHECK(required == 21 && text[0] == 'x' && text[19] == 'x');
  CHECK_FAILS(tilecheck_layout_print(layout, NULL, 0, &required, &error),
              TILECHECK_ERROR_BUFFER_SIZE);
  CHECK(required == 21);
  CHECK_FAILS(tilecheck_layout_print(NULL, text, sizeof text, NULL, &error),
              TILECHECK_ERROR_INVALID_ARGUMENT);
  tilecheck_layout_free(layout);

  /* Syntax error: the column of the problem. */
  layout = untouched;
  CHECK_FAILS(tilecheck_layout_parse("f32[3,5]{1,0:T(2,2)", &layout, &error),
              TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK(error.column == 20);
  CHECK(strstr(error.message, "column 20") != NULL);
  CHECK(layout == untouched);
  CHECK_FAILS(tilecheck_layout_parse("f32[3,x]", &layout, &error), TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK(error.column == 7);
  /* Invalid layouts (D9): zero tile entry, not a permutation, '*' last, an
     unknown type, sizes overflowing int64, a symbolic dim. */
  CHECK_FAILS(tilecheck_layout_parse("f32[3,5]{1,0:T(2,0)}", &layout, &error),
              TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK(error.column > 0);
  CHECK_FAILS(tilecheck_layout_parse("f32[3,5]{1,1}", &layout, &error),
              TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK_FAILS(tilecheck_layout_parse("f32[3,5]{1,0:T(2,*)}", &layout, &error),
              TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK_FAILS(tilecheck_layout_parse("q32[3]", &layout, &error), TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK(error.column == 1);
  CHECK_FAILS(tilecheck_layout_parse("f32[4611686018427387904,4]", &layout, &error),
              TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK(strstr(error.message, "overflow") != NULL);
  CHECK_FAILS(tilecheck_layout_parse("f32[?,128]{1,0:T(8,128)}", &layout, &error),
              TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK(layout == untouched);
  CHECK_FAILS(tilecheck_layout_parse(NULL, &layout, &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_layout_parse("f32[3]", NULL, &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  /* A NULL error is allowed: the status alone. */
  CHECK(tilecheck_layout_parse("f32[3", &layout, NULL) == TILECHECK_ERROR_INVALID_LAYOUT);
  CHECK(layout == untouched);
  tilecheck_layout_free(NULL);
}

/* The document's Figure 1: f32[3,5]{1,0:T(2,2)}, final shape (2,3,2,2). */
static void test_sizes(void) {
  tilecheck_error error;
  tilecheck_layout *figure1 = parse_or_die("f32[3,5]{1,0:T(2,2)}");
  tilecheck_layout *s4 = parse_or_die("s4[3,5]{1,0:T(2,2)}");
  tilecheck_layout *aligned = parse_or_die("f32[3,5]{1,0:T(2,2)L(10)}");
  int64_t value = -7;
  int e;

  CHECK_OK(tilecheck_rank(figure1, &value, &error));
  CHECK(value == 2);
  CHECK_OK(tilecheck_element_bits(figure1, &value, &error));
  CHECK(value == 32);
  CHECK_OK(tilecheck_element_bits(s4, &value, &error));
  CHECK(value == 4);
  for (e = 0; e < 2; ++e) {
    CHECK_OK(tilecheck_element_count(figure1, engines[e], &value, &error));
    CHECK(value == 15);
    CHECK_OK(tilecheck_padded_element_count(figure1, engines[e], &value, &error));
    CHECK(value == 24);
    CHECK_OK(tilecheck_padded_element_count(aligned, engines[e], &value, &error));
    CHECK(value == 30);
    CHECK_OK(tilecheck_byte_size(figure1, engines[e], &value, &error));
    CHECK(value == 96);
    CHECK_OK(tilecheck_dense_byte_size(figure1, engines[e], &value, &error));
    CHECK(value == 60);
    /* Sub-byte: 24 positions of 4 bits; the dense array keeps a byte each. */
    CHECK_OK(tilecheck_byte_size(s4, engines[e], &value, &error));
    CHECK(value == 12);
    CHECK_OK(tilecheck_dense_byte_size(s4, engines[e], &value, &error));
    CHECK(value == 15);
  }
  value = -7;
  CHECK_FAILS(tilecheck_byte_size(figure1, 7, &value, &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK(value == -7);
  CHECK_FAILS(tilecheck_byte_size(NULL, TILECHECK_SPEC, &value, &error),
              TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_dense_byte_size(figure1, TILECHECK_IMPL, NULL, &error),
              TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_element_count(NULL, TILECHECK_IMPL, &value, &error),
              TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_padded_element_count(figure1, -1, &value, &error),
              TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_rank(figure1, NULL, &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_element_bits(NULL, &value, &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK(value == -7);
  tilecheck_layout_free(figure1);
  tilecheck_layout_free(s4);
  tilecheck_layout_free(aligned);
}

static void test_index_and_delinearize(void) {
  tilecheck_error error;
  tilecheck_layout *figure1 = parse_or_die("f32[3,5]{1,0:T(2,2)}");
  tilecheck_layout *scalar = parse_or_die("f32[]{:T(128)}");
  const int64_t element[2] = {2, 3};
  const int64_t outside[2] = {3, 0};
  const int64_t negative[2] = {0, -1};
  int64_t index, found[2];
  int is_element, e;

  for (e = 0; e < 2; ++e) {
    /* Figure 1: element (2,3) -> 17. */
    CHECK_OK(tilecheck_linear_index(figure1, engines[e], element, 2, &index, &error));
    CHECK(index == 17);
    CHECK_OK(tilecheck_delinearize(figure1, engines[e], 17, found, 2, &is_element, &error));
    CHECK(is_element == 1 && found[0] == 2 && found[1] == 3);
    /* Position 9 is tile (0,2), within-tile (0,1): column 5, padding. */
    found[0] = found[1] = -5;
    CHECK_OK(tilecheck_delinearize(figure1, engines[e], 9, found, 2, &is_element, &error));
    CHECK(is_element == 0 && found[0] == -5 && found[1] == -5);
    /* Errors; nothing written. */
    index = -5;
    is_element = -5;
    CHECK_FAILS(tilecheck_linear_index(figure1, engines[e], outside, 2, &index, &error),
                TILECHECK_ERROR_OUT_OF_RANGE);
    CHECK_FAILS(tilecheck_linear_index(figure1, engines[e], negative, 2, &index, &error),
                TILECHECK_ERROR_OUT_OF_RANGE);
    CHECK_FAILS(tilecheck_linear_index(figure1, engines[e], element, 1, &index, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(error.message, "rank 2") != NULL);
    CHECK_FAILS(tilecheck_linear_index(figure1, engines[e], NULL, 2, &index, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS(tilecheck_linear_index(figure1, engines[e], element, 2, NULL, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(index == -5);
    CHECK_FAILS(tilecheck_delinearize(figure1, engines[e], 24, found, 2, &is_element, &error),
                TILECHECK_ERROR_OUT_OF_RANGE);
    CHECK_FAILS(tilecheck_delinearize(figure1, engines[e], -1, found, 2, &is_element, &error),
                TILECHECK_ERROR_OUT_OF_RANGE);
    CHECK_FAILS(tilecheck_delinearize(figure1, engines[e], 0, found, 3, &is_element, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS(tilecheck_delinearize(figure1, engines[e], 0, NULL, 2, &is_element, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS(tilecheck_delinearize(figure1, engines[e], 0, found, 2, NULL, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(is_element == -5 && found[0] == -5);
    /* Rank 0: the element is the empty tuple, NULL is fine (D3 pads it). */
    CHECK_OK(tilecheck_linear_index(scalar, engines[e], NULL, 0, &index, &error));
    CHECK(index == 0);
    CHECK_OK(tilecheck_delinearize(scalar, engines[e], 0, NULL, 0, &is_element, &error));
    CHECK(is_element == 1);
    CHECK_OK(tilecheck_delinearize(scalar, engines[e], 127, NULL, 0, &is_element, &error));
    CHECK(is_element == 0);
  }
  CHECK_FAILS(tilecheck_linear_index(figure1, 2, element, 2, &index, &error),
              TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_delinearize(NULL, TILECHECK_SPEC, 0, found, 2, &is_element, &error),
              TILECHECK_ERROR_INVALID_ARGUMENT);
  tilecheck_layout_free(figure1);
  tilecheck_layout_free(scalar);
}

/* Figure 1, f32: dense element i holds the value 100 + i. */
static void test_pack_unpack_relayout(void) {
  tilecheck_error error;
  tilecheck_layout *figure1 = parse_or_die("f32[3,5]{1,0:T(2,2)}");
  tilecheck_layout *row_major = parse_or_die("f32[3,5]{1,0}");
  tilecheck_layout *other_dims = parse_or_die("f32[5,3]{1,0}");
  tilecheck_layout *other_width = parse_or_die("bf16[3,5]{1,0}");
  tilecheck_layout *empty = parse_or_die("f32[0,5]{1,0:T(2,2)}");
  float dense[15], unpacked[15], physical[24], physical_impl[24], relaid[15];
  unsigned char overlap[200];
  const int64_t element[2] = {2, 3};
  int64_t index;
  int i, e;

  for (i = 0; i < 15; ++i) dense[i] = (float)(100 + i);
  for (e = 0; e < 2; ++e) {
    memset(physical, 0xAA, sizeof physical);
    CHECK_OK(tilecheck_pack(figure1, engines[e], dense, sizeof dense, physical, sizeof physical,
                            &error));
    /* Element (2,3) = dense 13 sits at position 17; position 9 is padding. */
    CHECK_OK(tilecheck_linear_index(figure1, engines[e], element, 2, &index, &error));
    CHECK(physical[index] == 113.0f);
    CHECK(physical[9] == 0.0f);
    memset(unpacked, 0xAA, sizeof unpacked);
    CHECK_OK(tilecheck_unpack(figure1, engines[e], physical, sizeof physical, unpacked,
                              sizeof unpacked, &error));
    CHECK(memcmp(unpacked, dense, sizeof dense) == 0);
    /* Tiled -> row-major is the dense array again. */
    memset(relaid, 0xAA, sizeof relaid);
    CHECK_OK(tilecheck_relayout(figure1, row_major, engines[e], physical, sizeof physical, relaid,
                                sizeof relaid, &error));
    CHECK(memcmp(relaid, dense, sizeof dense) == 0);
    CHECK_OK(tilecheck_relayout(row_major, figure1, engines[e], relaid, sizeof relaid,
                                physical_impl, sizeof physical_impl, &error));
    CHECK(memcmp(physical_impl, physical, sizeof physical) == 0);

    /* Wrong sizes, NULLs, overlap: an error and not a byte written. */
    memset(physical_impl, 0x55, sizeof physical_impl);
    CHECK_FAILS(tilecheck_pack(figure1, engines[e], dense, sizeof dense - 1, physical_impl,
                               sizeof physical_impl, &error),
                TILECHECK_ERROR_BUFFER_SIZE);
    CHECK(strstr(error.message, "dense") != NULL);
    CHECK_FAILS(tilecheck_pack(figure1, engines[e], dense, sizeof dense, physical_impl,
                               sizeof physical_impl - 4, &error),
                TILECHECK_ERROR_BUFFER_SIZE);
    CHECK_FAILS(tilecheck_pack(figure1, engines[e], NULL, sizeof dense, physical_impl,
                               sizeof physical_impl, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS(tilecheck_pack(NULL, engines[e], dense, sizeof dense, physical_impl,
                               sizeof physical_impl, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS(tilecheck_relayout(figure1, row_major, engines[e], physical, sizeof physical,
                                   physical_impl, sizeof relaid + 1, &error),
                TILECHECK_ERROR_BUFFER_SIZE);
    CHECK_FAILS(tilecheck_relayout(figure1, other_dims, engines[e], physical, sizeof physical,
                                   physical_impl, sizeof relaid, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(error.message, "dims") != NULL);
    CHECK_FAILS(tilecheck_relayout(figure1, other_width, engines[e], physical, sizeof physical,
                                   physical_impl, 30, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(error.message, "width") != NULL);
    CHECK_FAILS(tilecheck_relayout(figure1, NULL, engines[e], physical, sizeof physical,
                                   physical_impl, sizeof relaid, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    for (i = 0; i < 24; ++i) CHECK(memcmp(&physical_impl[i], "\x55\x55\x55\x55", 4) == 0);
    memset(unpacked, 0x55, sizeof unpacked);
    CHECK_FAILS(tilecheck_unpack(figure1, engines[e], physical, sizeof physical - 1, unpacked,
                                 sizeof unpacked, &error),
                TILECHECK_ERROR_BUFFER_SIZE);
    CHECK_FAILS(tilecheck_unpack(figure1, engines[e], physical, sizeof physical, unpacked,
                                 sizeof physical, &error),
                TILECHECK_ERROR_BUFFER_SIZE);
    CHECK_FAILS(tilecheck_unpack(figure1, engines[e], physical, sizeof physical, NULL,
                                 sizeof unpacked, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(unpacked[0] == unpacked[14] && memcmp(unpacked, "\x55\x55\x55\x55", 4) == 0);
    memset(overlap, 0, sizeof overlap);
    CHECK_FAILS(tilecheck_pack(figure1, engines[e], overlap + 40, 60, overlap, 96, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(error.message, "overlap") != NULL);
    CHECK_FAILS(tilecheck_unpack(figure1, engines[e], overlap, 96, overlap + 95, 60, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS(
        tilecheck_relayout(figure1, row_major, engines[e], overlap, 96, overlap + 90, 60, &error),
        TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK_FAILS(tilecheck_pack(figure1, 5, dense, sizeof dense, physical, sizeof physical, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    /* A zero-size array has empty buffers, and NULL is fine for them. */
    CHECK_OK(tilecheck_pack(empty, engines[e], NULL, 0, NULL, 0, &error));
    CHECK_OK(tilecheck_unpack(empty, engines[e], NULL, 0, NULL, 0, &error));
    CHECK_OK(tilecheck_relayout(empty, empty, engines[e], NULL, 0, NULL, 0, &error));
  }
  tilecheck_layout_free(figure1);
  tilecheck_layout_free(row_major);
  tilecheck_layout_free(other_dims);
  tilecheck_layout_free(other_width);
  tilecheck_layout_free(empty);
}

/* Every catalogue layout: canonical text, sizes, index/delinearize round trips
   (on sampled positions) and packed bytes agree between the two engines. (c_api_spec_test compares
   the API with the C++ spec called directly.) */
static void test_catalogue(void) {
  size_t n = tilecheck_catalog_size(), i;
  CHECK(n >= 30);
  CHECK(tilecheck_catalog_name(n) == NULL && tilecheck_catalog_layout(n) == NULL);
  CHECK(strcmp(tilecheck_catalog_name(0), "doc_figure1") == 0);
  for (i = 0; i < n; ++i) {
    const char *text = tilecheck_catalog_layout(i);
    tilecheck_layout *layout = parse_or_die(text);
    tilecheck_error error;
    char printed[256];
    int64_t stride, rank, size[2], dense_size[2], count[2], padded[2], p, element[2][16], index;
    unsigned char *dense, *physical[2], *unpacked[2];
    int is_element[2], e, d;

    CHECK(tilecheck_catalog_name(i) != NULL);
    CHECK_OK(tilecheck_layout_print(layout, printed, sizeof printed, NULL, &error));
    CHECK(strcmp(printed, text) == 0);
    CHECK_OK(tilecheck_rank(layout, &rank, &error));
    CHECK(rank <= 16);
    for (e = 0; e < 2; ++e) {
      CHECK_OK(tilecheck_byte_size(layout, engines[e], &size[e], &error));
      CHECK_OK(tilecheck_dense_byte_size(layout, engines[e], &dense_size[e], &error));
      CHECK_OK(tilecheck_element_count(layout, engines[e], &count[e], &error));
      CHECK_OK(tilecheck_padded_element_count(layout, engines[e], &padded[e], &error));
    }
    CHECK(size[0] == size[1] && dense_size[0] == dense_size[1] && count[0] == count[1] &&
          padded[0] == padded[1]);
    /* Every position of small layouts, about 300 spread ones of larger. */
    stride = (padded[0] + 299) / 300;
    for (p = 0; p < padded[0];
         p = (p + stride < padded[0] || p == padded[0] - 1) ? p + stride : padded[0] - 1) {
      for (e = 0; e < 2; ++e) {
        CHECK_OK(
            tilecheck_delinearize(layout, engines[e], p, element[e], rank, &is_element[e], &error));
      }
      CHECK(is_element[0] == is_element[1]);
      if (!is_element[0]) continue;
      CHECK(memcmp(element[0], element[1], (size_t)rank * sizeof(int64_t)) == 0);
      for (e = 0; e < 2; ++e) {
        CHECK_OK(tilecheck_linear_index(layout, engines[e], element[0], rank, &index, &error));
        CHECK(index == p);
      }
    }
    dense = (unsigned char *)malloc((size_t)dense_size[0] + 1);
    unpacked[0] = (unsigned char *)malloc((size_t)dense_size[0] + 1);
    unpacked[1] = (unsigned char *)malloc((size_t)dense_size[0] + 1);
    physical[0] = (unsigned char *)malloc((size_t)size[0] + 1);
    physical[1] = (unsigned char *)malloc((size_t)size[0] + 1);
    for (d = 0; d < dense_size[0]; ++d) dense[d] = (unsigned char)(d * 131 + 7);
    for (e = 0; e < 2; ++e) {
      CHECK_OK(tilecheck_pack(layout, engines[e], dense, (size_t)dense_size[0], physical[e],
                              (size_t)size[0], &error));
    }
    CHECK(size[0] == 0 || memcmp(physical[0], physical[1], (size_t)size[0]) == 0);
    for (e = 0; e < 2; ++e) {
      CHECK_OK(tilecheck_unpack(layout, engines[e], physical[0], (size_t)size[0], unpacked[e],
                                (size_t)dense_size[0], &error));
    }
    CHECK(dense_size[0] == 0 || memcmp(unpacked[0], unpacked[1], (size_t)dense_size[0]) == 0);
    free(dense);
    free(unpacked[0]);
    free(unpacked[1]);
    free(physical[0]);
    free(physical[1]);
    tilecheck_layout_free(layout);
  }
}

/* The batches give, for every element and position of Figure 1, what the
   one-at-a-time calls give, on both engines; a bad row writes nothing. */
static void test_batches(void) {
  tilecheck_layout *layout = parse_or_die("f32[3,5]{1,0:T(2,2)}");
  tilecheck_error error;
  int64_t elements[15 * 2], indices[15], positions[24], rows[24 * 2];
  int is_element[24];
  int e, p, k;
  for (e = 0; e < 15; ++e) {
    elements[2 * e] = e / 5;
    elements[2 * e + 1] = e % 5;
  }
  for (p = 0; p < 24; ++p) positions[p] = p;
  for (k = 0; k < 2; ++k) {
    int padding = 0;
    CHECK(tilecheck_linear_index_batch(layout, engines[k], elements, 15, 2, indices, &error) ==
          TILECHECK_OK);
    for (e = 0; e < 15; ++e) {
      int64_t one = -1;
      CHECK(tilecheck_linear_index(layout, engines[k], elements + 2 * e, 2, &one, NULL) ==
            TILECHECK_OK);
      CHECK(indices[e] == one);
    }
    CHECK(tilecheck_delinearize_batch(layout, engines[k], positions, 24, rows, 2, is_element,
                                      &error) == TILECHECK_OK);
    for (p = 0; p < 24; ++p) {
      if (!is_element[p]) {
        ++padding;
        CHECK(rows[2 * p] == -1 && rows[2 * p + 1] == -1);
        continue;
      }
      CHECK(rows[2 * p] >= 0 && rows[2 * p] < 3 && rows[2 * p + 1] >= 0 && rows[2 * p + 1] < 5);
      CHECK(indices[rows[2 * p] * 5 + rows[2 * p + 1]] == p);
    }
    CHECK(padding == 9);
    /* Element 1 of the batch has a column of 5: nothing written. */
    elements[3] = 5;
    indices[0] = 77;
    CHECK(tilecheck_linear_index_batch(layout, engines[k], elements, 15, 2, indices, &error) ==
          TILECHECK_ERROR_OUT_OF_RANGE);
    CHECK(indices[0] == 77);
    elements[3] = 1;
    positions[23] = 24;
    is_element[0] = 5;
    CHECK(tilecheck_delinearize_batch(layout, engines[k], positions, 24, rows, 2, is_element,
                                      &error) == TILECHECK_ERROR_OUT_OF_RANGE);
    CHECK(is_element[0] == 5);
    positions[23] = 23;
    CHECK(tilecheck_linear_index_batch(layout, engines[k], elements, 15, 3, indices, &error) ==
          TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(tilecheck_linear_index_batch(layout, engines[k], NULL, 0, 2, NULL, &error) ==
          TILECHECK_OK);
  }
  tilecheck_layout_free(layout);
}

/* Strided views (version 3): a 16 x 256 bf16 array inside rows of 300
   elements, packed and unpacked in place by both engines like the
   contiguous copy; then the whole array packed in row slices of 8 rows. */
static void test_strided_and_row_slices(void) {
  enum { R = 16, C = 256, W = 300 };
  static unsigned short big[R * W], contiguous[R * C], back[R * W];
  static unsigned char want[R * C * 2], got[R * C * 2], sliced[R * C * 2];
  const int64_t strides[2] = {W * 2, 2}, bad[2] = {W * 2, 3}, broadcast[2] = {0, 2};
  const int64_t row_major[2] = {C * 2, 2};
  tilecheck_error error;
  tilecheck_layout *layout = parse_or_die("bf16[16,256]{1,0:T(8,128)(2,1)}");
  int64_t span = 0, rows = 0, begin;
  size_t i, k;
  for (i = 0; i < R * W; ++i) big[i] = (unsigned short)(i * 40503u);
  for (i = 0; i < R * C; ++i) contiguous[i] = big[(i / C) * W + i % C];
  CHECK_OK(tilecheck_dense_span_bytes(layout, strides, 2, &span, &error));
  CHECK(span == ((R - 1) * W + C) * 2);
  CHECK_FAILS(tilecheck_dense_span_bytes(layout, bad, 2, &span, &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_FAILS(tilecheck_dense_span_bytes(layout, strides, 1, &span, &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  CHECK_OK(tilecheck_pack(layout, TILECHECK_SPEC, contiguous, sizeof contiguous, want, sizeof want, &error));
  for (k = 0; k < 2; ++k) {
    memset(got, 0xAB, sizeof got);
    CHECK_OK(tilecheck_pack_strided(layout, engines[k], big, (size_t)span, strides, 2, got, sizeof got, &error));
    CHECK(memcmp(got, want, sizeof want) == 0);
    CHECK_FAILS(tilecheck_pack_strided(layout, engines[k], big, (size_t)span - 1, strides, 2, got, sizeof got,
                                       &error), TILECHECK_ERROR_BUFFER_SIZE);
    memset(back, 0xCD, sizeof back);
    CHECK_OK(tilecheck_unpack_strided(layout, engines[k], want, sizeof want, back, (size_t)span, strides, 2,
                                      &error));
    for (i = 0; i < (size_t)R * W; ++i) {
      const int inside = (int)(i % W) < C;
      if (back[i] != (inside ? big[i] : 0xCDCD)) {
        CHECK(back[i] == (inside ? big[i] : 0xCDCD));
        break;
      }
    }
    CHECK_FAILS(tilecheck_unpack_strided(layout, engines[k], want, sizeof want, back, C * 2, broadcast, 2,
                                         &error), TILECHECK_ERROR_INVALID_ARGUMENT);
  }
  CHECK_OK(tilecheck_row_slice_granularity(layout, &rows, &error));
  CHECK(rows == 8);
  memset(sliced, 0xAB, sizeof sliced);
  for (begin = 0; begin < R; begin += rows) {
    tilecheck_layout *slice = NULL;
    int64_t dim = -1, offset = -1, bytes = -1, dense_offset = -1, slice_span = 0;
    CHECK_OK(tilecheck_row_slice(layout, begin, begin + rows, &slice, &dim, &offset, &bytes, &dense_offset,
                                 &error));
    if (slice == NULL) break;
    CHECK(dim == 0 && offset == begin * C * 2 && bytes == rows * C * 2 && dense_offset == begin * C * 2);
    CHECK_OK(tilecheck_dense_span_bytes(slice, row_major, 2, &slice_span, &error));
    CHECK_OK(tilecheck_pack_strided(slice, TILECHECK_IMPL, (const unsigned char *)contiguous + dense_offset,
                                    (size_t)slice_span, row_major, 2, sliced + offset, (size_t)bytes, &error));
    tilecheck_layout_free(slice);
  }
  CHECK(memcmp(sliced, want, sizeof want) == 0);
  {
    tilecheck_layout *slice = NULL;
    int64_t dim, offset, bytes, dense_offset;
    CHECK_FAILS(tilecheck_row_slice(layout, 4, 16, &slice, &dim, &offset, &bytes, &dense_offset, &error),
                TILECHECK_ERROR_INVALID_ARGUMENT);
    CHECK(slice == NULL);
  }
  tilecheck_layout_free(layout);
}

int main(void) {
  test_versions_and_status_names();
  test_parse_and_print();
  test_sizes();
  test_index_and_delinearize();
  test_batches();
  test_pack_unpack_relayout();
  test_strided_and_row_slices();
  test_catalogue();
  if (failures != 0) {
    fprintf(stderr, "c_api_test: %d checks failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
