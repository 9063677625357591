// IndexPlan: linear_index runs the flattened IndexProgram; delinearize walks
// the levels backwards (final coordinates by mixed radix, then per level
// g = outer*t + inner, padding when g reaches the group bound, members
// recovered by mixed radix), every division by a FastDiv.
#include <algorithm>
#include <string>

#include "impl/compiled_layout.h"
#include <tilecheck/impl/plan.h>

namespace tilecheck::impl {

int64_t evaluate_index_program(const IndexProgram& program, std::span<const int64_t> element) {
  std::vector<int64_t> reg(element.begin(), element.end());
  for (const auto& step : program.steps) {
    int64_t g = 0;
    for (const auto& t : step.terms) g += t.coeff * reg[t.reg];
    reg.push_back(g / step.divisor);
    reg.push_back(g % step.divisor);
  }
  int64_t r = 0;
  for (const auto& t : program.result) r += t.coeff * reg[t.reg];
  return r;
}

namespace {
// Registers kept on the stack; larger programs (hundreds of tile entries)
// use the heap.
constexpr size_t kStackRegisters = 256;
}  // namespace

struct IndexPlan::State {
  detail::CompiledLayout layout;
  // The program, flattened: for each step, term_begin[k]..term_begin[k+1]
  // index into term_reg/term_coeff; divs[k] divides.
  std::vector<int32_t> term_begin;
  std::vector<int64_t> term_reg, term_coeff;
  std::vector<FastDiv> divs;
  size_t register_count = 0;
  size_t coordinate_capacity = 0;  // for delinearize's scratch
};

IndexPlan::IndexPlan(const ShapeWithLayout& shape) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.layout = detail::compile_layout(shape);
  const IndexProgram& p = s.layout.program;
  for (const auto& step : p.steps) {
    s.term_begin.push_back(static_cast<int32_t>(s.term_reg.size()));
    for (const auto& t : step.terms) {
      s.term_reg.push_back(t.reg);
      s.term_coeff.push_back(t.coeff);
    }
    s.divs.emplace_back(step.divisor);
  }
  s.term_begin.push_back(static_cast<int32_t>(s.term_reg.size()));
  for (const auto& t : p.result) {
    s.term_reg.push_back(t.reg);
    s.term_coeff.push_back(t.coeff);
  }
  s.term_begin.push_back(static_cast<int32_t>(s.term_reg.size()));
  s.register_count = static_cast<size_t>(p.input_count) + 2 * p.steps.size();
  size_t cap = std::max<size_t>(s.layout.final_shape.size(), s.layout.rank);
  for (const auto& level : s.layout.levels) cap = std::max<size_t>(cap, level.rank_in);
  s.coordinate_capacity = cap;
}
IndexPlan::~IndexPlan() = default;
IndexPlan::IndexPlan(IndexPlan&&) noexcept = default;
IndexPlan& IndexPlan::operator=(IndexPlan&&) noexcept = default;

const ShapeWithLayout& IndexPlan::shape() const { return state_->layout.shape; }
int64_t IndexPlan::rank() const { return state_->layout.rank; }
int64_t IndexPlan::element_count() const { return state_->layout.element_count; }
int64_t IndexPlan::padded_element_count() const { return state_->layout.padded_count; }
int64_t IndexPlan::byte_size() const { return state_->layout.byte_size; }
int64_t IndexPlan::dense_byte_size() const {
  if (state_->layout.dense_byte_size < 0) throw Error("dense byte size overflows int64");
  return state_->layout.dense_byte_size;
}
const std::vector<int64_t>& IndexPlan::tiled_shape() const { return state_->layout.final_shape; }
const IndexProgram& IndexPlan::program() const { return state_->layout.program; }

