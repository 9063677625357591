// Properties of the implementation, each checked against the spec (docs/PROPERTIES.md,
// properties 1, 4, 5, 7, 8 and 9, and the impl's half of 6): whatever the impl
// computes — index, inverse, sizes, packed bytes, relayout, with one thread
// or several — must be what the reference semantics says.
//
// Buffers the impl writes are pre-filled with garbage and fenced by guard
// bytes (GuardedBuffer), so unwritten padding and writes outside the buffer
// are caught even in builds without sanitizers.
#include <rapidcheck.h>

#include <hwy/targets.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <tilecheck/impl/plan.h>
#include "impl/kernels.h"
#include <tilecheck/testing/agreement.h>
#include "check/bitcast.h"
#include "check/buffers.h"
#include "check/thread_schedule.h"
#include <tilecheck/gen/sweep.h>
#include "properties/property_registry.h"
#include "properties/rc_layout_gen.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::props {
namespace {

using check::GuardedBuffer;
using check::ScopedTarget;

constexpr uint8_t kGarbage = 0xA5;

// A disagreement with the spec (tilecheck/testing/agreement.h) fails the property.
void agree(const check::Agreement& d) {
  if (d) RC_FAIL(d->text());
}

// 1. impl linear_index == spec linear_index_with_tile for every element (and
// the checked and batch entry points agree); impl delinearize inverts it and
// reports every other position as padding.
void check_index_plan(const ShapeWithLayout& shape) {
  const impl::IndexPlan plan(shape);
  agree(check::sizes_agree(shape, check::sizes_of(plan)));
  const int64_t padded = plan.padded_element_count();
  std::vector<bool> hit(static_cast<size_t>(padded), false);
  std::vector<int64_t> all_coordinates, expected;
  for_each_element(shape, [&](const std::vector<int64_t>& e) {
    agree(check::plan_index_agrees(shape, plan, e));
    const int64_t p = plan.linear_index(e);
    hit[p] = true;
    all_coordinates.insert(all_coordinates.end(), e.begin(), e.end());
    expected.push_back(p);
  });
  std::vector<int64_t> batch(expected.size(), -1);
  plan.linear_index_batch(all_coordinates, batch);
  RC_ASSERT(batch == expected);
  // Every other position is padding (the spec is one-to-one, so it says so
  // too): the spec is asked only when the impl finds an element there.
  std::vector<int64_t> back(shape.dims.size());
  for (int64_t p = 0; p < padded; ++p) {
    if (!hit[p] && plan.delinearize(p, back)) agree(check::position_agrees(shape, p, back));
  }
}

void LinearIndexMatchesSpec() { check_index_plan(*gen_layout(kExhaustiveLimits)); }

// 1 (high rank). The same for a generated layout with 257 to 288 more dims
// of size 1 as its most major dims: index programs that need more registers
// than the impl keeps on the stack (its heap paths). Small layouts: the
// spec's index of a rank-300 element is slow.
void HighRankIndexMatchesSpec() {
  const ShapeWithLayout inner = *gen_layout({.max_elements = 64, .max_padded_elements = 512});
  const int64_t extra = *rc::gen::inRange<int64_t>(257, 289);
  ShapeWithLayout shape = inner;
  shape.dims.assign(static_cast<size_t>(extra), 1);
  shape.dims.insert(shape.dims.end(), inner.dims.begin(), inner.dims.end());
  for (int64_t& d : shape.layout.minor_to_major) d += extra;
  for (int64_t d = extra - 1; d >= 0; --d) shape.layout.minor_to_major.push_back(d);
  RC_LOG() << print_shape(inner) << " with " << extra << " leading dims of 1\n";
  check_index_plan(shape);
}

// 7 (impl half). Every size the impl reports equals the spec's.
void SizesMatchSpec() {
  const ShapeWithLayout shape = *gen_layout();
  const impl::IndexPlan plan(shape);
  RC_ASSERT(plan.rank() == shape.rank());
  agree(check::sizes_agree(shape, check::sizes_of(plan)));
}

// 6 (impl half). Invalid layouts are an Error from the impl too; so are
// out-of-bounds elements, out-of-range positions and wrong buffer sizes.
void InvalidInputIsAnError() {
  const InvalidLayout invalid = *gen_invalid_layout();
  RC_TAG(invalid_kind_name(invalid.kind));
  if (invalid.shape) RC_ASSERT_THROWS_AS(impl::IndexPlan{*invalid.shape}, Error);

  const ShapeWithLayout shape = *gen_layout();
  const impl::PackPlan plan(shape);
  std::vector<int64_t> element(shape.dims.size(), 0);
  if (!element.empty()) {
    const size_t dim = *rc::gen::inRange<size_t>(0, element.size());
    element[dim] = *rc::gen::element<int64_t>(-1, shape.dims[dim]);
    RC_ASSERT_THROWS_AS(plan.index().linear_index_checked(element), Error);
  }
  RC_ASSERT_THROWS_AS(plan.index().delinearize(plan.index().padded_element_count(), element), Error);
  RC_ASSERT_THROWS_AS(plan.index().delinearize(-1, element), Error);
  // Coordinate counts that do not match the rank.
  std::vector<int64_t> wrong_rank(element.size() + 1, 0);
  RC_ASSERT_THROWS_AS(plan.index().linear_index_checked(wrong_rank), Error);
  RC_ASSERT_THROWS_AS(plan.index().delinearize(0, wrong_rank), Error);
  std::vector<int64_t> one_index(1);
  RC_ASSERT_THROWS_AS(plan.index().linear_index_batch(wrong_rank, one_index), Error);
  std::vector<uint8_t> dense(spec::dense_byte_size(shape) + 1), physical(spec::byte_size(shape));
  RC_ASSERT_THROWS_AS(plan.pack(dense, physical), Error);
  RC_ASSERT_THROWS_AS(plan.unpack(physical, dense), Error);
}

// Packs with the impl into a garbage-filled, guarded buffer. The source is
// a guarded copy too: a kernel that reads past the dense array reads guard
// bytes, which then show in the result as a counterexample.
constexpr size_t kSourceGuard = 8192;  // more than a kernel's largest chunk
std::vector<uint8_t> impl_pack(const impl::PackPlan& plan, std::span<const uint8_t> dense,
                               impl::ExecOptions options = {}) {
  GuardedBuffer source(dense.size(), 0, kSourceGuard);
  std::copy(dense.begin(), dense.end(), source.span().begin());
  GuardedBuffer physical(static_cast<size_t>(plan.index().byte_size()), kGarbage);
  plan.pack(source.span(), physical.span(), options);
  RC_ASSERT(physical.intact());
  RC_ASSERT(source.intact());
  return physical.bytes();
}

std::vector<uint8_t> impl_unpack(const impl::PackPlan& plan, std::span<const uint8_t> physical,
                                 impl::ExecOptions options = {}) {
  GuardedBuffer source(physical.size(), 0, kSourceGuard);
  std::copy(physical.begin(), physical.end(), source.span().begin());
  GuardedBuffer dense(static_cast<size_t>(plan.index().dense_byte_size()), kGarbage);
  plan.unpack(source.span(), dense.span(), options);
  RC_ASSERT(source.intact());
  RC_ASSERT(dense.intact());
  return dense.bytes();
}

// `n` arbitrary bytes from a drawn seed.
std::vector<uint8_t> random_bytes(int64_t n) {
  const uint64_t seed = *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 40);
  uint64_t state = seed;
  std::vector<uint8_t> bytes(static_cast<size_t>(n));
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(splitmix64(state));
  return bytes;
}

// Arbitrary physical bytes, padding included: unpack must ignore padding.
std::vector<uint8_t> random_physical(const ShapeWithLayout& shape) { return random_bytes(spec::byte_size(shape)); }

