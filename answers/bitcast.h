// Is reinterpreting a buffer of layout `from` as layout `to` a bitcast?
//
// A bitcast in XLA reuses the operand's buffer unchanged. That is right only
// when every element of `from` already sits where `to` expects the element a
// logical reshape (or, with a permutation, a transpose) maps it to, at the
// same width, and when the two buffers have the same byte size. This checks
// exactly that, element by element over index plans, and names the first
// element that lands elsewhere. The plan is a parameter: the command runs it
// over the impl's plans (check/bitcast.h, tens of millions of elements a
// second), the layout explorer over the spec's own formulas.
//
// Reshape: element e of `from` (row-major over from's dims) is element e'
// of `to` with the same row-major number. Transpose by perm: to's dims are
// from's dims permuted, to.dims[i] = from.dims[perm[i]], and e'[i] = e[perm[i]]
// (XLA's transpose).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::answers {

struct BitcastReport {
  bool is_bitcast = false;
  int64_t from_bytes = 0, to_bytes = 0;
  int64_t from_element_bits = 0, to_element_bits = 0;
  int64_t elements_checked = 0;
  // The first element (in from's row-major order) whose position differs.
  struct Moved {
    std::vector<int64_t> from_element, to_element;
    int64_t from_position = 0, to_position = 0;
  };
  std::optional<Moved> first_moved;
  std::vector<std::string> reasons;  // one sentence per way it fails
};

// Element counts that differ make it no bitcast (no reshape exists). Throws
// Error for layouts tilecheck cannot map (symbolic dims, split configs, ...)
// or a `transpose` that is not a permutation matching the dims. `Plan` is
// constructed from a layout and has byte_size(), element_count() and
// linear_index(element), as impl::IndexPlan.
template <class Plan>
BitcastReport bitcast_report(const ShapeWithLayout& from, const ShapeWithLayout& to,
                             const std::optional<std::vector<int64_t>>& transpose);

}  // namespace tilecheck::answers

// ---------------------------------------------------------------------------

namespace tilecheck::answers {
namespace bitcast_detail {

// Steps `e` to the next element in row-major order over `dims`.
inline void next_row_major(std::vector<int64_t>& e, const std::vector<int64_t>& dims) {
  for (size_t i = dims.size(); i-- > 0;) {
    if (++e[i] < dims[i]) return;
    e[i] = 0;
  }
}

inline void validate_transpose(const ShapeWithLayout& from, const ShapeWithLayout& to,
                        const std::vector<int64_t>& perm) {
  const int64_t rank = from.rank();
  if (static_cast<int64_t>(perm.size()) != rank || to.rank() != rank) {
    throw Error("the transpose " + join(perm) + " needs " + std::to_string(rank) +
                " entries and two shapes of rank " + std::to_string(rank));
  }
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p]) {
      throw Error("the transpose " + join(perm) + " is not a permutation of 0.." +
                  std::to_string(rank - 1));
    }
    seen[p] = true;
  }
  std::vector<int64_t> permuted;
  for (int64_t p : perm) permuted.push_back(from.dims[p]);
  if (permuted != to.dims) {
    throw Error("a transpose by " + join(perm) + " of dims [" + join(from.dims) + "] gives [" +
                join(permuted) + "], not [" + join(to.dims) + "]");
  }
}

}  // namespace bitcast_detail

template <class Plan>
BitcastReport bitcast_report(const ShapeWithLayout& from, const ShapeWithLayout& to,
                             const std::optional<std::vector<int64_t>>& transpose) {
  using namespace bitcast_detail;
  const Plan a(from), b(to);
  if (transpose) validate_transpose(from, to, *transpose);
  BitcastReport r;
  r.from_bytes = a.byte_size();
  r.to_bytes = b.byte_size();
  r.from_element_bits = from.element_bits();
  r.to_element_bits = to.element_bits();
  if (r.from_element_bits != r.to_element_bits) {
    r.reasons.push_back("the element widths differ: " + std::to_string(r.from_element_bits) +
                        " bits and " + std::to_string(r.to_element_bits) + " bits");
  }
  if (r.from_bytes != r.to_bytes) {
    r.reasons.push_back("the byte sizes differ: " + std::to_string(r.from_bytes) + " bytes and " +
                        std::to_string(r.to_bytes) + " bytes");
  }
  if (a.element_count() != b.element_count()) {
    r.reasons.push_back("the element counts differ: " + std::to_string(a.element_count()) +
                        " and " + std::to_string(b.element_count()) + ", so no reshape exists");
    return r;
  }
  std::vector<int64_t> e(from.rank(), 0), f(to.rank(), 0);
  for (int64_t n = 0; n < a.element_count(); ++n) {
    if (transpose) {
      for (size_t i = 0; i < f.size(); ++i) f[i] = e[(*transpose)[i]];
    }
    const int64_t pa = a.linear_index(e), pb = b.linear_index(f);
    ++r.elements_checked;
    if (pa != pb) {
      r.first_moved = BitcastReport::Moved{e, f, pa, pb};
      r.reasons.push_back("element (" + join(e) + ") of the first is at position " +
                          std::to_string(pa) + ", but the element (" + join(f) +
                          ") it becomes is at position " + std::to_string(pb) +
                          " of the second");
      break;
    }
    next_row_major(e, from.dims);
    if (!transpose) next_row_major(f, to.dims);
  }
  r.is_bitcast = r.reasons.empty();
  return r;
}

}  // namespace tilecheck::answers
