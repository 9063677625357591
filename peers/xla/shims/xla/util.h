// Shim of XLA's util.h (peers/xla/shims/README.md): the two error
// constructors and three integer helpers transpose.cc calls, and, where the
// build took them from the checkout (peers/xla/extract_intn.py), XLA's own
// sub-byte packing functions, PackIntN and UnpackIntN.
#pragma once

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "xla/status.h"

namespace xla {

template <typename... Args>
Status InvalidArgument(const absl::FormatSpec<Args...>& format, const Args&... args) {
  return absl::InvalidArgumentError(absl::StrFormat(format, args...));
}

template <typename... Args>
Status Unimplemented(const absl::FormatSpec<Args...>& format, const Args&... args) {
  return absl::UnimplementedError(absl::StrFormat(format, args...));
}

// Quotient and remainder, rounded towards -inf or +inf, without forming
// dividend + divisor - 1 (which overflows near the top of int64), as TSL's
// MathUtil computes them.
template <typename T>
constexpr T FloorOfRatio(T dividend, T divisor) {
  const T q = dividend / divisor;
  return (dividend % divisor != 0 && ((dividend < 0) != (divisor < 0))) ? q - 1 : q;
}

template <typename T>
constexpr T CeilOfRatio(T dividend, T divisor) {
  const T q = dividend / divisor;
  return (dividend % divisor != 0 && ((dividend < 0) == (divisor < 0))) ? q + 1 : q;
}

template <typename T>
constexpr T RoundUpTo(T value, T divisor) {
  return CeilOfRatio(value, divisor) * divisor;
}

}  // namespace xla

#if __has_include("xla_intn.h")
#include "xla_intn.h"
#endif
