#include "fuzz/check.h"

#include <cstdio>
#include <cstdlib>

#include <tilecheck/spec/syntax.h>

namespace tilecheck::fuzz {

void report_bug(const char* condition, const std::string& detail) {
  std::fprintf(stderr, "\n== tilecheck fuzz: check failed: %s\n   %s\n", condition, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

std::ostream& operator<<(std::ostream& out, const Listed& listed) {
  out << '(';
  for (size_t i = 0; i < listed.values.size(); ++i) out << (i ? "," : "") << listed.values[i];
  return out << ')';
}

std::ostream& operator<<(std::ostream& out, const Printed& printed) {
  return out << print_shape(printed.shape);
}

std::string first_difference(std::span<const uint8_t> got, std::span<const uint8_t> want) {
  if (got.size() != want.size()) {
    return "sizes " + std::to_string(got.size()) + " and " + std::to_string(want.size());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      return "first difference at byte " + std::to_string(i) + ": got " +
             std::to_string(got[i]) + ", want " + std::to_string(want[i]);
    }
  }
  return "no difference";
}

}  // namespace tilecheck::fuzz
