// The row-interleave kernels (kernels.h): pack and unpack of
// the (2,1), (4,1), (8,1) and (32,1) sub-tiles over a run of columns, and
// of runs of 1-, 2- and 4-bit elements within one row.
// Highway per-target code: included by impl/kernels.cc once per SIMD target
// (hence the toggling include guard, not #pragma once).
#if defined(TILECHECK_IMPL_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TILECHECK_IMPL_ROWS_INL_H_
#undef TILECHECK_IMPL_ROWS_INL_H_
#else
#define TILECHECK_IMPL_ROWS_INL_H_
#endif

#include <cstring>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "impl/kernel_common-inl.h"
#include "impl/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace tilecheck::impl::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Each kernel: a vector loop over whole vectors of columns, then the scalar
// remainder. No vector is an array element: on SVE (Arm) vectors are
// sizeless types, which an array cannot hold, so four vectors are four
// variables.


#if HWY_TARGET != HWY_SCALAR
using D8 = hn::Full128<uint8_t>;
using D16 = hn::Full128<uint16_t>;

// 16 columns of 4 bytes each: out[4c + k] = v_k[c].
template <bool kStream>
HWY_INLINE void Put4Way(hn::Vec<D8> v0, hn::Vec<D8> v1, hn::Vec<D8> v2, hn::Vec<D8> v3, uint8_t* out) {
  const D8 d8;
  const D16 d16;
  const auto ab_lo = hn::BitCast(d16, hn::InterleaveLower(d8, v0, v1));
  const auto ab_hi = hn::BitCast(d16, hn::InterleaveUpper(d8, v0, v1));
  const auto cd_lo = hn::BitCast(d16, hn::InterleaveLower(d8, v2, v3));
  const auto cd_hi = hn::BitCast(d16, hn::InterleaveUpper(d8, v2, v3));
  Put<kStream>(hn::BitCast(d8, hn::InterleaveLower(d16, ab_lo, cd_lo)), d8, out);
  Put<kStream>(hn::BitCast(d8, hn::InterleaveUpper(d16, ab_lo, cd_lo)), d8, out + 16);
  Put<kStream>(hn::BitCast(d8, hn::InterleaveLower(d16, ab_hi, cd_hi)), d8, out + 32);
  Put<kStream>(hn::BitCast(d8, hn::InterleaveUpper(d16, ab_hi, cd_hi)), d8, out + 48);
}

