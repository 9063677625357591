// Fuzz target parse_layout: arbitrary text -> parse_shape.
//
// Contract checked, for every input:
//   - parse_shape either returns or throws tilecheck::Error (nothing else:
//     no other exception, no crash, no sanitizer report);
//   - on success, p = print_shape(s) parses back to s, and printing is
//     canonical: print_shape(parse_shape(p)) == p;
//   - spec::validate(s) either accepts or throws Error, and once it accepts,
//     every size the oracle computes (tiled shape, padded count, byte sizes)
//     is computable without throwing (validate promises exactly that).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "fuzz/check.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::fuzz {
namespace {

void check_oracle_sizes(const ShapeWithLayout& shape, const std::string& printed) {
  try {
    spec::validate(shape);
  } catch (const Error&) {
    return;  // too large, symbolic, ...: a clear rejection is the contract
  }
  try {
    spec::tiled_shape(shape);
    spec::padded_element_count(shape);
    spec::byte_size(shape);
    spec::dense_byte_size(shape);
    spec::element_count(shape);
  } catch (const Error& e) {
    FUZZ_CHECK(false, printed << " passed validate but a size threw: " << e.what());
  }
}

}  // namespace
}  // namespace tilecheck::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilecheck;
  FuzzedDataProvider input(data, size);
  const std::string text = input.ConsumeRemainingBytesAsString();
  ShapeWithLayout shape;
  try {
    shape = parse_shape(text);
  } catch (const Error&) {
    return 0;
  }
  const std::string printed = print_shape(shape);
  ShapeWithLayout reparsed;
  try {
    reparsed = parse_shape(printed);
  } catch (const Error& e) {
    FUZZ_CHECK(false, "print of a parsed shape does not parse: '" << printed << "': " << e.what());
  }
  FUZZ_CHECK(reparsed == shape, "parse(print(s)) != s for '" << printed << "'");
  const std::string reprinted = print_shape(reparsed);
  FUZZ_CHECK(reprinted == printed, "printing is not canonical: '" << printed << "' then '"
                                                                  << reprinted << "'");
  fuzz::check_oracle_sizes(shape, printed);
  return 0;
}
