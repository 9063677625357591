// How a fuzz target reports a bug: print what disagreed, then abort. libFuzzer
// (and ClusterFuzz, and the replay driver under ctest) records an abort as a
// crash together with the input that caused it.
//
// Inputs the spec rejects are not bugs: the targets catch tilecheck::Error
// where rejection is expected. Anything else that escapes (another exception,
// a sanitizer report) is a bug too.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <tilecheck/testing/agreement.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::fuzz {

[[noreturn]] void report_bug(const char* condition, const std::string& detail);

// Streams a coordinate vector or a byte buffer as (a,b,c), for messages.
struct Listed {
  std::vector<int64_t> values;
  explicit Listed(std::span<const int64_t> v) : values(v.begin(), v.end()) {}
  explicit Listed(std::span<const uint8_t> v) : values(v.begin(), v.end()) {}
};
std::ostream& operator<<(std::ostream& out, const Listed& listed);

// Streams a shape as its text (print_shape), for messages: printing happens
// only when a check fails, not on every input.
struct Printed {
  const ShapeWithLayout& shape;
};
std::ostream& operator<<(std::ostream& out, const Printed& printed);

// Why `f` threw tilecheck::Error, or nullopt if it returned.
template <class F>
std::optional<std::string> error_of(F f) {
  try {
    f();
    return std::nullopt;
  } catch (const Error& e) {
    return std::string(e.what());
  }
}

}  // namespace tilecheck::fuzz

// FUZZ_CHECK(condition, a << b << ...): the message is built only on failure,
// so checks cost nothing on the hot path.
#define FUZZ_CHECK(condition, message)                                  \
  do {                                                                  \
    if (!(condition)) {                                                 \
      std::ostringstream fuzz_check_detail;                             \
      fuzz_check_detail << message;                                     \
      ::tilecheck::fuzz::report_bug(#condition, fuzz_check_detail.str()); \
    }                                                                   \
  } while (0)

// FUZZ_AGREE(agreement, a << b << ...): a disagreement with the spec
// (tilecheck/testing/agreement.h) is a bug; the message is the context, then what
// disagreed.
#define FUZZ_AGREE(agreement, context)                                        \
  do {                                                                        \
    const ::tilecheck::check::Agreement fuzz_agreement = (agreement);         \
    FUZZ_CHECK(!fuzz_agreement, context << ": " << fuzz_agreement->text());   \
  } while (0)