// One vector step of each pack kernel: 8 (16-bit) or 16 (8-bit) columns.
template <bool kStream>
HWY_INLINE void Rows2U16Step(const uint16_t* r0, const uint16_t* r1, uint16_t* out) {
  const D16 d;
  const auto a = hn::LoadU(d, r0), b = hn::LoadU(d, r1);
  Put<kStream>(hn::InterleaveLower(d, a, b), d, out);
  Put<kStream>(hn::InterleaveUpper(d, a, b), d, out + 8);
}
template <bool kStream>
HWY_INLINE void Rows4U8Step(const uint8_t* r, int64_t stride, uint8_t* out) {
  const D8 d;
  Put4Way<kStream>(hn::LoadU(d, r), hn::LoadU(d, r + stride), hn::LoadU(d, r + 2 * stride),
                   hn::LoadU(d, r + 3 * stride), out);
}
template <bool kStream>
HWY_INLINE void Rows8U4Step(const uint8_t* r, int64_t stride, uint8_t* out) {
  const D8 d;
  const auto low = hn::Set(d, 0x0F);
  auto byte = [&](int k) {
    return hn::Or(hn::And(hn::LoadU(d, r + (2 * k) * stride), low),
                  hn::ShiftLeft<4>(hn::LoadU(d, r + (2 * k + 1) * stride)));
  };
  Put4Way<kStream>(byte(0), byte(1), byte(2), byte(3), out);
}
// Bit 0 of each byte of `row`, moved to bit kBit, or-ed into `acc`. Bit 0
// alone shifted left by at most 7 stays in its byte, so a 16-bit shift is
// exact (x86 has no 8-bit one).
template <int kBit, class D>
HWY_INLINE hn::Vec<D> GatherBit(D d, const uint8_t* row, hn::Vec<D> acc) {
  const hn::Repartition<uint16_t, D> d16;
  const auto bit = hn::BitCast(d16, hn::And(hn::LoadU(d, row), hn::Set(d, 1)));
  return hn::Or(acc, hn::BitCast(d, hn::ShiftLeft<kBit>(bit)));
}
// Byte k of the columns at `r`: bit i from row 8k+i.
template <class D>
HWY_INLINE hn::Vec<D> GatherByte(D d, const uint8_t* r, int64_t s, int k) {
  const uint8_t* q = r + (8 * k) * s;
  auto acc = hn::And(hn::LoadU(d, q), hn::Set(d, 1));
  acc = GatherBit<1>(d, q + s, acc);
  acc = GatherBit<2>(d, q + 2 * s, acc);
  acc = GatherBit<3>(d, q + 3 * s, acc);
  acc = GatherBit<4>(d, q + 4 * s, acc);
  acc = GatherBit<5>(d, q + 5 * s, acc);
  acc = GatherBit<6>(d, q + 6 * s, acc);
  acc = GatherBit<7>(d, q + 7 * s, acc);
  return acc;
}
template <bool kStream>
HWY_INLINE void Rows32U1Step(const uint8_t* r, int64_t s, uint8_t* out) {
  const D8 d;
  Put4Way<kStream>(GatherByte(d, r, s, 0), GatherByte(d, r, s, 1), GatherByte(d, r, s, 2), GatherByte(d, r, s, 3),
                   out);
}
// A line (kLineBytes columns) of each of the 32 rows. The rows are often a
// multiple of 4 KiB apart, so they share one L1 set, and 32 lines of one set
// are more than L1's ways: a step of 16 columns over all 32 rows would find
// each line evicted when it comes back for the next 16. Here each group of
// 8 rows is read whole, line by line, into byte k of the 64 columns in
// `stage`, before the next group; then the four bytes are interleaved.
template <bool kStream>
HWY_INLINE void Rows32U1Line(const uint8_t* r, int64_t s, uint8_t* out) {
  const hn::CappedTag<uint8_t, kLineBytes> d;  // SVE's vectors may be wider than a line
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  HWY_ALIGN uint8_t stage[4 * kLineBytes];
  for (int k = 0; k < 4; ++k) {
    for (int64_t j = 0; j < kLineBytes; j += N) hn::Store(GatherByte(d, r + j, s, k), d, stage + k * kLineBytes + j);
  }
  const D8 d8;
  for (int64_t j = 0; j < kLineBytes; j += 16) {
    Put4Way<kStream>(hn::Load(d8, stage + j), hn::Load(d8, stage + kLineBytes + j),
                     hn::Load(d8, stage + 2 * kLineBytes + j), hn::Load(d8, stage + 3 * kLineBytes + j), out + 4 * j);
  }
}
#endif

// Runs `step(c, stream)` over whole vector steps of `lanes` columns, then
// `scalar(c)` over the rest. Streams only with 16-byte-aligned output.
template <class Step, class Scalar>
HWY_INLINE void Columns(int64_t n, int64_t lanes, const void* out, bool stream, Step step, Scalar scalar) {
  int64_t c = 0;
#if HWY_TARGET != HWY_SCALAR
  if (stream && reinterpret_cast<uintptr_t>(out) % 16 == 0) {
    for (; c + lanes <= n; c += lanes) step(c, std::true_type());
  } else {
    for (; c + lanes <= n; c += lanes) step(c, std::false_type());
  }
#else
  (void)lanes, (void)out, (void)stream, (void)step;
#endif
  for (; c < n; ++c) scalar(c);
}

void PackRows2U16(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  const uint16_t* r0 = reinterpret_cast<const uint16_t*>(dense);
  const uint16_t* r1 = reinterpret_cast<const uint16_t*>(dense + row_stride);
  uint16_t* out = reinterpret_cast<uint16_t*>(phys);
  Columns(
      n, 8, out, stream,
      [&](int64_t c, auto s) { Rows2U16Step<decltype(s)::value>(r0 + c, r1 + c, out + 2 * c); },
      [&](int64_t c) {  // bytes: the rows may start anywhere (an unaligned view)
        std::memcpy(phys + 4 * c, dense + 2 * c, 2);
        std::memcpy(phys + 4 * c + 2, dense + row_stride + 2 * c, 2);
      });
}

