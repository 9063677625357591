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

}  // namespace tilecheck::fuzz
