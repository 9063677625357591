#include "fuzz/check.h"

#include <cstdio>
#include <cstdlib>

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

}  // namespace tilecheck::fuzz
