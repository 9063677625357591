// Out of memory at each allocation of a C API call in turn: the call returns
// TILECHECK_ERROR_OUT_OF_MEMORY (no exception crosses the boundary, nothing
// aborts), writes no output, and leaks nothing (LeakSanitizer checks at exit
// in the sanitized build). Allocations are counted by replacing this
// program's global operator new, which the shared library's calls resolve to.
// Plain main, no GoogleTest: nothing else should allocate while a sweep runs.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include <tilecheck/tilecheck.h>

namespace {

// -1: never fail; n >= 0: allocations n, n+1, ... from now on fail.
long allocations_before_failure = -1;

void* allocate(std::size_t size) {
  if (allocations_before_failure == 0) throw std::bad_alloc();
  if (allocations_before_failure > 0) --allocations_before_failure;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

int failures = 0;

// Runs `call` with the first allocation failing, then the second, ... until
// it succeeds; every failing run must say out of memory. Returns how many
// allocations the call needed.
template <class Call>
long sweep(const char* what, Call call) {
  for (long n = 0; n < 100000; ++n) {
    tilecheck_error error;
    allocations_before_failure = n;
    const tilecheck_status status = call(&error);
    allocations_before_failure = -1;
    if (status == TILECHECK_OK) return n;
    if (status != TILECHECK_ERROR_OUT_OF_MEMORY || error.status != status ||
        std::strcmp(error.message, "out of memory") != 0) {
      std::fprintf(stderr, "%s, allocation %ld failing: %s (%s), expected out of memory\n", what, n,
                   tilecheck_status_name(status), error.message);
      ++failures;
      return -1;
    }
  }
  std::fprintf(stderr, "%s never succeeded\n", what);
  ++failures;
  return -1;
}

void expect(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "failed: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  // The catalogue and its strings are built on first use; without memory,
  // size 0 and NULL.
  allocations_before_failure = 0;
  expect(tilecheck_catalog_size() == 0, "catalogue size is 0 when out of memory");
  expect(tilecheck_catalog_name(0) == nullptr, "catalogue name is NULL when out of memory");
  allocations_before_failure = -1;
  expect(tilecheck_catalog_size() > 0, "catalogue size once memory is back");
  expect(tilecheck_catalog_name(0) != nullptr, "catalogue name once memory is back");

  // Small: a sweep over n allocations runs the call n times.
  const char* text = "bf16[3,5]{1,0:T(2,2)(2,1)}";
  tilecheck_layout* sentinel = reinterpret_cast<tilecheck_layout*>(&failures);
  tilecheck_layout* layout = sentinel;
  const long parse_allocations = sweep("parse", [&](tilecheck_error* error) {
    const tilecheck_status status = tilecheck_layout_parse(text, &layout, error);
    if (status != TILECHECK_OK && layout != sentinel) {
      std::fprintf(stderr, "parse wrote its output on failure\n");
      ++failures;
    }
    return status;
  });
  expect(parse_allocations > 0, "parse allocates (the sweep is not vacuous)");
  tilecheck_layout* row_major = nullptr;
  tilecheck_layout_parse("bf16[3,5]{1,0}", &row_major, nullptr);
  if (layout == sentinel || row_major == nullptr) return 1;

  const int64_t element[2] = {2, 3};
  // Final shape (2,3,1,2,2,1): 24 positions of 2 bytes.
  std::vector<unsigned char> dense(3 * 5 * 2, 7), physical(24 * 2), relaid(3 * 5 * 2);
  long spec_allocations = 0;
  for (int engine : {TILECHECK_SPEC, TILECHECK_IMPL}) {
    int64_t index = -1, found[2] = {-1, -1};
    int is_element = -1;
    spec_allocations += sweep("linear_index", [&](tilecheck_error* error) {
      return tilecheck_linear_index(layout, engine, element, 2, &index, error);
    });
    spec_allocations += sweep("delinearize", [&](tilecheck_error* error) {
      return tilecheck_delinearize(layout, engine, index, found, 2, &is_element, error);
    });
    expect(found[0] == 2 && found[1] == 3 && is_element == 1, "delinearize inverts the index");
    spec_allocations += sweep("pack", [&](tilecheck_error* error) {
      return tilecheck_pack(layout, engine, dense.data(), dense.size(), physical.data(),
                            physical.size(), error);
    });
    spec_allocations += sweep("unpack", [&](tilecheck_error* error) {
      return tilecheck_unpack(layout, engine, physical.data(), physical.size(), relaid.data(),
                              relaid.size(), error);
    });
    expect(relaid == dense, "unpack inverts pack");
    spec_allocations += sweep("relayout", [&](tilecheck_error* error) {
      return tilecheck_relayout(layout, row_major, engine, physical.data(), physical.size(),
                                relaid.data(), relaid.size(), error);
    });
    expect(relaid == dense, "relayout to row-major gives the dense array");
    // A wrapper-detected error needs memory for its message too.
    sweep("a wrong-size error", [&](tilecheck_error* error) {
      const tilecheck_status status =
          tilecheck_pack(layout, engine, dense.data(), 1, physical.data(), physical.size(), error);
      return status == TILECHECK_ERROR_BUFFER_SIZE ? TILECHECK_OK : status;
    });
  }
  expect(spec_allocations > 0, "the queries allocate (the sweeps are not vacuous)");
  tilecheck_layout_free(layout);
  tilecheck_layout_free(row_major);
  if (failures != 0) {
    std::fprintf(stderr, "c_api_oom_test: %d checks failed\n", failures);
    return 1;
  }
  std::printf("c_api_oom_test: parse needs %ld allocations; every failing one reported\n",
              parse_allocations);
  return 0;
}