namespace {

inline int64_t run_program(const int32_t* begin, const int64_t* term_reg, const int64_t* term_coeff,
                           const FastDiv* divs, size_t steps, int64_t* reg, size_t inputs) {
  size_t next = inputs;
  for (size_t k = 0; k < steps; ++k) {
    int64_t g = 0;
    for (int32_t i = begin[k]; i < begin[k + 1]; ++i) g += term_coeff[i] * reg[term_reg[i]];
    const int64_t q = divs[k].quotient(g);
    reg[next++] = q;
    reg[next++] = g - q * divs[k].divisor();
  }
  int64_t r = 0;
  for (int32_t i = begin[steps]; i < begin[steps + 1]; ++i) r += term_coeff[i] * reg[term_reg[i]];
  return r;
}

}  // namespace

int64_t IndexPlan::linear_index(std::span<const int64_t> element) const {
  const State& s = *state_;
  const size_t steps = s.divs.size();
  if (s.register_count <= kStackRegisters) {
    int64_t reg[kStackRegisters];
    std::copy(element.begin(), element.end(), reg);
    return run_program(s.term_begin.data(), s.term_reg.data(), s.term_coeff.data(), s.divs.data(),
                       steps, reg, element.size());
  }
  std::vector<int64_t> reg(s.register_count);
  std::copy(element.begin(), element.end(), reg.begin());
  return run_program(s.term_begin.data(), s.term_reg.data(), s.term_coeff.data(), s.divs.data(), steps,
                     reg.data(), element.size());
}

int64_t IndexPlan::linear_index_checked(std::span<const int64_t> element) const {
  const auto& dims = state_->layout.shape.dims;
  if (static_cast<int64_t>(element.size()) != rank()) {
    throw Error("element has " + std::to_string(element.size()) + " coordinates, the shape has rank " +
                std::to_string(rank()));
  }
  for (size_t i = 0; i < element.size(); ++i) {
    if (element[i] < 0 || element[i] >= dims[i]) {
      throw Error("coordinate " + std::to_string(i) + " is " + std::to_string(element[i]) +
                  ", outside [0, " + std::to_string(dims[i]) + ")");
    }
  }
  return linear_index(element);
}

void IndexPlan::linear_index_batch(std::span<const int64_t> elements, std::span<int64_t> out) const {
  const State& s = *state_;
  const size_t r = static_cast<size_t>(rank());
  if (elements.size() != out.size() * r) {
    throw Error("linear_index_batch: " + std::to_string(elements.size()) + " coordinates for " +
                std::to_string(out.size()) + " elements of rank " + std::to_string(r));
  }
  const size_t steps = s.divs.size();
  if (s.register_count > kStackRegisters) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = linear_index(elements.subspan(i * r, r));
    return;
  }
  int64_t reg[kStackRegisters];
  for (size_t i = 0; i < out.size(); ++i) {
    std::copy_n(elements.data() + i * r, r, reg);
    out[i] = run_program(s.term_begin.data(), s.term_reg.data(), s.term_coeff.data(), s.divs.data(),
                         steps, reg, r);
  }
}

void IndexPlan::linear_index_batch_checked(std::span<const int64_t> elements,
                                           std::span<int64_t> out) const {
  const size_t r = static_cast<size_t>(rank());
  if (elements.size() != out.size() * r) {
    throw Error("linear_index_batch: " + std::to_string(elements.size()) + " coordinates for " +
                std::to_string(out.size()) + " elements of rank " + std::to_string(r));
  }
  const std::vector<int64_t>& dims = shape().dims;
  for (size_t i = 0; i < elements.size(); ++i) {
    const size_t d = i % r;
    if (elements[i] < 0 || elements[i] >= dims[d]) {
      throw Error("element " + std::to_string(i / r) + " of the batch: coordinate " +
                  std::to_string(d) + " is " + std::to_string(elements[i]) + ", outside [0, " +
                  std::to_string(dims[d]) + ")");
    }
  }
  linear_index_batch(elements, out);
}

