#include "proofs/overflow.h"

#include <algorithm>

namespace tilecheck::proofs {

spec::DivMod<__int128> Int128Domain::div_mod(__int128 x, __int128 t) const {
  if (t <= 0) throw Error("division by a non-positive value (internal error)");
  __int128 q = x / t, r = x % t;
  if (r < 0) {
    q -= 1;
    r += t;
  }
  return {q, r};
}

__int128 Int128Domain::ceil_div(__int128 x, __int128 t) const {
  const spec::DivMod<__int128> qr = div_mod(x, t);
  return qr.remainder == 0 ? qr.quotient : qr.quotient + 1;
}

std::string to_string(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  for (; u > 0; u /= 10) digits += static_cast<char>('0' + static_cast<int>(u % 10));
  if (negative) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::optional<std::string> first_escape(const std::vector<RecordedStep<__int128>>& steps) {
  constexpr __int128 kMin = -(static_cast<__int128>(1) << 63), kLimit = static_cast<__int128>(1) << 63;
  for (size_t i = 0; i < steps.size(); ++i) {
    const RecordedStep<__int128>& s = steps[i];
    const bool dividend = std::string(s.what) == "dividend";
    if (s.value >= kLimit || s.value < (dividend ? 0 : kMin)) {
      return std::string("step ") + std::to_string(i + 1) + " (" + s.what + ") is " +
             to_string(s.value) + (dividend ? ", a dividend outside [0, 2^63)"
                                            : ", outside int64");
    }
  }
  return std::nullopt;
}

}  // namespace tilecheck::proofs
