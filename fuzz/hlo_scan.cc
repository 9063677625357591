// Fuzz target hlo_scan: arbitrary text -> hlo::read_module_text ->
// check::scan_module (every layout's sizes and validity, every bitcast).
//
// Contract checked, for every input: reading and scanning never crash, throw
// or trip a sanitizer (a line not understood is a warning); every layout of
// the report parses back to itself; a layout's padding never exceeds its
// byte size; the totals are the sums over the layouts' occurrences.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "check/scan.h"
#include "fuzz/check.h"
#include <tilecheck/spec/syntax.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilecheck;
  FuzzedDataProvider input(data, size);
  const std::string text = input.ConsumeRemainingBytesAsString();
  const hlo::Module module = hlo::read_module_text(text);
  check::ScanOptions options;
  options.bitcast_element_limit = 1 << 16;  // walks stay short
  const check::ScanReport report = check::scan_module(module, options);
  __int128 bytes = 0, padding = 0;
  for (const check::ScanLayout& l : report.layouts) {
    FUZZ_CHECK(print_shape(parse_shape(l.layout)) == l.layout, "layout does not reprint: " << l.layout);
    if (l.bytes) {
      FUZZ_CHECK(l.padding_bytes >= 0 && l.padding_bytes <= *l.bytes,
                 l.layout << ": padding " << l.padding_bytes << " of " << *l.bytes);
      bytes += static_cast<__int128>(*l.bytes) * l.count;
      padding += static_cast<__int128>(l.padding_bytes) * l.count;
    }
  }
  const __int128 max = INT64_MAX;
  const bool overflow = bytes > max || padding > max;
  FUZZ_CHECK(overflow == report.totals_overflow, "overflow of the totals not reported");
  FUZZ_CHECK(overflow || (bytes == report.total_bytes && padding == report.total_padding_bytes),
             "totals " << report.total_bytes << "/" << report.total_padding_bytes
                       << " are not the sums of the layouts");
  return 0;
}