void IndexPlan::delinearize_batch(std::span<const int64_t> positions,
                                  std::span<int64_t> elements) const {
  const size_t r = static_cast<size_t>(rank());
  if (elements.size() != positions.size() * r) {
    throw Error("delinearize_batch: room for " + std::to_string(elements.size()) +
                " coordinates, " + std::to_string(positions.size()) + " positions of rank " +
                std::to_string(r) + " need " + std::to_string(positions.size() * r));
  }
  const int64_t padded = padded_element_count();
  for (size_t i = 0; i < positions.size(); ++i) {
    if (positions[i] < 0 || positions[i] >= padded) {
      throw Error("position " + std::to_string(i) + " of the batch is " +
                  std::to_string(positions[i]) + ", outside [0, " + std::to_string(padded) + ")");
    }
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    const std::span<int64_t> row = elements.subspan(i * r, r);
    if (!delinearize(positions[i], row)) std::fill(row.begin(), row.end(), -1);
  }
}

bool IndexPlan::delinearize(int64_t position, std::span<int64_t> element) const {
  const detail::CompiledLayout& c = state_->layout;
  if (position < 0 || position >= c.padded_count) {
    throw Error("position " + std::to_string(position) + " is outside [0, " +
                std::to_string(c.padded_count) + ")");
  }
  if (static_cast<int64_t>(element.size()) != c.rank) {
    throw Error("delinearize: element buffer has " + std::to_string(element.size()) +
                " coordinates, the shape has rank " + std::to_string(c.rank));
  }
  if (position >= c.final_count) return false;  // L(n) tail (D5, D8)
  const size_t cap = state_->coordinate_capacity;
  int64_t stack[2 * kStackRegisters];
  std::vector<int64_t> heap;
  int64_t* a = stack;
  if (2 * cap > 2 * kStackRegisters) {
    heap.resize(2 * cap);
    a = heap.data();
  }
  int64_t* b = a + cap;
  // Final coordinates: mixed radix over the final shape.
  int64_t n = static_cast<int64_t>(c.final_shape.size());
  int64_t p = position;
  for (int64_t j = n - 1; j >= 0; --j) {
    const int64_t q = c.final_divs[j].quotient(p);
    a[j] = p - q * c.final_shape[j];
    p = q;
  }
  for (size_t k = c.levels.size(); k-- > 0;) {
    const detail::Level& level = c.levels[k];
    const int64_t groups = static_cast<int64_t>(level.groups.size());
    std::copy_n(a, level.prefix, b);
    for (int64_t i = 0; i < groups; ++i) {
      const detail::Group& g = level.groups[i];
      int64_t v = a[level.prefix + i] * g.tile + a[level.prefix + groups + i];
      if (v >= g.bound) return false;  // past the bound: padding (D8)
      for (size_t m = g.member_bounds.size(); m-- > 1;) {
        const int64_t q = g.member_divs[m].quotient(v);
        b[g.first + m] = v - q * g.member_bounds[m];
        v = q;
      }
      b[g.first] = v;
    }
    // D3's leading dims are 0 here (their bound is 1); drop them.
    n = level.rank_in - level.extension;
    std::copy_n(b + level.extension, n, a);
  }
  for (int64_t j = 0; j < c.rank; ++j) element[c.logical_of_physical[j]] = a[j];
  return true;
}

void IndexPlan::for_each_in_physical_order(
    const std::function<void(int64_t position, std::span<const int64_t> element)>& visit) const {
  std::vector<int64_t> e(static_cast<size_t>(rank()));
  const int64_t end = state_->layout.final_count;  // the L(n) tail is all padding
  for (int64_t p = 0; p < end; ++p) {
    if (delinearize(p, e)) visit(p, e);
  }
}

}  // namespace tilecheck::impl

namespace tilecheck::impl::detail {
const CompiledLayout& compiled(const IndexPlan& plan) { return plan.state_->layout; }
}  // namespace tilecheck::impl::detail