// Pack of the data == the spec's pack; unpack of that == the data (bits
// above the width cleared); unpack of arbitrary physical bytes == the spec's
// unpack of them.
void agree_with_spec(const impl::PackPlan& plan, const LayoutAndData& v, impl::ExecOptions options) {
  const std::vector<uint8_t> packed = impl_pack(plan, v.dense, options);
  agree(check::pack_agrees(v.shape, v.dense, packed));
  agree(check::bytes_agree(v.shape, false, "unpack(pack(x)) != x", spec::canonical_dense(v.shape, v.dense),
                           impl_unpack(plan, packed, options)));
  const std::vector<uint8_t> physical = random_physical(v.shape);
  agree(check::unpack_agrees(v.shape, physical, impl_unpack(plan, physical, options)));
}

// 4. impl pack == spec pack byte for byte (padding zero); impl unpack ==
// spec unpack on arbitrary bytes; unpack(pack(x)) == x (bits above the
// width cleared); for every width, sub-byte included.
void PackMatchesSpec() {
  const LayoutAndData v = *gen_layout_and_data(kExhaustiveLimits);
  RC_TAG(v.shape.element_bits() < 8 ? "sub-byte" : v.shape.element_bits() % 8 ? "odd" : "bytes");
  const impl::PackPlan plan(v.shape);
  agree_with_spec(plan, v, {.threads = 1});
}

// 4 (every path). The same with the size thresholds that pick a code path
// lowered to zero (ExecOptions): non-temporal streaming stores, the staged
// and block paths of the panels that only large arrays take by default, and
// the automatic thread count, on small, ragged and permuted layouts, half
// of them shaped for the plan's choices (make_plan_layout), so that each
// condition of the panel, the transposing leaf and the block transpose
// decides some case (docs/COVERAGE.md, "Conditions of the path choices").
void EveryPathMatchesSpecAtSmallSize() {
  const bool plan_shaped = *rc::gen::arbitrary<bool>();
  const LayoutAndData v = *gen_layout_and_data_from(
      [plan_shaped](RcChoices& c) { return plan_shaped ? make_plan_layout(c) : make_layout(c); });
  RC_TAG(plan_shaped ? "plan-shaped" : "recipe");
  const impl::PackPlan plan(v.shape);
  const impl::ExecOptions low{.threads = *rc::gen::element(0, 1, 2, 3), .stream_bytes = 0, .parallel_bytes = 0};
  RC_TAG(plan.lowered() ? "lowered" : "per element");
  agree_with_spec(plan, v, low);
}

// Layouts shaped for the SIMD kernels (layout_recipe.h make_kernel_layout),
// at most 16,384 elements.
rc::Gen<ShapeWithLayout> gen_kernel_layout() {
  return gen_from_recipe([](RcChoices& c) { return make_kernel_layout(c, 16384); });
}

// An integer in [lo, hi], drawn at full size from the first case
// (RapidCheck scales inRange by the case's size), shrinking towards lo.
int64_t draw(int64_t lo, int64_t hi) { return *rc::gen::resize(100, rc::gen::inRange<int64_t>(lo, hi + 1)); }

// One of the SIMD targets compiled in and supported here, drawn and logged,
// for a property that runs each case on one target (ScopedTarget).
int64_t one_simd_target() {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  RC_ASSERT(!targets.empty());
  const int64_t target = *rc::gen::elementOf(targets);
  RC_LOG() << "target " << hwy::TargetName(target) << "\n";
  return target;
}

// A layout shaped for the SIMD kernels (at most 4,096 elements) or one of
// the general recipe, and dense data for it.
rc::Gen<LayoutAndData> gen_kernel_or_recipe_layout_and_data(bool kernel_shaped) {
  return gen_layout_and_data_from([kernel_shaped](RcChoices& c) {
    return kernel_shaped ? make_kernel_layout(c, 4096) : make_layout(c, RecipeLimits{});
  });
}

// 4 (every SIMD target). Pack and unpack == spec on every Highway target
// compiled in and supported by this machine (AVX-512, AVX2, SSE4, ...,
// scalar), not only the best one: each case runs on all of them, at the
// default and the lowered size thresholds, half the cases on a layout
// shaped for the kernels (gen_kernel_layout).
void EveryTargetMatchesSpec() {
  const bool kernel_shaped = *rc::gen::arbitrary<bool>();
  const ShapeWithLayout shape = kernel_shaped ? *gen_kernel_layout() : *gen_layout();
  RC_LOG() << print_shape(shape) << "\n";
  const impl::PackPlan plan(shape);
  const std::vector<uint8_t> dense = *gen_from_recipe([shape](RcChoices& c) { return make_dense_data(c, shape); });
  const std::vector<uint8_t> want = spec::pack(shape, dense);
  const std::vector<uint8_t> want_dense = spec::canonical_dense(shape, dense);
  const std::vector<uint8_t> physical = random_physical(shape);
  const std::vector<uint8_t> want_unpacked = spec::unpack(shape, physical);
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  RC_ASSERT(!targets.empty());
  for (const int64_t target : targets) {
    const ScopedTarget on(target);
    RC_LOG() << "target " << hwy::TargetName(target) << "\n";
    for (const impl::ExecOptions options :
         {impl::ExecOptions{.threads = 1}, impl::ExecOptions{.threads = 1, .stream_bytes = 0}}) {
      agree(check::bytes_agree(shape, true, "wrong packed bytes", want, impl_pack(plan, dense, options)));
      agree(check::bytes_agree(shape, false, "unpack(pack(x)) != x", want_dense,
                               impl_unpack(plan, want, options)));
      agree(check::bytes_agree(shape, false, "wrong unpacked bytes", want_unpacked,
                               impl_unpack(plan, physical, options)));
    }
  }
}

// The same, with the width forced below a byte (E(1), E(2), E(4)), where the
// bit order of D7 matters.
void SubBytePackMatchesSpec() {
  LayoutAndData v = *gen_layout_and_data(kExhaustiveLimits);
  v.shape.layout.element_size_bits = *rc::gen::element<int64_t>(1, 2, 4);
  v.dense.assign(spec::dense_byte_size(v.shape), 0);
  for (size_t i = 0; i < v.dense.size(); ++i) v.dense[i] = static_cast<uint8_t>(i * 7 + 1);
  const impl::PackPlan plan(v.shape);
  const std::vector<uint8_t> packed = impl_pack(plan, v.dense, {.threads = 1});
  agree(check::pack_agrees(v.shape, v.dense, packed));
  agree(check::bytes_agree(v.shape, false, "unpack(pack(x)) != x", spec::canonical_dense(v.shape, v.dense),
                           impl_unpack(plan, packed, {.threads = 1})));
}

// 5. relayout(A -> B) == pack_B(unpack_A(src)) on arbitrary source bytes;
// relayout(A -> A) is the identity on packed (padding-zero) data.
void RelayoutMatchesSpec() {
  const auto [from, to] = *gen_from_recipe([](RcChoices& c) {
    ShapeWithLayout a = make_layout(c, kExhaustiveLimits);
    return std::pair{a, make_partner_layout(c, a, kExhaustiveLimits)};
  });
  RC_LOG() << print_shape(from) << " -> " << print_shape(to) << "\n";
  const std::vector<uint8_t> src = random_physical(from);
  GuardedBuffer dst(static_cast<size_t>(spec::byte_size(to)), kGarbage);
  // Bands of one granularity of rows up to the default (one band).
  const int64_t band_bytes = *rc::gen::element<int64_t>(1, 64, impl::RelayoutPlan::kDefaultBandBytes);
  const impl::RelayoutPlan relayout(from, to, band_bytes);
  RC_TAG(relayout.by_tiles()    ? "one pass"
         : relayout.banded()    ? "banded"
         : relayout.by_blocks() ? "by blocks"
                                : "whole array");
  relayout.run(src, dst.span(), {.threads = *rc::gen::element(1, 2)});
  RC_ASSERT(dst.intact());
  agree(check::bytes_agree(to, true, "relayout(A -> B) differs from pack_B(unpack_A(src))",
                           spec::pack(to, spec::unpack(from, src)), dst.bytes()));

  const std::vector<uint8_t> packed = spec::pack(from, spec::unpack(from, src));
  GuardedBuffer same(packed.size(), kGarbage);
  impl::RelayoutPlan(from, from).run(packed, same.span(), {.threads = 1});
  RC_ASSERT(same.intact());
  agree(check::bytes_agree(from, true, "relayout(A -> A) is not the identity", packed, same.bytes()));
}