void PackRows4U8(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  Columns(
      n, 16, phys, stream,
      [&](int64_t c, auto s) { Rows4U8Step<decltype(s)::value>(dense + c, row_stride, phys + 4 * c); },
      [&](int64_t c) {
        for (int k = 0; k < 4; ++k) phys[4 * c + k] = dense[k * row_stride + c];
      });
}

// 4-bit: byte k of a column = row 2k (low nibble) | row 2k+1 (high nibble).
void PackRows8U4(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  Columns(
      n, 16, phys, stream,
      [&](int64_t c, auto s) { Rows8U4Step<decltype(s)::value>(dense + c, row_stride, phys + 4 * c); },
      [&](int64_t c) {
        for (int k = 0; k < 4; ++k) {
          phys[4 * c + k] = static_cast<uint8_t>((dense[(2 * k) * row_stride + c] & 0x0F) |
                                                 (dense[(2 * k + 1) * row_stride + c] << 4));
        }
      });
}

// 1-bit: bit i of byte k of a column = bit 0 of row 8k+i.
// 32 rows are 32 concurrent read streams, more than the hardware
// prefetcher follows: each step that starts a cache line of the rows asks
// for their lines kRowsAhead bytes further on.
constexpr int64_t kRowsAhead = 512;
void PackRows32U1(const uint8_t* dense, int64_t row_stride, uint8_t* phys, int64_t n, bool stream) {
  int64_t lines = 0;
#if HWY_TARGET != HWY_SCALAR
  auto by_line = [&](auto s) {
    for (; lines + kLineBytes <= n; lines += kLineBytes) {
      if (lines + kRowsAhead < n) {
        for (int r = 0; r < 32; ++r) hwy::Prefetch(dense + r * row_stride + lines + kRowsAhead);
      }
      Rows32U1Line<decltype(s)::value>(dense + lines, row_stride, phys + 4 * lines);
    }
  };
  stream && reinterpret_cast<uintptr_t>(phys) % 16 == 0 ? by_line(std::true_type()) : by_line(std::false_type());
#endif
  const uint8_t* rest = dense + lines;
  uint8_t* rest_out = phys + 4 * lines;
  Columns(
      n - lines, 16, rest_out, stream,
      [&](int64_t c, auto s) { Rows32U1Step<decltype(s)::value>(rest + c, row_stride, rest_out + 4 * c); },
      [&](int64_t c) {
        for (int k = 0; k < 4; ++k) {
          uint8_t v = 0;
          for (int i = 0; i < 8; ++i) v |= static_cast<uint8_t>((rest[(8 * k + i) * row_stride + c] & 1) << i);
          rest_out[4 * c + k] = v;
        }
      });
}

void UnpackRows2U16(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint16_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const uint16_t* in = reinterpret_cast<const uint16_t*>(phys);
  uint16_t* r0 = reinterpret_cast<uint16_t*>(dense);
  uint16_t* r1 = reinterpret_cast<uint16_t*>(dense + row_stride);
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> a, b;
    hn::LoadInterleaved2(d, in + 2 * c, a, b);
    hn::StoreU(a, d, r0 + c);
    hn::StoreU(b, d, r1 + c);
  }
  for (; c < n; ++c) {  // bytes: the rows may start anywhere (an unaligned view)
    std::memcpy(dense + 2 * c, phys + 4 * c, 2);
    std::memcpy(dense + row_stride + 2 * c, phys + 4 * c + 2, 2);
  }
}


void UnpackRows4U8(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  uint8_t* r[4] = {dense, dense + row_stride, dense + 2 * row_stride, dense + 3 * row_stride};
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> a, b, e, f;
    hn::LoadInterleaved4(d, phys + 4 * c, a, b, e, f);
    hn::StoreU(a, d, r[0] + c);
    hn::StoreU(b, d, r[1] + c);
    hn::StoreU(e, d, r[2] + c);
    hn::StoreU(f, d, r[3] + c);
  }
  for (; c < n; ++c) {
    for (int k = 0; k < 4; ++k) r[k][c] = phys[4 * c + k];
  }
}

