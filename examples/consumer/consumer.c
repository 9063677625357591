/* Asks the tilecheck C API where element (2,3) of the document's Figure 1
   sits, packs the array, and checks both engines agree. Exit 0 when they do. */
#include <stdio.h>
#include <string.h>
#include <tilecheck/tilecheck.h>

int main(void) {
  const char *text = "f32[3,5]{1,0:T(2,2)}";
  const int64_t element[2] = {2, 3};
  float dense[15], physical[2][24];
  int64_t index[2], bytes;
  tilecheck_layout *layout;
  tilecheck_error error;
  int engine, i;

  if (tilecheck_c_api_version() != TILECHECK_C_API_VERSION) {
    fprintf(stderr, "header and library disagree on the C API version\n");
    return 1;
  }
  if (tilecheck_layout_parse(text, &layout, &error) != TILECHECK_OK) {
    fprintf(stderr, "error: %s\n", error.message);
    return 1;
  }
  for (i = 0; i < 15; ++i) dense[i] = (float)i;
  for (engine = TILECHECK_SPEC; engine <= TILECHECK_IMPL; ++engine) {
    if (tilecheck_linear_index(layout, engine, element, 2, &index[engine], &error) !=
            TILECHECK_OK ||
        tilecheck_byte_size(layout, engine, &bytes, &error) != TILECHECK_OK ||
        tilecheck_pack(layout, engine, dense, sizeof dense, physical[engine],
                       sizeof physical[engine], &error) != TILECHECK_OK) {
      fprintf(stderr, "error: %s\n", error.message);
      return 1;
    }
  }
  tilecheck_layout_free(layout);
  printf("tilecheck %s (C API %d): %s element (2,3) -> %lld, %lld bytes\n", tilecheck_version(),
         tilecheck_c_api_version(), text, (long long)index[TILECHECK_IMPL], (long long)bytes);
  return index[0] == 17 && index[1] == 17 && bytes == 96 &&
                 memcmp(physical[0], physical[1], sizeof physical[0]) == 0
             ? 0
             : 1;
}