// 4 (transposes at size). An untiled matrix stored transposed ({0,1}) of
// 1-, 2-, 4- or 8-byte elements, on one SIMD target, streamed or cached:
// past the regions and bands in which the element transposes move a large
// matrix (512 bytes or 1 KiB a side through the caches, 4 KiB streamed),
// with ragged edges, which the layouts of the other properties stay
// inside. Each dim 1 to 1,100; one case in four, one dim (either) past a
// streamed region, 4 KiB to 4 KiB + 200 elements, and the other 1 to 300;
// three in four rounded up to whole lines.
void TransposesAtSizeMatchSpec() {
  static constexpr std::array<const char*, 4> kTypes = {"s8", "bf16", "f32", "f64"};
  static constexpr std::array<int64_t, 4> kBytes = {1, 2, 4, 8};
  const size_t t = static_cast<size_t>(draw(0, kTypes.size() - 1));
  const std::string type = kTypes[t];
  int64_t rows = 0, cols = 0;
  const int64_t form = draw(0, 7);  // 0, 1: one dim past a streamed region
  if (form < 2) {
    const int64_t side = 4096 / kBytes[t];
    rows = form == 0 ? side + draw(1, 200) : draw(1, 300);
    cols = form == 1 ? side + draw(1, 200) : draw(1, 300);
  } else {
    rows = draw(1, 1100);
    cols = draw(1, 1100);
  }
  // Three cases in four, both dims whole lines (a multiple of 64 bytes), so
  // that both sides' rows start on a line and the transposes stream where
  // asked to (LinesWhole).
  if (draw(0, 3) != 0) {
    const int64_t line = 64 / kBytes[t];
    rows = (rows + line - 1) / line * line;
    cols = (cols + line - 1) / line * line;
  }
  LayoutAndData v;
  v.shape = parse_shape(type + "[" + std::to_string(rows) + "," + std::to_string(cols) + "]{0,1}");
  RC_LOG() << print_shape(v.shape) << "\n";
  RC_TAG(rows * cols > (int64_t{1} << 20) ? "past 2^20" : rows * cols > (int64_t{1} << 16) ? "past 2^16" : "smaller");
  v.dense = random_bytes(spec::dense_byte_size(v.shape));
  const ScopedTarget on(one_simd_target());
  impl::ExecOptions options{.threads = 1};
  if (draw(0, 3) != 0) options.stream_bytes = 0;  // streamed three cases in four
  RC_TAG(options.stream_bytes == 0 ? "streamed" : "cached");
  agree_with_spec(impl::PackPlan(v.shape), v, options);
}

// 4 and 5 (at size). Data movement past 2^16 and 2^20 elements
// (make_size_layout: each width class's TPU format, dims drawn so that
// 2^16-element chunks and thread shares fall anywhere in a byte and a
// tile), on 1 to 8 threads, with the size thresholds at their defaults or
// at zero: pack, unpack and relayout into a partner layout == the spec, and
// the thread schedule partitions the work with no byte shared by two
// threads of a pack (docs/GATE.md, "Data movement at size").
void PackAtSizeMatchesSpec() {
  const LayoutAndData v = *gen_layout_and_data_from([](RcChoices& c) { return make_size_layout(c, int64_t{2} << 20); });
  RC_TAG(spec::element_count(v.shape) > (int64_t{1} << 20) ? "past 2^20" : "past 2^16");
  const int threads = *rc::gen::element(1, 2, 3, 4, 8);
  impl::ExecOptions options{.threads = threads};
  if (*rc::gen::arbitrary<bool>()) options.stream_bytes = options.parallel_bytes = 0;
  const impl::PackPlan plan(v.shape);
  if (const std::optional<std::string> problem = check::thread_schedule_problem(plan, {threads})) RC_FAIL(*problem);
  agree_with_spec(plan, v, options);
  const int64_t padded = spec::padded_element_count(v.shape);
  const ShapeWithLayout to = *gen_from_recipe([from = v.shape, padded](RcChoices& c) {
    return make_partner_layout(c, from, {.max_elements = padded, .max_padded_elements = 2 * padded});
  });
  RC_LOG() << "relayout to " << print_shape(to) << "\n";
  const std::vector<uint8_t> src = random_physical(v.shape);
  GuardedBuffer dst(static_cast<size_t>(spec::byte_size(to)), kGarbage);
  impl::RelayoutPlan(v.shape, to).run(src, dst.span(), options);
  RC_ASSERT(dst.intact());
  agree(check::bytes_agree(to, true, "relayout(A -> B) differs from pack_B(unpack_A(src))",
                           spec::pack(to, spec::unpack(v.shape, src)), dst.bytes()));
}

// A strided view of a dense array: element e at sum of e[l]*strides[l]
// bytes. Copies between it and the row-major form.
struct StridedView {
  std::vector<int64_t> dims, strides;  // strides in bytes
  int64_t nb = 1;
  int64_t base = 0;  // element 0's byte offset in the buffer
  template <class F>
  void each(F f) const {  // f(row-major byte offset, byte offset in the buffer)
    int64_t i = 0;
    for_each_element(dims, [&](const std::vector<int64_t>& e) {
      int64_t at = base;
      for (size_t l = 0; l < e.size(); ++l) at += e[l] * strides[l];
      f(i++ * nb, at);
    });
  }
  void scatter(std::span<const uint8_t> row_major, std::span<uint8_t> view) const {
    each([&](int64_t r, int64_t v) { std::memcpy(view.data() + v, row_major.data() + r, nb); });
  }
  std::vector<uint8_t> gather(std::span<const uint8_t> view, size_t row_major_bytes) const {
    std::vector<uint8_t> out(row_major_bytes);
    each([&](int64_t r, int64_t v) { std::memcpy(out.data() + r, view.data() + v, nb); });
    return out;
  }
};

