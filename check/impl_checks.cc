#include "check/impl_checks.h"

#include <random>

#include "check/checks.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/semantics.h>

namespace tilecheck::check {
namespace {

CheckResult impl_index(const ShapeWithLayout& shape, const GateOptions& options) {
  const impl::IndexPlan plan(shape);
  if (const Agreement d = sizes_agree(shape, sizes_of(plan))) return CheckResult::failed(d->text());
  return ask_elements(shape, options, [&](const Element& e) { return plan_index_agrees(shape, plan, e); });
}

CheckResult impl_delinearize(const ShapeWithLayout& shape, const GateOptions& options) {
  const impl::IndexPlan plan(shape);
  const int64_t padded = plan.padded_element_count();
  const bool exhaustive = padded <= options.exhaustive_limit;
  const int64_t count = exhaustive ? padded : options.samples;
  std::mt19937_64 rng(options.seed);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t p =
        exhaustive ? i : std::uniform_int_distribution<int64_t>(0, padded - 1)(rng);
    if (const Agreement d = plan_position_agrees(shape, plan, p)) return CheckResult::failed(d->text(), i);
  }
  return CheckResult::passed(count, std::to_string(count) + " positions, " +
                                        (exhaustive ? std::string("exhaustive") : "sampled"));
}

CheckResult impl_pack(const ShapeWithLayout& shape, const GateOptions& options) {
  const impl::PackPlan plan(shape);
  if (std::optional<CheckResult> skip = pack_limit_skip(shape, options)) return *skip;
  std::mt19937_64 rng(options.seed);
  std::vector<uint8_t> dense(plan.index().dense_byte_size()), noisy(plan.index().byte_size());
  for (auto& b : dense) b = static_cast<uint8_t>(rng());
  for (auto& b : noisy) b = static_cast<uint8_t>(rng());
  const std::vector<uint8_t> want_physical = spec::pack(shape, dense);
  const std::vector<uint8_t> want_dense = spec::unpack(shape, noisy);
  for (int threads : {1, 2}) {
    const std::string with = " (" + std::to_string(threads) + " threads)";
    std::vector<uint8_t> physical(want_physical.size(), 0xA5), back(dense.size(), 0x5A);
    plan.pack(dense, physical, {threads});
    plan.unpack(noisy, back, {threads});
    if (const Agreement d = bytes_agree(shape, true, "wrong packed bytes" + with, want_physical, physical)) {
      return CheckResult::failed(d->text());
    }
    if (const Agreement d = bytes_agree(shape, false, "wrong unpacked bytes" + with, want_dense, back)) {
      return CheckResult::failed(d->text());
    }
  }
  return CheckResult::passed(2 * (dense.size() + want_physical.size()),
                             std::to_string(plan.index().element_count()) + " elements, 1 and 2 threads" +
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
