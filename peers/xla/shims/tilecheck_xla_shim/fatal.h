// What the shims of absl/log/check.h and absl/log/log.h share, for an Abseil
// without absl/log (Debian bookworm's 20220623; peers/xla/shims/README.md):
// a failure's message, collected and printed when the statement ends, before
// the program aborts, as Abseil's own CHECK and LOG(FATAL) do.
#pragma once

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace tilecheck_xla_shim {

class Fatal {
 public:
  Fatal(const char* file, int line, const char* what) { message_ << file << ":" << line << ": " << what; }
  [[noreturn]] ~Fatal() {
    std::cerr << message_.str() << std::endl;
    std::abort();
  }
  template <typename T>
  Fatal& operator<<(const T& value) {
    message_ << value;
    return *this;
  }

 private:
  std::ostringstream message_;
};

// Swallows what a log statement that prints nothing would print.
struct Null {
  template <typename T>
  Null& operator<<(const T&) {
    return *this;
  }
};

// Lets `cond ? (void)0 : Voidify() & stream << ...` type-check.
struct Voidify {
  template <typename S>
  void operator&(S&&) {}
};

}  // namespace tilecheck_xla_shim