// 11. Pack from and unpack into a strided view of the dense array (any
// order of the dims in memory, gaps between elements and rows, and
// sometimes a dim of stride 0, numpy's broadcast) == the spec on the same
// elements; unpack writes no byte between the elements and refuses a view
// whose elements overlap. Streamed and cached stores, threads, lowered and
// per-element layouts. The gaps are 0 to 3 elements, or in half the cases
// up to 64, which is no whole vector or cache line; the view starts 0 to
// 63 bytes past a cache line, so that its rows start at every alignment.
void StridedViewsMatchSpec() {
  // Half the cases on layouts shaped for the SIMD kernels, on one of the
  // targets compiled in: the row interleaves and panels into rows whose
  // stride is not a whole vector (a column range of a wider array).
  // One case in 8 a rank-1 array of 4-, 2- or 1-bit elements: its view's
  // gaps reach the sub-byte row loop with a dense stride other than one.
  const bool kernel_shaped = *rc::gen::arbitrary<bool>();
  const bool sub_byte_row = !kernel_shaped && *rc::gen::element(0, 1, 2, 3) == 3;
  const auto sub_byte_array = [](RcChoices& c) {
    ShapeWithLayout shape;
    shape.type = one_of(c, {ElementType::kS4, ElementType::kU4, ElementType::kS2, ElementType::kU1});
    shape.dims = {c.in_range(2, 40)};
    shape.layout.minor_to_major = {0};
    return shape;
  };
  const LayoutAndData v = sub_byte_row ? *gen_layout_and_data_from(sub_byte_array)
                                       : *gen_kernel_or_recipe_layout_and_data(kernel_shaped);
  const ScopedTarget on(one_simd_target());
  RC_TAG(kernel_shaped ? "kernel-shaped" : sub_byte_row ? "sub-byte row" : "recipe");
  const int64_t nb = v.shape.dense_element_bytes();
  const int64_t rank = v.shape.rank();
  std::vector<int64_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  // The dims' order in memory, innermost first: a shuffle (shrinks to none).
  uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  if (seed != 0) {
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[splitmix64(seed) % i]);
  } else {
    std::reverse(order.begin(), order.end());  // row-major
  }
  const bool wide_gaps = *rc::gen::arbitrary<bool>();
  StridedView view{v.shape.dims, std::vector<int64_t>(rank, 0), nb, *rc::gen::inRange<int64_t>(0, 64)};
  int64_t reach = 1;  // elements spanned so far
  for (const int64_t l : order) {
    const int64_t stride = reach + *rc::gen::inRange<int64_t>(0, wide_gaps ? 65 : 4);
    view.strides[l] = stride * nb;
    reach = stride * std::max<int64_t>(v.shape.dims[l] - 1, 0) + reach;
  }
  std::vector<int64_t> wide;
  for (int64_t l = 0; l < rank; ++l) {
    if (v.shape.dims[l] > 1) wide.push_back(l);
  }
  const bool broadcast = !wide.empty() && *rc::gen::element(0, 1, 2, 3) == 3;
  std::vector<uint8_t> dense = v.dense;
  if (broadcast) {
    // Every element along dim l reads the same bytes: the data's copy at
    // index 0 of dim l.
    const int64_t l = wide[*rc::gen::inRange<size_t>(0, wide.size())];
    view.strides[l] = 0;
    std::vector<int64_t> row_major(rank, nb);
    for (int64_t k = rank - 2; k >= 0; --k) row_major[k] = row_major[k + 1] * v.shape.dims[k + 1];
    int64_t i = 0;
    for_each_element(v.shape.dims, [&](const std::vector<int64_t>& e) {
      const int64_t from = (i++) * nb - e[l] * row_major[l];
      std::memcpy(dense.data() + (i - 1) * nb, v.dense.data() + from, nb);
    });
  }
  RC_TAG(broadcast ? "broadcast" : "distinct elements");
  const impl::PackPlan plan(v.shape, view.strides);
  RC_TAG(plan.lowered() ? "lowered" : "per element");
  // Streamed (threshold 0) or not (the default threshold, far above these
  // arrays): the kernels store differently into the same rows.
  const int64_t stream_bytes = *rc::gen::element<int64_t>(0, impl::ExecOptions{}.stream_bytes);
  RC_TAG(stream_bytes == 0 ? "streamed" : "cached");
  const impl::ExecOptions options{
      .threads = *rc::gen::element(0, 1, 2, 3), .stream_bytes = stream_bytes, .parallel_bytes = 0};
  RC_LOG() << print_shape(v.shape) << " strides " << join(view.strides) << " from byte " << view.base
           << " of a line\n";
  RC_TAG(wide_gaps ? "gaps up to 64" : "gaps up to 3");

  const size_t span_bytes = static_cast<size_t>(view.base + plan.dense_span_bytes());
  GuardedBuffer source(span_bytes, kGarbage, kSourceGuard);
  view.scatter(dense, source.span());
  GuardedBuffer physical(static_cast<size_t>(plan.index().byte_size()), kGarbage);
  plan.pack(source.span().subspan(static_cast<size_t>(view.base)), physical.span(), options);
  RC_ASSERT(physical.intact());
  agree(check::pack_agrees(v.shape, dense, physical.bytes()));
  if (broadcast) {
    GuardedBuffer out(span_bytes, kGarbage);
    RC_ASSERT_THROWS_AS(plan.unpack(physical.span(), out.span().subspan(static_cast<size_t>(view.base)), options),
                        Error);
    return;
  }
  const std::vector<uint8_t> random = random_physical(v.shape);
  GuardedBuffer target(span_bytes, kGarbage);
  plan.unpack(random, target.span().subspan(static_cast<size_t>(view.base)), options);
  RC_ASSERT(target.intact());
  agree(check::unpack_agrees(v.shape, random, view.gather(target.span(), dense.size())));
  // Nothing written between the elements.
  std::vector<uint8_t> untouched = target.bytes();
  view.each([&](int64_t, int64_t at) { std::fill_n(untouched.begin() + at, nb, kGarbage); });
  RC_ASSERT(std::all_of(untouched.begin(), untouched.end(), [](uint8_t b) { return b == kGarbage; }));
}

// Rows for the streaming rules: `n` bytes each, `row_stride` apart from
// `dense`; the address, the length and the stride past a whole number of
// units each a whole number of units half the time, so every combination
// of aligned and not comes up.
struct UnitRows {
  uintptr_t dense;
  int64_t n, row_stride;
};
UnitRows gen_unit_rows(int64_t unit) {
  const auto units_plus_some = [&] {
    const int64_t units = *rc::gen::inRange<int64_t>(0, 5);
    const int64_t rest = *rc::gen::oneOf(rc::gen::just<int64_t>(0), rc::gen::inRange<int64_t>(1, unit));
    return units * unit + rest;
  };
  UnitRows r;
  r.dense = (uintptr_t{1} << 20) + static_cast<uintptr_t>(units_plus_some());
  r.n = std::max<int64_t>(units_plus_some(), 1);
  r.row_stride = (r.n + unit - 1) / unit * unit + units_plus_some();  // >= n, its own remainder
  return r;
}

// No cache line among both (each list in any order, repeats allowed).
void assert_no_line_both_streamed_and_cached(std::vector<uintptr_t> streamed, std::vector<uintptr_t> cached) {
  std::sort(streamed.begin(), streamed.end());
  std::sort(cached.begin(), cached.end());
  std::vector<uintptr_t> both;
  std::set_intersection(streamed.begin(), streamed.end(), cached.begin(), cached.end(), std::back_inserter(both));
  RC_ASSERT(both.empty());
}

// 13. Where the kernels stream (impl/kernels.h, rows_streamable), at every
// unit from 16 to 256 bytes whatever this CPU has (the unit is a vector, or
// a cache line where a kernel stages whole lines): when it says yes, every
// store of every row is aligned to the unit (a misaligned streaming store
// faults on x86) and no cache line gets both streamed and cached (tail)
// bytes; and it says yes at least when the address, the row stride and the
// row length are whole units. Each of the three is drawn a whole number of
// units half the time, so every combination of aligned and not comes up.
void StreamedRowStoresAreAligned() {
  const int64_t N = *rc::gen::element<int64_t>(16, 32, 64, 128, 256);
  const int64_t rows = *rc::gen::element<int64_t>(8, 32);  // the streamed unpacks' row counts
  const auto [dense, n, row_stride] = gen_unit_rows(N);
  RC_LOG() << "unit " << N << " bytes, " << rows << " rows of " << n << " bytes, " << row_stride
           << " apart, from an address " << dense % N << " past a unit\n";
  const bool streamable = impl::kernels::rows_streamable(dense, row_stride, n, N);
  if (dense % N == 0 && row_stride % N == 0 && n % N == 0) RC_ASSERT(streamable);
  if (!streamable) return;
  constexpr uintptr_t kLine = 64;
  std::vector<uintptr_t> streamed_lines, cached_lines;
  const int64_t whole = n / N * N;  // each row's bytes [0, whole) streamed, [whole, n) cached
  for (int64_t r = 0; r < rows; ++r) {
    const uintptr_t row = dense + static_cast<uintptr_t>(r * row_stride);
    const auto at = [&](int64_t offset) { return row + static_cast<uintptr_t>(offset); };
    for (int64_t c = 0; c < whole; c += N) {
      RC_ASSERT(at(c) % static_cast<uintptr_t>(N) == 0);
      for (uintptr_t line = at(c) / kLine; line <= at(c + N - 1) / kLine; ++line) streamed_lines.push_back(line);
    }
    if (whole < n) {
      for (uintptr_t line = at(whole) / kLine; line <= at(n - 1) / kLine; ++line) cached_lines.push_back(line);
    }
  }
  assert_no_line_both_streamed_and_cached(streamed_lines, cached_lines);
}

