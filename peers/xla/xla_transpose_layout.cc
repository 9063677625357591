#include "peers/xla/xla_transpose_layout.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "absl/status/status.h"
#include "xla/pjrt/transpose.h"

namespace tilecheck::peers {
namespace {

// a * b, or nullopt past int64.
std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t product;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// The elements a buffer of `layout` spans: each dim rounded up to its tile
// entry (a tiling applies to the most minor dims), or nullopt past int64.
std::optional<int64_t> padded_elements(const XlaTransposeLayout& layout) {
  const size_t untiled = layout.dims.size() - layout.tiling.size();
  std::optional<int64_t> count = 1;
  for (size_t i = 0; i < layout.dims.size() && count; ++i) {
    const int64_t d = layout.dims[i];
    const int64_t t = i < untiled ? 1 : layout.tiling[i - untiled];
    const int64_t tiles = d / t + (d % t != 0);
    const std::optional<int64_t> padded = checked_mul(tiles, t);
    count = padded ? checked_mul(*count, *padded) : std::nullopt;
  }
  return count;
}

// `layout` with `count` more leading dims of size 1, so that two layouts of
// one shape have the same rank for one plan. A tiling applies to the most
// minor dims, so it is unchanged.
XlaTransposeLayout with_leading_ones(XlaTransposeLayout layout, int64_t count) {
  layout.dims.insert(layout.dims.begin(), count, 1);
  layout.logical.insert(layout.logical.begin(), count, -1);
  return layout;
}

int64_t leading_ones(const XlaTransposeLayout& layout) {
  return std::count(layout.logical.begin(), layout.logical.end(), -1);
}

bool is_tiled(const XlaTransposeLayout& layout) {
  return std::any_of(layout.tiling.begin(), layout.tiling.end(), [](int64_t t) { return t != 1; });
}

UntiledInput untiled_input = UntiledInput::kStriding;

// What a plan moving a buffer of `from` into one of `to` is made of: A's
// dims are `from`'s, and output dim i is A's dim permutation[i]. The options
// plan_options makes point into it, so it outlives them.
struct PlanInputs {
  XlaTransposeLayout from, to;
  std::vector<int64_t> permutation;
  std::vector<int64_t> strides;  // `from`'s row-major byte strides, for an untiled input given as Striding
};

PlanInputs plan_inputs(const XlaTransposeLayout& from, const XlaTransposeLayout& to) {
  const int64_t lead = std::max(leading_ones(from), leading_ones(to));
  PlanInputs p{
      with_leading_ones(from, lead - leading_ones(from)), with_leading_ones(to, lead - leading_ones(to)), {}, {}};
  if (p.from.dims.size() != p.to.dims.size() || p.from.element_bytes != p.to.element_bytes) {
    throw std::runtime_error("the two layouts differ in rank or element size");
  }
  for (size_t i = 0; i < p.to.dims.size(); ++i) {
    // The added dims of size 1 map to each other in order, the others by
    // the logical dim they hold.
    const auto it = i < static_cast<size_t>(lead)
                        ? p.from.logical.begin() + i
                        : std::find(p.from.logical.begin(), p.from.logical.end(), p.to.logical[i]);
    p.permutation.push_back(it - p.from.logical.begin());
  }
  if (!is_tiled(p.from) && untiled_input == UntiledInput::kStriding) {
    p.strides.resize(p.from.dims.size());
    int64_t stride = p.from.element_bytes;
    for (size_t i = p.from.dims.size(); i-- > 0;) {
      p.strides[i] = stride;
      stride *= p.from.dims[i];
    }
  }
  return p;
}

// The input's tiling, or its byte strides. XLA since 2025-12-16 takes them
// as two optional fields (`input_layout`, the one before, is deprecated);
// XLA before, as one variant. A template, so that only the branch of the
// XLA at hand is compiled.
template <typename Options>
void set_input(Options& o, const PlanInputs& p) {
  const bool as_tiling = is_tiled(p.from) || untiled_input == UntiledInput::kTiling;
  if constexpr (requires { o.input_striding; }) {
    if (as_tiling) {
      o.input_tiling = xla::TransposePlan::Tiling{p.from.tiling};
    } else {
      o.input_striding = xla::TransposePlan::Striding{p.strides};
    }
  } else if (as_tiling) {
    o.input_layout = xla::TransposePlan::Tiling{p.from.tiling};
  } else {
    o.input_layout = xla::TransposePlan::Striding{p.strides};
  }
}

xla::TransposePlan::Options plan_options(const PlanInputs& p) {
  xla::TransposePlan::Options o;
  o.elem_size_in_bytes = static_cast<size_t>(p.from.element_bytes);
  o.dims = p.from.dims;
  o.permutation = p.permutation;
  set_input(o, p);
  o.output_tiling = xla::TransposePlan::Tiling{p.to.tiling};
  o.num_threads = 1;
  return o;
}

std::runtime_error plan_error(const absl::Status& status) {
  return std::runtime_error("TransposePlan::Create: " + status.ToString());
}

}  // namespace

void set_xla_transpose_untiled_input(UntiledInput how) { untiled_input = how; }

std::variant<XlaTransposeLayout, std::string> xla_transpose_layout(const ShapeWithLayout& shape) {
  const Layout& l = shape.layout;
  if (!l.split_configs.empty()) return std::string("split configs SC(..): the array is in several buffers");
  if (l.physical_shape || l.index_type || l.pointer_type) return std::string("a sparse array");
  if (shape.has_symbolic_dims()) return std::string("a dim of unknown size '?' has no buffer");
  const int64_t bits = shape.element_bits();
  if (bits % 8 != 0 || (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128)) {
    return "a " + std::to_string(bits) + "-bit element: TransposePlan moves whole elements of 1, 2, 4, 8 or 16 bytes";
  }
  if (l.tail_padding_alignment.value_or(1) != 1) {
    return std::string("L(n) tail padding: a TransposePlan buffer ends with its last tile");
  }
  if (l.tiles.size() > 1) return std::string("more than one tile: TransposePlan takes a single level of tiling");
  XlaTransposeLayout out;
  out.element_bytes = bits / 8;
  const int64_t rank = shape.rank();
  for (int64_t j = 0; j < rank; ++j) {  // physical order, most major first (D1)
    out.logical.push_back(l.minor_to_major[rank - 1 - j]);
    out.dims.push_back(shape.dims[out.logical.back()]);
  }
  if (!l.tiles.empty()) {
    out.tiling = l.tiles.front().dims;
    if (std::find(out.tiling.begin(), out.tiling.end(), kCombineDim) != out.tiling.end()) {
      return std::string("a combined dim '*': TransposePlan's tile entries are sizes");
    }
    // D3: a tile longer than the shape meets it extended with leading dims
    // of size 1; TransposePlan refuses a tiling longer than its dims.
    const int64_t lead = static_cast<int64_t>(out.tiling.size()) - rank;
    if (lead > 0) out = with_leading_ones(std::move(out), lead);
  }
  // The sizes TransposePlan and this adapter compute are int64 counts of
  // elements and bytes.
  const std::optional<int64_t> elements = padded_elements(out);
  if (!elements || !checked_mul(*elements, out.element_bytes)) {
    return std::string("a buffer of more than 2^63 bytes: TransposePlan counts in int64");
  }
  return out;
}

XlaTransposeLayout xla_transpose_dense(const ShapeWithLayout& shape) {
  XlaTransposeLayout out;
  out.element_bytes = shape.dense_element_bytes();
  out.dims = shape.dims;
  for (int64_t i = 0; i < shape.rank(); ++i) out.logical.push_back(i);
  return out;
}

int64_t xla_transpose_byte_size(const XlaTransposeLayout& dense, const XlaTransposeLayout& layout) {
  const PlanInputs p = plan_inputs(dense, layout);
  auto plan = xla::TransposePlan::Create(plan_options(p));
  if (!plan.ok()) throw plan_error(plan.status());
  const std::optional<int64_t> bytes =
      checked_mul((*plan)->OutputNumElems(), static_cast<int64_t>(layout.element_bytes));
  if (!bytes) throw std::runtime_error("OutputNumElems() times the element size is past int64");
  return *bytes;
}

int64_t xla_transpose_buffer_bytes(const XlaTransposeLayout& layout) {
  // Claimed layouts fit int64 (xla_transpose_layout checks it).
  return *padded_elements(layout) * layout.element_bytes;
}

void xla_transpose(const XlaTransposeLayout& from, const XlaTransposeLayout& to, std::span<const uint8_t> in,
                   std::span<uint8_t> out) {
  // TransposePlan writes the elements only, never the padding between and
  // after them ("we're not going to touch any padding elements"): its
  // caller clears the buffer for the zero padding the layout has (D8).
  std::fill(out.begin(), out.end(), uint8_t{0});
  const PlanInputs p = plan_inputs(from, to);
  auto plan = xla::TransposePlan::Create(plan_options(p));
  if (plan.ok()) {
    (*plan)->Execute(in.data(), out.data());
    return;
  }
  if (plan.status().code() != absl::StatusCode::kUnimplemented || !is_tiled(from) || !is_tiled(to)) {
    throw plan_error(plan.status());
  }
  // "Only one of the input and output may have a non-trivial tiling": move
  // the elements into `to`'s dims untiled, then tile them there.
  XlaTransposeLayout middle = to;
  middle.tiling.clear();
  std::vector<uint8_t> between(static_cast<size_t>(xla_transpose_buffer_bytes(middle)));
  xla_transpose(from, middle, in, between);
  xla_transpose(middle, to, between, out);
}

struct XlaTransposeRun::Plan {
  PlanInputs inputs;  // what the options point into
  std::unique_ptr<xla::TransposePlan> plan;
};

XlaTransposeRun::XlaTransposeRun(const XlaTransposeLayout& from, const XlaTransposeLayout& to)
    : plan_(std::make_unique<Plan>()) {
  plan_->inputs = plan_inputs(from, to);
  auto plan = xla::TransposePlan::Create(plan_options(plan_->inputs));
  if (!plan.ok()) throw plan_error(plan.status());
  plan_->plan = std::move(*plan);
}

XlaTransposeRun::~XlaTransposeRun() = default;

void XlaTransposeRun::operator()(std::span<const uint8_t> in, std::span<uint8_t> out) const {
  plan_->plan->Execute(in.data(), out.data());
}

}  // namespace tilecheck::peers