// The value of a nibble or bit already in a byte's low bits, as the dense
// byte holds it: zero-extended, or sign-extended for a signed type
// (docs/PROTOCOL.md, "Dense buffers").
// Sign extension as (v ^ s) - s, s the value's top bit: two byte-wise
// operations, where x86 has no 8-bit shift to move the bit up and back.
template <bool kSigned, int kBits, class D>
HWY_INLINE hn::Vec<D> Extend(D d, hn::Vec<D> low_bits) {
  if constexpr (kSigned) {
    const auto top = hn::Set(d, static_cast<uint8_t>(1u << (kBits - 1)));
    return hn::Sub(hn::Xor(low_bits, top), top);
  } else {
    return low_bits;
  }
}
template <bool kSigned, int kBits>
HWY_INLINE uint8_t ExtendScalar(uint8_t low_bits) {
  if constexpr (kSigned) {
    return static_cast<uint8_t>(static_cast<int8_t>(static_cast<uint8_t>(low_bits << (8 - kBits))) >> (8 - kBits));
  } else {
    return low_bits;
  }
}

template <bool kStream, bool kSigned>
void UnpackRows8U4Impl(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto low = hn::Set(d, 0x0F);
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> b0, b1, b2, b3;
    hn::LoadInterleaved4(d, phys + 4 * c, b0, b1, b2, b3);
    auto put = [&](int k, hn::Vec<decltype(d)> b) {
      Put<kStream>(Extend<kSigned, 4>(d, hn::And(b, low)), d, dense + (2 * k) * row_stride + c);
      Put<kStream>(Extend<kSigned, 4>(d, hn::ShiftRight<4>(b)), d, dense + (2 * k + 1) * row_stride + c);
    };
    put(0, b0), put(1, b1), put(2, b2), put(3, b3);
  }
  for (; c < n; ++c) {
    for (int k = 0; k < 4; ++k) {
      dense[(2 * k) * row_stride + c] = ExtendScalar<kSigned, 4>(phys[4 * c + k] & 0x0F);
      dense[(2 * k + 1) * row_stride + c] = ExtendScalar<kSigned, 4>(phys[4 * c + k] >> 4);
    }
  }
}

// Runs an unpack kernel into kRows dense rows, 4 physical bytes per
// column (`impl(stream, sign, phys, dense, row_stride, n)`, stream and sign
// as std::bool_constant), with the stores row_stores picks (kernels.h):
// blocks of whole lines per row staged in L1 and streamed out, vectors
// streamed straight to the rows, or cached stores.
template <int64_t kRows, class Impl>
HWY_INLINE void UnpackRowsStored(Impl impl, const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n,
                                 bool stream, bool sign) {
  auto run = [&](auto streamed, const uint8_t* p, uint8_t* d, int64_t rs, int64_t cols) {
    sign ? impl(streamed, std::true_type(), p, d, rs, cols) : impl(streamed, std::false_type(), p, d, rs, cols);
  };
  switch (RowStoresHere(stream, dense, row_stride, n)) {
    case RowStores::kStagedLines: {
      HWY_ALIGN uint8_t stage[kRows * kLineBytes];
      for (int64_t c = 0; c < n; c += kLineBytes) {
        run(std::false_type(), phys + 4 * c, stage, kLineBytes, kLineBytes);
        StreamRuns(stage, kLineBytes, kRows, dense + c, row_stride);
      }
      break;
    }
    case RowStores::kStreamed:
      run(std::true_type(), phys, dense, row_stride, n);
      break;
    case RowStores::kCached:
      run(std::false_type(), phys, dense, row_stride, n);
      break;
  }
}

void UnpackRows8U4(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream,
                   bool sign) {
  UnpackRowsStored<8>(
      [](auto streamed, auto sign_extend, auto... args) {
        UnpackRows8U4Impl<decltype(streamed)::value, decltype(sign_extend)::value>(args...);
      },
      phys, dense, row_stride, n, stream, sign);
}

// 1-bit: bit i of byte k of a column = bit 0 of row 8k+i.
template <bool kStream, bool kSigned, int kBit, class D>
HWY_INLINE void ScatterBit(D d, hn::Vec<D> v, uint8_t* row) {
  Put<kStream>(Extend<kSigned, 1>(d, hn::And(hn::ShiftRight<kBit>(v), hn::Set(d, 1))), d, row);
}

