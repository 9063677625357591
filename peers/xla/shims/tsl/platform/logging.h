// Shim of TSL's logging.h for TransposePlan (peers/xla/shims/README.md).
// CHECK and LOG(FATAL) abort with their message, as in XLA. DCHECK is checked
// in every build, as in XLA's debug builds: the gate then reports a broken
// invariant of TransposePlan as a crash, not as a wrong buffer. VLOG prints
// nothing (the plan's own trace is not part of the protocol's output).
#pragma once

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace tsl::logging_shim {

// Collects a failure's message and aborts when the statement ends.
class Fatal {
 public:
  Fatal(const char* file, int line, const char* what) { message_ << file << ":" << line << ": " << what; }
  ~Fatal() {
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

// Swallows what VLOG would print.
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

}  // namespace tsl::logging_shim

#define CHECK(condition)                     \
  (condition) ? (void)0                      \
              : ::tsl::logging_shim::Voidify() & \
                    ::tsl::logging_shim::Fatal(__FILE__, __LINE__, "Check failed: " #condition " ")
#define CHECK_EQ(a, b) CHECK((a) == (b))
#define CHECK_NE(a, b) CHECK((a) != (b))
#define CHECK_LT(a, b) CHECK((a) < (b))
#define CHECK_LE(a, b) CHECK((a) <= (b))
#define CHECK_GT(a, b) CHECK((a) > (b))
#define CHECK_GE(a, b) CHECK((a) >= (b))

#define DCHECK(condition) CHECK(condition)
#define DCHECK_EQ(a, b) CHECK_EQ(a, b)
#define DCHECK_NE(a, b) CHECK_NE(a, b)
#define DCHECK_LT(a, b) CHECK_LT(a, b)
#define DCHECK_LE(a, b) CHECK_LE(a, b)
#define DCHECK_GT(a, b) CHECK_GT(a, b)
#define DCHECK_GE(a, b) CHECK_GE(a, b)

#define LOG(severity) LOG_##severity
#define LOG_FATAL ::tsl::logging_shim::Fatal(__FILE__, __LINE__, "Fatal: ")

#define VLOG(level) \
  while (false) ::tsl::logging_shim::Null()
#define DVLOG(level) VLOG(level)
