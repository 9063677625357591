/* Compiled with -std=c90 -pedantic-errors: the C API header is C89. */
#include <tilecheck/tilecheck.h>

int tilecheck_header_c89_check(void) { return TILECHECK_C_API_VERSION; }
