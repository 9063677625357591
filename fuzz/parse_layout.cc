// Fuzz target parse_layout: arbitrary text -> parse_any_shape (arrays,
// tuples, every construct XLA prints).
//
// Contract checked, for every input:
//   - parse_any_shape either returns or throws tilecheck::Error (nothing
//     else: no other exception, no crash, no sanitizer report);
//   - on success, p = print_any_shape(s) parses back to s, and printing is
//     canonical: print_any_shape(parse_any_shape(p)) == p;
//   - for every array of s, spec::validate either accepts or throws Error,
//     and once it accepts, every size the oracle computes (tiled shape,
//     padded count, byte sizes) is computable without throwing (validate
//     promises exactly that); XLA's sizes and the validity check return or
//     throw Error.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "fuzz/check.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

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

// XLA's model answers or throws Error, never anything else.
void check_xla_model(const ShapeWithLayout& shape) {
  try {
    xla::validity_problems(shape);
    xla::byte_size_of(shape);
    xla::array_size(shape);
    xla::compare_sizes(shape);
  } catch (const Error&) {
  }
}

}  // namespace
}  // namespace tilecheck::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilecheck;
  FuzzedDataProvider input(data, size);
  const std::string text = input.ConsumeRemainingBytesAsString();
  Shape shape;
  try {
    shape = parse_any_shape(text);
  } catch (const Error&) {
    return 0;
  }
  const std::string printed = print_any_shape(shape);
  Shape reparsed;
  try {
    reparsed = parse_any_shape(printed);
  } catch (const Error& e) {
    FUZZ_CHECK(false, "print of a parsed shape does not parse: '" << printed << "': " << e.what());
  }
  FUZZ_CHECK(reparsed == shape, "parse(print(s)) != s for '" << printed << "'");
  const std::string reprinted = print_any_shape(reparsed);
  FUZZ_CHECK(reprinted == printed, "printing is not canonical: '" << printed << "' then '"
                                                                  << reprinted << "'");
  for (const Leaf& leaf : array_leaves(shape)) {
    fuzz::check_oracle_sizes(*leaf.array, print_shape(*leaf.array));
    fuzz::check_xla_model(*leaf.array);
  }
  return 0;
}
