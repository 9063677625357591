#include "check/impl_checks.h"

#include <random>

#include "check/checks.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/semantics.h>

namespace tilecheck::check {
namespace {

std::string shown(const std::optional<Element>& e) { return e ? tuple(*e) : "padding"; }

CheckResult impl_index(const ShapeWithLayout& shape, const GateOptions& options) {
  const impl::IndexPlan plan(shape);
  if (plan.tiled_shape() != spec::tiled_shape(shape) ||
      plan.padded_element_count() != spec::padded_element_count(shape) ||
      plan.byte_size() != spec::byte_size(shape) || plan.dense_byte_size() != spec::dense_byte_size(shape)) {
    return CheckResult::failed("sizes differ: impl tiled shape " + tuple(plan.tiled_shape()) + ", " +
                               std::to_string(plan.padded_element_count()) + " positions, " +
                               std::to_string(plan.byte_size()) + " bytes; spec " +
                               tuple(spec::tiled_shape(shape)) + ", " +
                               std::to_string(spec::padded_element_count(shape)) + ", " +
                               std::to_string(spec::byte_size(shape)));
  }
  return check_same_index(
      shape, [&](const Element& e) { return plan.linear_index(e); },
      [&](const Element& e) { return spec::linear_index(shape, e); }, "impl and spec", options);
}

CheckResult impl_delinearize(const ShapeWithLayout& shape, const GateOptions& options) {
  const impl::IndexPlan plan(shape);
  const int64_t padded = plan.padded_element_count();
  const bool exhaustive = padded <= options.exhaustive_limit;
  const int64_t count = exhaustive ? padded : options.samples;
  std::mt19937_64 rng(options.seed);
  Element e(shape.dims.size());
  for (int64_t i = 0; i < count; ++i) {
    const int64_t p =
        exhaustive ? i : std::uniform_int_distribution<int64_t>(0, padded - 1)(rng);
    const std::optional<Element> got =
        plan.delinearize(p, e) ? std::optional<Element>(e) : std::nullopt;
    const std::optional<Element> want = spec::delinearize(shape, p);
    if (got != want) {
      return CheckResult::failed("delinearize(" + std::to_string(p) + "): impl " + shown(got) +
                                     ", spec " + shown(want),
                                 i);
    }
  }
  return CheckResult::passed(count, std::to_string(count) + " positions, " +
                                        (exhaustive ? std::string("exhaustive") : "sampled"));
}

CheckResult impl_pack(const ShapeWithLayout& shape, const GateOptions& options) {
  const impl::PackPlan plan(shape);
  const int64_t elements = plan.index().element_count();
  if (elements > options.pack_limit) {
    return CheckResult::skipped(std::to_string(elements) + " elements, more than the pack limit " +
                                std::to_string(options.pack_limit));
  }
  std::mt19937_64 rng(options.seed);
  std::vector<uint8_t> dense(plan.index().dense_byte_size()), noisy(plan.index().byte_size());
  for (auto& b : dense) b = static_cast<uint8_t>(rng());
  for (auto& b : noisy) b = static_cast<uint8_t>(rng());
  const std::vector<uint8_t> want_physical = spec::pack(shape, dense);
  const std::vector<uint8_t> want_dense = spec::unpack(shape, noisy);
  for (int threads : {1, 2}) {
    std::vector<uint8_t> physical(want_physical.size(), 0xA5), back(dense.size(), 0x5A);
    plan.pack(dense, physical, {threads});
    plan.unpack(noisy, back, {threads});
    for (size_t i = 0; i < physical.size(); ++i) {
      if (physical[i] != want_physical[i]) {
        return CheckResult::failed("pack (" + std::to_string(threads) + " threads): byte " +
                                   std::to_string(i) + " is " + std::to_string(physical[i]) +
                                   ", the spec's " + std::to_string(want_physical[i]));
      }
    }
    for (size_t i = 0; i < back.size(); ++i) {
      if (back[i] != want_dense[i]) {
        return CheckResult::failed("unpack (" + std::to_string(threads) + " threads): dense byte " +
                                   std::to_string(i) + " is " + std::to_string(back[i]) +
                                   ", the spec's " + std::to_string(want_dense[i]));
      }
    }
  }
  return CheckResult::passed(2 * (dense.size() + want_physical.size()),
                             std::to_string(elements) + " elements, 1 and 2 threads" +
                                 (plan.lowered() ? "" : ", per-element fallback"));
}

}  // namespace

void add_impl_gate_checks(GateRegistry& registry) {
  registry.add_layout_check("impl_index", "impl == spec: sizes, tiled shape, linear_index", impl_index);
  registry.add_layout_check("impl_delinearize", "impl == spec: delinearize of every position",
                            impl_delinearize);
  registry.add_layout_check("impl_pack", "impl == spec: pack and unpack bytes, 1 and 2 threads",
                            impl_pack);
}

}  // namespace tilecheck::check