template <bool kStream, bool kSigned>
void UnpackRows32U1Impl(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t c = 0;
  for (; c + N <= n; c += N) {
    hn::Vec<decltype(d)> b0, b1, b2, b3;
    hn::LoadInterleaved4(d, phys + 4 * c, b0, b1, b2, b3);
    auto scatter = [&](int k, hn::Vec<decltype(d)> b) {
      uint8_t* r = dense + (8 * k) * row_stride + c;
      ScatterBit<kStream, kSigned, 0>(d, b, r);
      ScatterBit<kStream, kSigned, 1>(d, b, r + row_stride);
      ScatterBit<kStream, kSigned, 2>(d, b, r + 2 * row_stride);
      ScatterBit<kStream, kSigned, 3>(d, b, r + 3 * row_stride);
      ScatterBit<kStream, kSigned, 4>(d, b, r + 4 * row_stride);
      ScatterBit<kStream, kSigned, 5>(d, b, r + 5 * row_stride);
      ScatterBit<kStream, kSigned, 6>(d, b, r + 6 * row_stride);
      ScatterBit<kStream, kSigned, 7>(d, b, r + 7 * row_stride);
    };
    scatter(0, b0), scatter(1, b1), scatter(2, b2), scatter(3, b3);
  }
  for (; c < n; ++c) {
    for (int k = 0; k < 4; ++k) {
      for (int i = 0; i < 8; ++i)
        dense[(8 * k + i) * row_stride + c] = ExtendScalar<kSigned, 1>((phys[4 * c + k] >> i) & 1);
    }
  }
}

void UnpackRows32U1(const uint8_t* phys, uint8_t* dense, int64_t row_stride, int64_t n, bool stream,
                    bool sign) {
  UnpackRowsStored<32>(
      [](auto streamed, auto sign_extend, auto... args) {
        UnpackRows32U1Impl<decltype(streamed)::value, decltype(sign_extend)::value>(args...);
      },
      phys, dense, row_stride, n, stream, sign);
}

// Runs of 1-, 2- or 4-bit elements (kernels.h, pack_sub_byte_runs): byte k
// of a run holds its elements per*k .. per*k + per-1 (per = 8 / kBits),
// element per*k + j in bits [j*kBits, (j+1)*kBits). A vector of N physical
// bytes is N*per dense bytes: de-interleaved per ways (LoadInterleaved2/4)
// for 4 and 2 bits, and for 1 bit one mask bit per dense byte, which is the
// same order (StoreMaskBits: lane i in bit i%8 of byte i/8).
template <int kBits>
HWY_INLINE uint8_t PackByteScalar(const uint8_t* in) {
  constexpr int per = 8 / kBits;
  constexpr unsigned mask = (1u << kBits) - 1;
  unsigned v = 0;
  for (int j = 0; j < per; ++j) v |= (in[j] & mask) << (j * kBits);
  return static_cast<uint8_t>(v);
}

// One run: `bytes` physical bytes at `out` from the dense bytes at `in`.
template <int kBits>
HWY_INLINE void PackSubByteRun(const uint8_t* in, uint8_t* out, int64_t bytes) {
  constexpr int64_t per = 8 / kBits;
  int64_t k = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto low = hn::Set(d, static_cast<uint8_t>((1u << kBits) - 1));
  if constexpr (kBits == 4) {
    // Per 16-bit lane, the two elements' low nibbles, then the upper one
    // shifted down next to the lower: the physical byte in the lane's low
    // byte, which ConcatEven gathers (one cross-lane step per vector, where
    // splitting the elements apart takes two).
    const hn::RepartitionToWide<decltype(d)> d16;
    const auto nibbles = hn::Set(d16, 0x0F0F);
    auto pair = [&](const uint8_t* p) {
      const auto w = hn::And(hn::BitCast(d16, hn::LoadU(d, p)), nibbles);
      return hn::BitCast(d, hn::Or(w, hn::ShiftRight<4>(w)));
    };
    for (; k + N <= bytes; k += N) hn::StoreU(hn::ConcatEven(d, pair(in + 2 * k + N), pair(in + 2 * k)), d, out + k);
  } else if constexpr (kBits == 2) {
    for (; k + N <= bytes; k += N) {
      hn::Vec<decltype(d)> e0, e1, e2, e3;
      hn::LoadInterleaved4(d, in + 4 * k, e0, e1, e2, e3);
      const auto lo = hn::Or(hn::And(e0, low), hn::ShiftLeft<2>(hn::And(e1, low)));
      const auto hi = hn::Or(hn::And(e2, low), hn::ShiftLeft<2>(e3));
      hn::StoreU(hn::Or(lo, hn::ShiftLeft<4>(hi)), d, out + k);
    }
  } else {
    const int64_t M = N / 8;  // physical bytes per vector of dense bytes
    for (; k + M <= bytes; k += M) hn::StoreMaskBits(d, hn::TestBit(hn::LoadU(d, in + 8 * k), low), out + k);
  }
#endif
  for (; k < bytes; ++k) out[k] = PackByteScalar<kBits>(in + per * k);
}