// 13 (how). How the kernels store rows they write in turn
// (impl/kernels.h, row_stores), at every vector width from 16 to 256
// bytes whatever this CPU has, asked to stream or not, simulated store by
// store in the order the kernels make them (streamed vectors: one column
// of vectors across the rows, then the next; staged lines: a line of each
// row in turn): every streamed store is aligned to its vector and inside
// its row, no cache line gets both streamed and cached bytes, and the
// streamed stores fill each line before they move to another (a
// write-combining buffer left half full costs a read-modify-write in
// memory). Cached when not asked to stream; streamed, or for vectors
// narrower than a line staged, at least where the address, the row stride
// and the row length are whole units (vectors, or lines when narrower).
void RowStoresStreamWholeLines() {
  const int64_t N = *rc::gen::element<int64_t>(16, 32, 64, 128, 256);
  constexpr int64_t kLine = impl::kernels::kLineBytes;
  const int64_t unit = std::max(N, kLine);
  const int64_t rows = *rc::gen::element<int64_t>(2, 8, 32);
  const auto [dense, n, row_stride] = gen_unit_rows(unit);
  const bool stream = *rc::gen::arbitrary<bool>();
  using impl::kernels::RowStores;
  const RowStores how = impl::kernels::row_stores(stream, dense, row_stride, n, N);
  RC_LOG() << (stream ? "streamed" : "cached") << " rows, vectors of " << N << " bytes, " << rows << " rows of "
           << n << " bytes, " << row_stride << " apart, from an address " << dense % kLine << " past a line: "
           << (how == RowStores::kCached ? "cached" : how == RowStores::kStreamed ? "streamed" : "staged lines")
           << "\n";
  RC_TAG(how == RowStores::kCached ? "cached" : how == RowStores::kStreamed ? "streamed" : "staged lines");
  if (!stream) RC_ASSERT(how == RowStores::kCached);
  const bool whole_units = dense % static_cast<uintptr_t>(unit) == 0 && row_stride % unit == 0 && n % unit == 0;
  if (how == RowStores::kCached) {
    RC_ASSERT(!(stream && whole_units));
    return;
  }
  // The streamed stores in order, as (row, offset in the row); the rest of
  // each row (past its whole vectors or lines) cached.
  std::vector<std::pair<int64_t, int64_t>> streamed;
  const int64_t step = how == RowStores::kStreamed ? N : kLine;
  const int64_t whole = how == RowStores::kStreamed ? n / N * N : (n + kLine - 1) / kLine * kLine;
  for (int64_t c = 0; c < whole; c += step) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t b = 0; b < step; b += N) streamed.push_back({r, c + b});
    }
  }
  const auto address = [&](int64_t r, int64_t offset) {
    return dense + static_cast<uintptr_t>(r * row_stride + offset);
  };
  std::vector<uintptr_t> streamed_lines, cached_lines;
  std::optional<uintptr_t> open_line;  // the line the streamed stores are filling
  int64_t filled = 0;
  for (const auto& [r, offset] : streamed) {
    RC_ASSERT(address(r, offset) % static_cast<uintptr_t>(N) == 0);
    RC_ASSERT(offset + N <= n);
    for (int64_t b = 0; b < N; ++b) {
      const uintptr_t line = address(r, offset + b) / kLine;
      if (open_line != line) {
        if (open_line) RC_ASSERT(filled == kLine);
        open_line = line;
        filled = 0;
        streamed_lines.push_back(line);
      }
      ++filled;
    }
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t b = std::min(whole, n); b < n; ++b) cached_lines.push_back(address(r, b) / kLine);
  }
  assert_no_line_both_streamed_and_cached(streamed_lines, cached_lines);
  if (stream && whole_units) RC_ASSERT(how == (N < kLine ? RowStores::kStagedLines : RowStores::kStreamed));
}

// 12. Row slices (impl::row_slice): the slices of a random cut of the
// physical-major dim at multiples of the granularity lie end to end and
// cover the physical buffer; packing each slice's elements into its range
// writes the spec's whole pack; unpacking each range fills the spec's whole
// unpack. Bounds off the granularity are an Error. Half the cases on
// layouts shaped for the SIMD kernels, on one of the targets compiled in,
// streamed or not: a slice's rows are the kernels' rows with an offset.
void RowSlicesMatchSpec() {
  const bool kernel_shaped = *rc::gen::arbitrary<bool>();
  const LayoutAndData v = *gen_kernel_or_recipe_layout_and_data(kernel_shaped);
  RC_TAG(kernel_shaped ? "kernel-shaped" : "recipe");
  const ScopedTarget on(one_simd_target());
  const impl::ExecOptions options{.threads = 1,
                                  .stream_bytes = *rc::gen::element<int64_t>(0, impl::ExecOptions{}.stream_bytes)};
  int64_t granularity = 0;
  try {
    granularity = impl::row_slice_granularity(v.shape);
  } catch (const Error& e) {
    const std::string why = e.what();
    RC_ASSERT(why.find("cannot slice") != std::string::npos);
    RC_TAG("not sliceable: " + why.substr(why.find(": ") + 2, 20));
    return;
  }
  const int64_t dim = v.shape.layout.minor_to_major.back();
  const int64_t rows = v.shape.dims[dim];
  RC_TAG(granularity > 1 ? "granularity above 1" : "any row");
  if (rows == 0 || spec::element_count(v.shape) == 0) return;
  std::vector<int64_t> cuts{0};
  for (int64_t r = granularity; r < rows; r += granularity) {
    if (*rc::gen::inRange(0, 3) == 0) cuts.push_back(r);
  }
  cuts.push_back(rows);
  RC_LOG() << print_shape(v.shape) << " cut at " << join(cuts) << "\n";
  const std::vector<uint8_t> random = random_physical(v.shape);
  GuardedBuffer physical(static_cast<size_t>(spec::byte_size(v.shape)), kGarbage);
  GuardedBuffer dense(v.dense.size(), kGarbage);
  int64_t next = 0;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const impl::RowSlice slice = impl::row_slice(v.shape, cuts[i], cuts[i + 1]);
    RC_ASSERT(slice.physical_offset == next);
    next = slice.physical_offset + slice.physical_bytes;
    const impl::PackPlan plan(slice.shape, slice.dense_byte_strides);
    RC_ASSERT(plan.index().byte_size() == slice.physical_bytes);
    const size_t span = static_cast<size_t>(plan.dense_span_bytes());
    plan.pack(std::span(v.dense).subspan(slice.dense_offset, span),
              physical.span().subspan(slice.physical_offset, slice.physical_bytes), options);
    plan.unpack(std::span(random).subspan(slice.physical_offset, slice.physical_bytes),
                dense.span().subspan(slice.dense_offset, span), options);
  }
  RC_ASSERT(next == spec::byte_size(v.shape));
  RC_ASSERT(physical.intact());
  RC_ASSERT(dense.intact());
  agree(check::pack_agrees(v.shape, v.dense, physical.bytes()));
  agree(check::unpack_agrees(v.shape, random, dense.bytes()));
  if (granularity > 1) {
    const int64_t off = *rc::gen::inRange<int64_t>(1, granularity);
    if (off < rows) RC_ASSERT_THROWS_AS(impl::row_slice(v.shape, off, rows), Error);
  }
}

