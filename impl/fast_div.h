// Floor division of a non-negative int64 by a constant without a hardware
// divide: one 64x64->128 multiply and one shift (Granlund & Montgomery 1994).
//
// For a divisor d >= 1 let l = ceil(log2 d) and m = ceil(2^(63+l) / d). Then
// 2^(63+l) <= m*d <= 2^(63+l) + d - 1 <= 2^(63+l) + 2^l, which is exactly the
// condition under which
//
//   floor(n / d) = floor(n * m / 2^(63+l))   for every 0 <= n < 2^63.
//
// m < 2^64 always (for d = 2^l, m = 2^63; otherwise d > 2^(l-1) bounds it),
// so it fits a uint64; powers of two, d = 1 included, need no special case.
#pragma once

#include <cstdint>

namespace tilecheck::impl {

class FastDiv {
 public:
  FastDiv() : FastDiv(1) {}
  explicit FastDiv(int64_t divisor) : divisor_(divisor), shift_(shift_for(divisor)) {
    const unsigned __int128 numerator = static_cast<unsigned __int128>(1) << shift_;
    const unsigned __int128 d = static_cast<uint64_t>(divisor);
    magic_ = static_cast<uint64_t>((numerator + d - 1) / d);
  }
  // The shift 63 + l, l = ceil(log2 divisor), for a divisor >= 1.
  // proofs/fast_div_proof.h proves the bound above for every shift this
  // returns, over the whole range of divisors it returns it for.
  static int shift_for(int64_t divisor) {
    int l = 0;
    while ((int64_t{1} << l) < divisor && l < 62) ++l;
    if ((int64_t{1} << l) < divisor) l = 63;  // divisor > 2^62
    return 63 + l;
  }
  int64_t divisor() const { return divisor_; }
  uint64_t magic() const { return magic_; }
  int shift() const { return shift_; }
  // Precondition: n >= 0.
  int64_t quotient(int64_t n) const {
    return static_cast<int64_t>((static_cast<unsigned __int128>(static_cast<uint64_t>(n)) * magic_) >>
                                shift_);
  }

 private:
  int64_t divisor_;
  int shift_ = 63;
  uint64_t magic_ = 0;
};

}  // namespace tilecheck::impl
