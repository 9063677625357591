// The integer domain the spec's arithmetic is written over.
//
// The semantics in tilecheck/spec/semantics.h are templates over a domain `A`, so that
// the very same code runs on checked int64 (the oracle) and on Z3 terms (the
// proofs), as Alive2 does with its smt::expr. A domain provides:
//
//   typename A::Value, typename A::Bool
//   Value a.constant(int64_t c)
//   Value a.add(Value x, Value y)          x + y
//   Value a.mul(Value x, Value y)          x * y
//   DivMod a.div_mod(Value x, Value t)     {floor(x / t), x mod t}, for x >= 0, t >= 1
//   Value a.ceil_div(Value x, Value t)     ceil(x / t), for x >= 0, t >= 1
//   Bool  a.less(Value x, Value y)         x < y
//   Bool  a.both(Bool p, Bool q)           p and q
//   Bool  a.truth(bool b)
//
// A symbolic domain is free to introduce a fresh quotient/remainder pair with
// its defining constraints (x = t*q + r, 0 <= r < t) for each div_mod, which
// keeps queries linear when t is a constant.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#if __has_include(<memory_resource>)
#include <memory_resource>
#define TILECHECK_COLUMN_POOL 1
#else
#define TILECHECK_COLUMN_POOL 0
#endif

#include <tilecheck/spec/model.h>

namespace tilecheck::spec {

template <class Value>
struct DivMod {
  Value quotient;
  Value remainder;
};

// Checked int64: every operation that would leave int64 throws Error instead
// of wrapping (D9).
struct Int64Domain {
  using Value = int64_t;
  using Bool = bool;

  Value constant(int64_t c) const { return c; }
  Value add(Value x, Value y) const {
    Value r;
    if (__builtin_add_overflow(x, y, &r)) overflow(x, "+", y);
    return r;
  }
  Value mul(Value x, Value y) const {
    Value r;
    if (__builtin_mul_overflow(x, y, &r)) overflow(x, "*", y);
    return r;
  }
  DivMod<Value> div_mod(Value x, Value t) const {
    require_divisor(t);
    // Floor division; x >= 0 in every use, but stay exact for x < 0 too.
    Value q = x / t, r = x % t;
    if (r < 0) {
      q -= 1;
      r += t;
    }
    return {q, r};
  }
  Value ceil_div(Value x, Value t) const {
    require_divisor(t);
    const DivMod<Value> qr = div_mod(x, t);
    return qr.remainder == 0 ? qr.quotient : add(qr.quotient, 1);
  }
  Bool less(Value x, Value y) const { return x < y; }
  Bool both(Bool p, Bool q) const { return p && q; }
  Bool truth(bool b) const { return b; }

 private:
  [[noreturn]] static void overflow(Value x, const char* op, Value y) {
    throw Error("int64 overflow computing " + std::to_string(x) + " " + op + " " +
                std::to_string(y) + "; the shape is too large");
  }
  static void require_divisor(Value t) {
    if (t <= 0) throw Error("division by " + std::to_string(t) + " (internal error)");
  }
};

// The most elements the reference pack and unpack index at once (one
// batch: the length of every column they make).
inline constexpr int64_t kColumnBatch = 4096;

// Where a column's entries live: a pool of this thread's, kept for the
// thread's life. A batch of elements makes dozens of short-lived columns of
// the same size; from the general heap each would be an allocation of its own
// (and, in a sanitizer build, a recorded stack trace and fresh pages each),
// from the pool they reuse the same blocks. Stateless, so a copied or moved
// column's entries stay in the pool too. A standard library without
// <memory_resource> (libc++ before 16, as Debian's emscripten has it, for the
// layout explorer) takes the entries from the general heap instead.
template <class T>
struct ColumnAllocator {
  using value_type = T;
  ColumnAllocator() = default;
  template <class U>
  ColumnAllocator(const ColumnAllocator<U>&) {}
  friend bool operator==(ColumnAllocator, ColumnAllocator) { return true; }
#if TILECHECK_COLUMN_POOL
  T* allocate(size_t n) { return static_cast<T*>(pool().allocate(n * sizeof(T), alignof(T))); }
  void deallocate(T* p, size_t n) { pool().deallocate(p, n * sizeof(T), alignof(T)); }