// 5 (by tiles). Pairs that differ only in their sub-tiles, one side without
// any (TPU (8,128) <-> (8,128)(2,1), (4,1), (8,1), (32,1)), on whole and
// ragged tiles: relayout(A -> B) == pack_B(unpack_A(src)), the pairs that
// divide evenly in one pass over the tiles (RelayoutPlan::by_tiles).
//
// Half the pairs miss the one pass by one condition of make_interiors, the
// others holding (docs/COVERAGE.md, "Conditions of the path choices"):
// both sides sub-tiled, differently; first tiles that differ; the dims in
// another order; a sub-tile with more dims than the tile; a sub-tile that
// does not divide the tile.
void RelayoutBetweenSubTilingsMatchesSpec() {
  ShapeWithLayout from = *gen_from_recipe([](RcChoices& c) { return make_kernel_layout(c, 4096); });
  ShapeWithLayout to = from;
  to.layout.tiles.resize(1);
  std::vector<int64_t>& tile = from.layout.tiles[0].dims;
  switch (*rc::gen::element(0, 0, 0, 0, 0, 1, 2, 3, 4, 5)) {  // shrinks to 0: the pair as drawn
    case 1:  // both sub-tiled: the plain side gets a sub-tile of its own
      to.layout.tiles.push_back(Tile{{*rc::gen::element<int64_t>(1, 2, 3, 4, 8), 1}});
      RC_TAG("both sub-tiled");
      break;
    case 2:  // first tiles differ: the plain side's columns halved
      if (tile.back() % 2 == 0) {
        to.layout.tiles[0].dims.back() /= 2;
        RC_TAG("other first tile");
      }
      break;
    case 3:  // the dims in another order: a new outer dim of one tile's rows, physically major on one side only
      if (from.rank() == 2 && tile[0] * from.dims[0] * from.dims[1] <= 16384) {
        const int64_t minor = from.layout.minor_to_major[0], major = from.layout.minor_to_major[1];
        from.dims.push_back(tile[0]);
        to.dims = from.dims;
        from.layout.minor_to_major = {minor, major, 2};
        to.layout.minor_to_major = {minor, 2, major};
        RC_TAG("other dim order");
      }
      break;
    case 4:  // a sub-tile with more dims than the tile: the tile's rows dropped, on both sides
      tile.erase(tile.begin());
      to.layout.tiles[0] = from.layout.tiles[0];
      RC_TAG("sub-tile past the tile");
      break;
    case 5:  // a sub-tile of 3 rows, which divides no tile's rows (2 to 64, a power of two): padding inside the tile
      from.layout.tiles.resize(1);
      from.layout.tiles.push_back(Tile{{3, 1}});
      RC_TAG("sub-tile not dividing the tile");
      break;
    default:
      break;
  }
  if (*rc::gen::arbitrary<bool>()) std::swap(from, to);
  RC_LOG() << print_shape(from) << " -> " << print_shape(to) << "\n";
  const impl::RelayoutPlan relayout(from, to);
  RC_TAG(relayout.by_tiles()    ? "one pass"
         : relayout.banded()    ? "banded"
         : relayout.by_blocks() ? "by blocks"
                                : "whole array");
  const std::vector<uint8_t> src = random_physical(from);
  GuardedBuffer dst(static_cast<size_t>(spec::byte_size(to)), kGarbage);
  relayout.run(src, dst.span(), {.threads = *rc::gen::element(1, 2), .stream_bytes = 0, .parallel_bytes = 0});
  RC_ASSERT(dst.intact());
  agree(check::bytes_agree(to, true, "relayout(A -> B) differs from pack_B(unpack_A(src))",
                           spec::pack(to, spec::unpack(from, src)), dst.bytes()));
}

// 5 (by blocks). Pairs of rank 2 or 3 whose physical-major dims differ, so
// that neither the one pass nor the bands apply: each side's first tile (or
// none, tiles of one element) over the last 0 to rank physical dims, the
// dims in any order on each side but another major dim, a sub-tile on one side in one pair in three, elements
// of 4 to 64 bits, on one SIMD target, streamed or cached; blocks from both
// layouts' tiles alone (band bytes 1) to the default. Tile entries 1 to 16,
// 3 and 6 among them (a block is the least common multiple of the tiles
// over each dim, not the larger). Every dim a multiple of both sides' tiles
// over it, but three pairs in ten miss the blocks by one condition
// (RelayoutPlan::by_blocks): a ragged tile, a sub-tile that pads its tile,
// L(n) tail padding, or a sub-tile of more dims than the first tile; or
// carry an L(n) that pads nothing.
void RelayoutByBlocksMatchesSpec() {
  const std::string type = *rc::gen::element<std::string>("s4", "s8", "bf16", "f32", "f64");
  const size_t rank = static_cast<size_t>(draw(2, 3));
  // Per logical dim, the two sides' tile extents over it, and the dim.
  std::vector<int64_t> ta(rank), tb(rank), dims(rank);
  int64_t elements = 1;
  for (size_t l = 0; l < rank; ++l) {
    ta[l] = *rc::gen::element<int64_t>(1, 2, 3, 4, 6, 8, 16);
    tb[l] = *rc::gen::element<int64_t>(1, 2, 3, 4, 6, 8, 16);
    dims[l] = std::lcm(ta[l], tb[l]) * draw(1, 4);
    elements *= dims[l];
  }
  // Kept small for the spec: the largest dims cut to one multiple of their
  // tiles, then, past that, to an untiled dim of 1.
  for (int pass = 0; pass < 2 && elements > 16384; ++pass) {
    for (size_t l = 0; l < rank && elements > 16384; ++l) {
      const size_t big = static_cast<size_t>(std::max_element(dims.begin(), dims.end()) - dims.begin());
      if (pass == 1) ta[big] = tb[big] = 1;
      elements = elements / dims[big] * std::lcm(ta[big], tb[big]);
      dims[big] = std::lcm(ta[big], tb[big]);
    }
  }
  // A layout over `dims`: the physical order `order` (major first), the
  // first tile over its last k positions.
  const auto layout = [&](const std::vector<int64_t>& tile, std::vector<int64_t> order, size_t k, std::string extra) {
    std::string text = type + "[";
    for (size_t l = 0; l < rank; ++l) text += (l ? "," : "") + std::to_string(dims[l]);
    text += "]{";
    for (size_t j = rank; j-- > 0;) text += std::to_string(order[j]) + (j ? "," : "");
    if (k > 0 || !extra.empty()) text += ":";
    if (k > 0) {
      text += "T(";
      for (size_t j = rank - k; j < rank; ++j) text += std::to_string(tile[order[j]]) + (j + 1 < rank ? "," : "");
      text += ")";
    }
    return text + extra + "}";
  };
  std::vector<int64_t> order_a(rank), order_b(rank);
  std::iota(order_a.begin(), order_a.end(), 0);
  std::iota(order_b.begin(), order_b.end(), 0);
  for (int64_t n = draw(0, 5); n > 0; --n) std::next_permutation(order_a.begin(), order_a.end());
  for (int64_t n = draw(0, 5); n > 0; --n) std::next_permutation(order_b.begin(), order_b.end());
  if (order_b[0] == order_a[0]) std::rotate(order_b.begin(), order_b.begin() + 1, order_b.end());  // majors differ
  const size_t ka = static_cast<size_t>(draw(0, static_cast<int64_t>(rank)));
  const size_t kb = static_cast<size_t>(draw(0, static_cast<int64_t>(rank)));
  std::string extra_a;
  // A sub-tile (r,1) of the first tile's last two entries, r dividing its
  // rows: (2,1) of bf16, (4,1) of s8, (8,1) of s4, as TPU layouts have.
  if (ka >= 2 && draw(0, 2) == 0) {
    const int64_t rows = ta[order_a[rank - 2]];
    extra_a = "(" + std::to_string(std::gcd(rows, *rc::gen::element<int64_t>(1, 2, 4, 8, 16))) + ",1)";
  }
  switch (draw(0, 9)) {  // 0, 1, 2: one condition missed
    case 0: {  // a ragged tile: one dim one past a multiple of a tile over it
      const size_t l = static_cast<size_t>(draw(0, static_cast<int64_t>(rank) - 1));
      if (std::max(ta[l], tb[l]) > 1) {
        dims[l] += 1;
        RC_TAG("a ragged tile");
      }
      break;
    }
    case 1:  // a sub-tile of 3 rows, or L(n), on the first side
      if (ka >= 2 && ta[order_a[rank - 2]] % 3 != 0) {
        extra_a = "(3,1)";
        RC_TAG("a sub-tile padding its tile");
      } else if (*rc::gen::arbitrary<bool>()) {
        extra_a = "L(" + std::to_string(2 * elements + 1) + ")";
        RC_TAG("tail padding");
      } else {  // L(n) that pads nothing: it applies to the whole array, not to a block
        extra_a = "L(" + std::to_string(elements) + ")";
        RC_TAG("L(n) without padding");
      }
      break;
    case 2:  // a sub-tile of two dims under a first tile of one: it spans two tiles
      if (ka == 1) {
        extra_a = "(2,1)";
        RC_TAG("a sub-tile across tiles");
      }
      break;
    default:
      break;
  }
  ShapeWithLayout from = parse_shape(layout(ta, order_a, ka, extra_a));
  ShapeWithLayout to = parse_shape(layout(tb, order_b, kb, ""));
  if (*rc::gen::arbitrary<bool>()) std::swap(from, to);
  RC_LOG() << print_shape(from) << " -> " << print_shape(to) << "\n";
  const int64_t band_bytes = *rc::gen::element<int64_t>(1, 1, 64, 4096, impl::RelayoutPlan::kDefaultBandBytes);
  const impl::RelayoutPlan relayout(from, to, band_bytes);
  RC_TAG(relayout.by_tiles()    ? "one pass"
         : relayout.banded()    ? "banded"
         : relayout.by_blocks() ? "by blocks"
                                : "whole array");
  const ScopedTarget on(one_simd_target());
  impl::ExecOptions options{.threads = *rc::gen::element(1, 2)};
  if (*rc::gen::arbitrary<bool>()) options.stream_bytes = options.parallel_bytes = 0;
  const std::vector<uint8_t> src = random_physical(from);
  GuardedBuffer dst(static_cast<size_t>(spec::byte_size(to)), kGarbage);
  relayout.run(src, dst.span(), options);
  RC_ASSERT(dst.intact());
  agree(check::bytes_agree(to, true, "relayout(A -> B) differs from pack_B(unpack_A(src))",
                           spec::pack(to, spec::unpack(from, src)), dst.bytes()));
}