// One run: the dense bytes at `out` from `bytes` physical bytes at `in`.
template <int kBits, bool kSigned>
HWY_INLINE void UnpackSubByteRun(const uint8_t* in, uint8_t* out, int64_t bytes) {
  constexpr int64_t per = 8 / kBits;
  constexpr unsigned mask = (1u << kBits) - 1;
  int64_t k = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto low = hn::Set(d, static_cast<uint8_t>(mask));
  if constexpr (kBits == 4) {
    for (; k + N <= bytes; k += N) {
      const auto b = hn::LoadU(d, in + k);
      hn::StoreInterleaved2(Extend<kSigned, 4>(d, hn::And(b, low)), Extend<kSigned, 4>(d, hn::ShiftRight<4>(b)), d,
                            out + 2 * k);
    }
  } else if constexpr (kBits == 2) {
    for (; k + N <= bytes; k += N) {
      const auto b = hn::LoadU(d, in + k);
      hn::StoreInterleaved4(Extend<kSigned, 2>(d, hn::And(b, low)),
                            Extend<kSigned, 2>(d, hn::And(hn::ShiftRight<2>(b), low)),
                            Extend<kSigned, 2>(d, hn::And(hn::ShiftRight<4>(b), low)),
                            Extend<kSigned, 2>(d, hn::ShiftRight<6>(b)), d, out + 4 * k);
    }
  } else {
    const int64_t M = N / 8;  // physical bytes per vector of dense bytes
    for (; k + M <= bytes; k += M) {
      const auto set = hn::LoadMaskBits(d, in + k);
      // A set bit is 1, or -1 (all ones) sign-extended.
      hn::StoreU(kSigned ? hn::VecFromMask(d, set) : hn::IfThenElseZero(set, low), d, out + 8 * k);
    }
  }
#endif
  for (; k < bytes; ++k) {
    for (int64_t j = 0; j < per; ++j) out[per * k + j] = ExtendScalar<kSigned, kBits>((in[k] >> (j * kBits)) & mask);
  }
}

void PackSubByteRuns(int bits, const uint8_t* dense, int64_t dense_stride, uint8_t* phys, int64_t phys_stride,
                     int64_t count, int64_t bytes) {
  auto runs = [&](auto run) {
    for (int64_t i = 0; i < count; ++i) run(dense + i * dense_stride, phys + i * phys_stride, bytes);
  };
  switch (bits) {
    case 4: return runs([](auto... a) { PackSubByteRun<4>(a...); });
    case 2: return runs([](auto... a) { PackSubByteRun<2>(a...); });
    default: return runs([](auto... a) { PackSubByteRun<1>(a...); });
  }
}

void UnpackSubByteRuns(int bits, const uint8_t* phys, int64_t phys_stride, uint8_t* dense, int64_t dense_stride,
                       int64_t count, int64_t bytes, bool sign) {
  auto runs = [&](auto run) {
    for (int64_t i = 0; i < count; ++i) run(phys + i * phys_stride, dense + i * dense_stride, bytes);
  };
  auto with_sign = [&](auto bits_c) {
    constexpr int kBits = decltype(bits_c)::value;
    sign ? runs([](auto... a) { UnpackSubByteRun<kBits, true>(a...); })
         : runs([](auto... a) { UnpackSubByteRun<kBits, false>(a...); });
  };
  switch (bits) {
    case 4: return with_sign(std::integral_constant<int, 4>());
    case 2: return with_sign(std::integral_constant<int, 2>());
    default: return with_sign(std::integral_constant<int, 1>());
  }
}

}  // namespace tilecheck::impl::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // TILECHECK_IMPL_ROWS_INL_H_