 private:
  static std::pmr::memory_resource& pool() {
    // Blocks up to a whole batch's column are pooled.
    thread_local std::pmr::unsynchronized_pool_resource resource(
        std::pmr::pool_options{0, kColumnBatch * sizeof(int64_t)});
    return resource;
  }
#else
  T* allocate(size_t n) { return std::allocator<T>{}.allocate(n); }
  void deallocate(T* p, size_t n) { std::allocator<T>{}.deallocate(p, n); }
#endif
};

// Checked int64 on columns: a Value is one int64 per element of a batch, or
// one int64 for every element (a constant, a bound: no allocation), and each
// operation applies Int64Domain's to every element, with the same checks. The
// reference pack and unpack run linear_index_with_tile over it for a batch
// of elements at once: the same formulas, with one column per operation per
// batch instead of several allocations per element.
struct Column {
  std::vector<int64_t, ColumnAllocator<int64_t>> entries;  // one per element; empty: `same` for every element
  int64_t same = 0;
  int64_t operator[](size_t i) const { return entries.empty() ? same : entries[i]; }
};

struct ColumnDomain {
  using Entries = decltype(Column::entries);
  using Value = Column;
  using Bool = Column;  // entries 0 or 1

  Value constant(int64_t c) const { return {{}, c}; }
  Value add(const Value& x, const Value& y) const {
    return map(x, y, [](int64_t p, int64_t q) { return Int64Domain{}.add(p, q); });
  }
  Value mul(const Value& x, const Value& y) const {
    return map(x, y, [](int64_t p, int64_t q) { return Int64Domain{}.mul(p, q); });
  }
  DivMod<Value> div_mod(const Value& x, const Value& t) const {
    if (x.entries.empty() && t.entries.empty()) {
      const DivMod<int64_t> qr = Int64Domain{}.div_mod(x.same, t.same);
      return {constant(qr.quotient), constant(qr.remainder)};
    }
    const size_t n = entries(x, t);
    DivMod<Value> out{{Entries(n), 0}, {Entries(n), 0}};
    for (size_t i = 0; i < n; ++i) {
      const DivMod<int64_t> qr = Int64Domain{}.div_mod(x[i], t[i]);
      out.quotient.entries[i] = qr.quotient;
      out.remainder.entries[i] = qr.remainder;
    }
    return out;
  }
  Value ceil_div(const Value& x, const Value& t) const {
    return map(x, t, [](int64_t p, int64_t q) { return Int64Domain{}.ceil_div(p, q); });
  }
  Bool less(const Value& x, const Value& y) const {
    return map(x, y, [](int64_t p, int64_t q) -> int64_t { return p < q; });
  }
  Bool both(const Bool& p, const Bool& q) const {
    return map(p, q, [](int64_t u, int64_t v) -> int64_t { return u && v; });
  }
  Bool truth(bool b) const { return constant(b); }

 private:
  // The entries of a column computed from x and y, at least one a column.
  static size_t entries(const Value& x, const Value& y) {
    if (!x.entries.empty() && !y.entries.empty() && x.entries.size() != y.entries.size()) {
      throw Error("columns of " + std::to_string(x.entries.size()) + " and " +
                  std::to_string(y.entries.size()) + " entries (internal error)");
    }
    return std::max(x.entries.size(), y.entries.size());
  }
  // f on each element's pair of entries.
  template <class F>
  static Value map(const Value& x, const Value& y, F f) {
    if (x.entries.empty() && y.entries.empty()) return {{}, f(x.same, y.same)};
    const size_t n = entries(x, y);
    Value out{Entries(n), 0};
    for (size_t i = 0; i < n; ++i) out.entries[i] = f(x[i], y[i]);
    return out;
  }
};

}  // namespace tilecheck::spec