// 8. Several threads write exactly the bytes one thread writes (pack,
// unpack, relayout).
void ThreadsWriteIdenticalBytes() {
  const LayoutAndData v = *gen_layout_and_data();
  const int threads = *rc::gen::inRange(2, 9);
  const impl::PackPlan plan(v.shape);
  const std::vector<uint8_t> one = impl_pack(plan, v.dense, {.threads = 1});
  RC_ASSERT(impl_pack(plan, v.dense, {.threads = threads}) == one);
  RC_ASSERT(impl_unpack(plan, one, {.threads = threads}) == impl_unpack(plan, one, {.threads = 1}));
  // By value: RapidCheck re-runs the generator while shrinking, after this frame.
  const ShapeWithLayout to =
      *gen_from_recipe([from = v.shape](RcChoices& c) { return make_partner_layout(c, from); });
  const impl::RelayoutPlan relayout(v.shape, to, *rc::gen::element<int64_t>(1, impl::RelayoutPlan::kDefaultBandBytes));
  GuardedBuffer single(static_cast<size_t>(spec::byte_size(to)), kGarbage);
  GuardedBuffer several(static_cast<size_t>(spec::byte_size(to)), kGarbage);
  relayout.run(one, single.span(), {.threads = 1});
  relayout.run(one, several.span(), {.threads = threads});
  RC_ASSERT(single.intact());
  RC_ASSERT(several.intact());
  RC_ASSERT(several.bytes() == single.bytes());
}

// 8 (by construction). The thread schedule keeps its invariants
// (PackPlan::thread_shares): the shares cover exactly the outer iterations
// and physical bits one thread covers, in order, each once, and no two
// shares of a pack write into the same byte (sub-byte elements are ORed into
// bytes: two threads in one byte would race, which a comparison of results
// sees only rarely). Checked on the schedule itself, for 2-8 threads.
void ThreadSharesPartitionTheWork() {
  const ShapeWithLayout shape = *gen_layout();
  const int threads = *rc::gen::inRange(2, 9);
  const std::optional<std::string> problem =
      check::thread_schedule_problem(impl::PackPlan(shape), {threads});
  if (problem) RC_FAIL(*problem);
}

// 8 (how many). The thread count follows ExecOptions: n > 0 threads give
// at most n shares and no more than the outermost extent (the last
// share's end), one when a sub-byte pack cannot split on bytes; 0 gives
// one share below parallel_bytes (the larger of the dense and physical
// sizes) and, from it on, the shares of as many threads as the machine has
// cores. A speed choice (threads cost about 20 us to start and join), so
// checked on the schedule, where it is decided, with parallel_bytes at,
// just above and just below the array.
void ThreadCountFollowsTheOptions() {
  const ShapeWithLayout shape = *gen_layout();
  const impl::PackPlan plan(shape);
  const bool pack = *rc::gen::arbitrary<bool>();
  const int64_t bytes = std::max(spec::byte_size(shape), spec::dense_byte_size(shape));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<impl::PackPlan::ThreadShare> by_cores = plan.thread_shares(pack, {.threads = cores});
  if (by_cores.empty()) return;  // an empty array, or a plan not lowered: one thread
  const int64_t extent = by_cores.back().end;
  const int n = *rc::gen::inRange(1, 9);
  const size_t shares = plan.thread_shares(pack, {.threads = n}).size();
  RC_ASSERT(shares >= 1 && shares <= static_cast<size_t>(std::min<int64_t>(n, extent)));
  RC_ASSERT(by_cores.size() <= static_cast<size_t>(std::min<int64_t>(cores, extent)));
  const int64_t parallel_bytes = std::max<int64_t>(0, bytes + *rc::gen::element<int64_t>(-1, 0, 1));
  const std::vector<impl::PackPlan::ThreadShare> automatic =
      plan.thread_shares(pack, {.threads = 0, .parallel_bytes = parallel_bytes});
  RC_TAG(bytes < parallel_bytes ? "below parallel_bytes" : "from parallel_bytes on");
  if (bytes < parallel_bytes) {
    RC_ASSERT(automatic.size() == 1u);
  } else {
    RC_ASSERT(automatic.size() == by_cores.size());
  }
}

// 9. Division by divisors of every magnitude. The impl divides positions by
// dims and tile sizes with a multiply and a shift (impl/fast_div.h) whose
// shift and magic number depend on the divisor's magnitude, so every case
// draws one divisor d from each band [2^b, 2^(b+1)), b = 0..62, and d =
// INT64_MAX, and delinearizes u8[d] and u8[a,d] (a*d <= INT64_MAX) at the
// positions where a floor division goes wrong first: 0, d-1, d, k*d-1, k*d
// and the last position. The element must be (p / d, p % d), as the
// hardware divides, and index back to p in the impl and in the spec.
void DelinearizeEveryDivisorMagnitude() {
  spec::Int64Domain a;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto check = [&](const ShapeWithLayout& shape, int64_t d, int64_t p) {
    const impl::IndexPlan plan(shape);
    std::vector<int64_t> back(shape.rank());
    RC_ASSERT(plan.delinearize(p, back));
    std::vector<int64_t> expected = {p / d, p % d};
    if (shape.rank() == 1) expected.erase(expected.begin());
    RC_ASSERT(back == expected);
    RC_ASSERT(plan.linear_index(back) == p);
    RC_ASSERT(spec::linear_index_with_tile(a, shape.dims, shape.layout, back) == p);
  };
  for (int band = 0; band <= 63; ++band) {
    const int64_t d = band == 63 ? kMax
                                 : *rc::gen::inRange<int64_t>(int64_t{1} << band,
                                                              band == 62 ? kMax : int64_t{1} << (band + 1));
    const ShapeWithLayout one = parse_shape("u8[" + std::to_string(d) + "]{0}");
    for (int64_t p : {int64_t{0}, d - 1, *rc::gen::inRange<int64_t>(0, d)}) check(one, d, p);
    const int64_t rows = 1 + *rc::gen::inRange<int64_t>(0, kMax / d);  // 1..kMax/d
    const ShapeWithLayout two = parse_shape("u8[" + std::to_string(rows) + "," + std::to_string(d) + "]{1,0}");
    const int64_t k = 1 + *rc::gen::inRange<int64_t>(0, rows);  // 1..rows
    for (int64_t p : {int64_t{0}, d - 1, k * d - 1, rows * d - 1}) check(two, d, p);
    if (k < rows) check(two, d, k * d);
  }
}

