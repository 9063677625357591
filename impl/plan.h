// The fast implementation of tiled layouts: compiled, immutable plans.
//
// A plan is built once from a shape with layout (validating it exactly as the
// spec does, throwing tilecheck::Error) and is then immutable, thread-safe
// and reusable; executing it is a cheap call (the plan/execute split of XLA's
// TransposePlan). This header is the contract that the properties, fuzzers,
// proofs (P4), the CLI and the C API program against.
//
// The impl depends on spec/model.h and spec/syntax.h only, never on the
// spec's algorithms (spec/semantics.h, spec/arith.h): the cross-checks are
// worth something only because the two were written differently.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "spec/model.h"

namespace tilecheck::impl {

// Element <-> linear position. O(rank) per call, no allocation, no hardware
// division on the hot path.
class IndexPlan {
 public:
  // Throws Error for invalid layouts, symbolic dims, or sizes overflowing int64.
  explicit IndexPlan(const ShapeWithLayout& shape);
  ~IndexPlan();
  IndexPlan(IndexPlan&&) noexcept;
  IndexPlan& operator=(IndexPlan&&) noexcept;

  const ShapeWithLayout& shape() const;
  int64_t rank() const;
  int64_t element_count() const;         // product of logical dims
  int64_t padded_element_count() const;  // D5
  int64_t byte_size() const;             // D6
  int64_t dense_byte_size() const;       // element_count * ceil(bits/8)
  const std::vector<int64_t>& tiled_shape() const;

  // Precondition: element.size() == rank() and every coordinate in bounds
  // (unchecked: this is the hot path).
  int64_t linear_index(std::span<const int64_t> element) const;
  // Checked: throws Error naming the bad coordinate.
  int64_t linear_index_checked(std::span<const int64_t> element) const;
  // `elements` holds count*rank coordinates, row after row; writes count indices.
  void linear_index_batch(std::span<const int64_t> elements, std::span<int64_t> out) const;
  // Writes the element stored at `position` into `element` (size rank) and
  // returns true, or returns false for padding. Throws Error unless
  // 0 <= position < padded_element_count().
  bool delinearize(int64_t position, std::span<int64_t> element) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

struct ExecOptions {
  int threads = 0;  // 0: all cores; 1: single-threaded. Results are identical.
};

// Dense array <-> physical buffer, with the spec's buffer contract:
// dense: logical dims row-major, ceil(bits/8) bytes per element,
// little-endian, value in the low bits; physical: byte_size() bytes,
// element at position p in bits [p*bits, p*bits+bits) (D6, D7), padding
// zero (D8). Wrong buffer sizes or overlapping buffers throw Error before
// anything is written.
class PackPlan {
 public:
  explicit PackPlan(const ShapeWithLayout& shape);
  ~PackPlan();
  PackPlan(PackPlan&&) noexcept;
  PackPlan& operator=(PackPlan&&) noexcept;

  const IndexPlan& index() const;
  void pack(std::span<const uint8_t> dense, std::span<uint8_t> physical,
            ExecOptions options = {}) const;
  void unpack(std::span<const uint8_t> physical, std::span<uint8_t> dense,
              ExecOptions options = {}) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Physical buffer of one layout -> physical buffer of another layout of the
// same logical shape and element width, both sides tiled. Padding of the
// destination is zero.
class RelayoutPlan {
 public:
  // Throws Error unless `from` and `to` have the same dims and element width.
  RelayoutPlan(const ShapeWithLayout& from, const ShapeWithLayout& to);
  ~RelayoutPlan();
  RelayoutPlan(RelayoutPlan&&) noexcept;
  RelayoutPlan& operator=(RelayoutPlan&&) noexcept;

  void run(std::span<const uint8_t> src, std::span<uint8_t> dst, ExecOptions options = {}) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tilecheck::impl