// 10. The bitcast check (check/bitcast.h, over the impl's index plans)
// against the spec's pack: a reshape keeps the dense array as it is, so
// reading from's buffer as `to` is a bitcast exactly when packing the same
// dense data gives the same bytes. The elements are 32-bit and all distinct
// (1, 2, 3, ...), so equal bytes mean every element at the same place.
void BitcastAgreesWithPack() {
  const BitcastPair pair = *gen_bitcast_pair();
  const check::BitcastReport r = check::check_bitcast(pair.from, pair.to);
  const int64_t n = spec::element_count(pair.from);
  std::vector<uint8_t> dense(static_cast<size_t>(n) * 4);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t v = static_cast<uint32_t>(i + 1);
    std::memcpy(dense.data() + 4 * i, &v, 4);
  }
  const bool same_bytes = spec::pack(pair.from, dense) == spec::pack(pair.to, dense);
  RC_TAG(same_bytes ? "a bitcast" : "not a bitcast");
  RC_ASSERT(r.is_bitcast == same_bytes);
  // Equal sizes and no bitcast: some element moved, and the one named is
  // where the spec says, in both layouts.
  if (!r.is_bitcast && r.from_bytes == r.to_bytes) RC_ASSERT(r.first_moved.has_value());
  if (r.first_moved) {
    RC_ASSERT(spec::linear_index(pair.from, r.first_moved->from_element) == r.first_moved->from_position);
    RC_ASSERT(spec::linear_index(pair.to, r.first_moved->to_element) == r.first_moved->to_position);
    RC_ASSERT(r.first_moved->from_position != r.first_moved->to_position);
  }
}

}  // namespace

std::vector<PropertyInfo> impl_property_suite() {
  std::vector<PropertyInfo> suite = {
      {"ImplProperties", "LinearIndexMatchesSpec", "p1_impl_index",
       "1. impl linear_index (plain, checked, batch) == spec for every element; impl delinearize inverts it, padding elsewhere", &LinearIndexMatchesSpec},
      {"ImplProperties", "HighRankIndexMatchesSpec", "p1_impl_index_high_rank",
       "1. the same for layouts of rank above 256 (index programs past the impl's stack registers)", &HighRankIndexMatchesSpec},
      {"ImplProperties", "SizesMatchSpec", "p7_impl_sizes",
       "7. impl element count, tiled shape, padded count, byte sizes == spec", &SizesMatchSpec},
      {"ImplProperties", "InvalidInputIsAnError", "p6_impl_errors",
       "6. invalid layouts, elements, positions and buffer sizes are an Error from the impl", &InvalidInputIsAnError},
      {"ImplProperties", "PackMatchesSpec", "p4_pack",
       "4. impl pack == spec pack byte for byte; impl unpack == spec unpack; unpack(pack(x)) == x", &PackMatchesSpec},
      {"ImplProperties", "EveryPathMatchesSpecAtSmallSize", "p4_pack_every_path",
       "4. the same with the size thresholds lowered: streaming stores, large-array panel paths, automatic threads", &EveryPathMatchesSpecAtSmallSize},
      {"ImplProperties", "EveryTargetMatchesSpec", "p4_pack_every_target",
       "4. the same on every SIMD target compiled in, half the cases on layouts shaped for the kernels", &EveryTargetMatchesSpec},
      {"ImplProperties", "SubBytePackMatchesSpec", "p4_pack_sub_byte",
       "4. the same with E(1), E(2), E(4) forced (D7 bit order)", &SubBytePackMatchesSpec},
      {"ImplProperties", "PackAtSizeMatchesSpec", "p4_pack_at_size",
       "4, 5. pack, unpack and relayout past 2^16 and 2^20 elements on 1 to 8 threads == spec; no byte shared by two threads",
       &PackAtSizeMatchesSpec, 20},
      {"ImplProperties", "TransposesAtSizeMatchSpec", "p4_transpose_at_size",
       "4. the same for transposed matrices of 1-, 2-, 4- and 8-byte elements up to 1,100 a side, or past 4 KiB one way (past the transposes' blocks, regions and bands), on one SIMD target",
       &TransposesAtSizeMatchSpec, 200},
      {"ImplProperties", "RelayoutMatchesSpec", "p5_relayout",
       "5. relayout(A->B) == pack_B(unpack_A(.)); relayout(A->A) is the identity on packed data", &RelayoutMatchesSpec},
      {"ImplProperties", "StridedViewsMatchSpec", "p11_strided",
       "11. pack from and unpack into strided views of the dense array (gaps, any dim order, broadcast) == spec, half on kernel-shaped layouts on one SIMD target", &StridedViewsMatchSpec},
      {"ImplProperties", "RowSlicesMatchSpec", "p12_row_slices",
       "12. row slices lie end to end; packing and unpacking them slice by slice == the spec's whole pack and unpack", &RowSlicesMatchSpec},
      {"ImplProperties", "StreamedRowStoresAreAligned", "p13_stream_rules",
       "13. where the kernels stream, at every unit (vector or line): every store aligned, no line both streamed and cached", &StreamedRowStoresAreAligned},
      {"ImplProperties", "RowStoresStreamWholeLines", "p13_row_stores",
       "13. how the kernels store rows in turn, at every vector width: streamed stores aligned, inside their rows, a whole line after another", &RowStoresStreamWholeLines},
      {"ImplProperties", "RelayoutBetweenSubTilingsMatchesSpec", "p5_relayout_sub_tiles",
       "5. the same between layouts that differ only in their sub-tiles (one pass over the tiles where they divide evenly)", &RelayoutBetweenSubTilingsMatchesSpec},
      {"ImplProperties", "RelayoutByBlocksMatchesSpec", "p5_relayout_blocks",
       "5. the same between layouts whose physical-major dims differ (block by block where both are whole tiles without padding)", &RelayoutByBlocksMatchesSpec},
      {"ImplProperties", "ThreadsWriteIdenticalBytes", "p8_threads",
       "8. pack, unpack and relayout with several threads == with one", &ThreadsWriteIdenticalBytes},
      {"ImplProperties", "ThreadSharesPartitionTheWork", "p8_thread_shares",
       "8. thread shares cover the work once, in order, and no two shares of a pack write one byte", &ThreadSharesPartitionTheWork},
      {"ImplProperties", "ThreadCountFollowsTheOptions", "p8_thread_count",
       "8. the thread count follows ExecOptions: at most n threads and the outermost extent; automatic: one below parallel_bytes, every core from it on", &ThreadCountFollowsTheOptions},
      {"ImplProperties", "DelinearizeEveryDivisorMagnitude", "p9_divisor_magnitudes",
       "9. delinearize divides correctly by divisors of every magnitude up to INT64_MAX, at the edges of each division", &DelinearizeEveryDivisorMagnitude},
      {"ImplProperties", "BitcastAgreesWithPack", "p10_bitcast",
       "10. bitcast(A, B) holds exactly when packing the same dense data as A and as B gives the same bytes", &BitcastAgreesWithPack},
  };
  const std::vector<PropertyInfo> speed = speed_choice_properties();
  suite.insert(suite.end(), speed.begin(), speed.end());
  return suite;
}

}  // namespace tilecheck::props
