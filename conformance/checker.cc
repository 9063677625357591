#include "conformance/checker.h"

#include <algorithm>
#include <random>
#include <span>

#include "check/checks.h"
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::conformance {

using check::Element;
using check::GateOptions;

int64_t largest_buffer_bytes(const ShapeWithLayout& shape) {
  return std::max(spec::dense_byte_size(shape), spec::byte_size(shape));
}

Verdict Checker::check(ImplFunction f, const ShapeWithLayout& shape, bool one_at_a_time) {
  const int64_t started = impl_.processes_started();
  // Asked first, so that a failed answer to `claims` about this layout
  // fails this case wherever it is checked: found, shrunk or alone.
  impl_.unclaimed(shape);
  Verdict v = dispatch(f, shape, one_at_a_time);
  // A case whose requests started a process is the first that process saw.
  if (impl_.processes_started() != started) history_.clear();
  history_.push_back({f, shape});
  return v;
}

Verdict Checker::dispatch(ImplFunction f, const ShapeWithLayout& shape, bool one_at_a_time) {
  switch (f) {
    case ImplFunction::kLinearIndex:
      return check_index(shape, one_at_a_time);
    case ImplFunction::kPack:
      return check_pack(shape);
    case ImplFunction::kByteSize:
      return check_size(shape);
    case ImplFunction::kDelinearize:
      return check_delinearize(shape);
    case ImplFunction::kUnpack:
      return check_unpack(shape);
    case ImplFunction::kRelayout:
      return check_relayout(shape);
    case ImplFunction::kParse:
      return check_parse(shape);
  }
  return Verdict::skipped();
}

Verdict Checker::check_index(const ShapeWithLayout& shape, bool one_at_a_time) {
  const std::string text = print_shape(shape);
  const std::vector<Element> elements = check::elements_to_ask(shape, options_);
  const int64_t batch = one_at_a_time ? 1 : kBatch;
  std::optional<bool> supported;  // decided by the first element
  for (size_t start = 0; start < elements.size(); start += batch) {
    const size_t end = std::min(elements.size(), start + static_cast<size_t>(batch));
    std::vector<int64_t> coords;
    for (size_t k = start; k < end; ++k)
      coords.insert(coords.end(), elements[k].begin(), elements[k].end());
    const auto reply = impl_.linear_index(shape, static_cast<int64_t>(end - start), coords);
    if (reply.failure) {
      const std::string where = end - start == 1 ? tuple(elements[start])
                                                 : "one of " + std::to_string(end - start) +
                                                       " elements from " + tuple(elements[start]);
      return Verdict::crashed(*reply.failure, {{"element", where}});
    }
    for (size_t k = start; k < end; ++k) {
      const IndexAnswer& a = (*reply.value)[k - start];
      const Element& e = elements[k];
      const bool ok = a.status == 0;
      if (!supported) supported = ok;
      if (ok != *supported) {
        return Verdict::failure(
            "inconsistent support: the first element was " +
                std::string(*supported ? "supported" : "answered 'not supported'") +
                ", this one " + (ok ? "was supported" : "returned " + std::to_string(a.status)),
            {{"element", tuple(e)}});
      }
      if (!ok) continue;
      if (const check::Agreement d = check::index_agrees(shape, e, a.index)) {
        return Verdict::failure(d->what, d->details,
                                "tilecheck index " + shell_quote(text) + " " + shell_quote(join(e)) +
                                    "   (prints " + std::to_string(spec::linear_index(shape, e)) + ")");
      }
    }
  }
  if (supported == false) return Verdict::skipped();
  return Verdict::passed(static_cast<int64_t>(elements.size()));
}

Verdict Checker::check_delinearize(const ShapeWithLayout& shape) {
  const std::string text = print_shape(shape);
  const std::vector<int64_t> positions = check::positions_to_ask(shape, options_);
  for (size_t start = 0; start < positions.size(); start += kBatch) {
    const size_t end = std::min(positions.size(), start + static_cast<size_t>(kBatch));
    const std::span<const int64_t> batch(positions.data() + start, end - start);
    const auto reply = impl_.delinearize(shape, batch);
    if (reply.failure) {
      return Verdict::crashed(*reply.failure,
                              {{"positions", std::to_string(batch.size()) + " from " +
                                                 std::to_string(batch.front())}});
    }
    for (size_t k = 0; k < batch.size(); ++k) {
      const PositionAnswer& a = (*reply.value)[k];
      if (a.status != 0) return Verdict::skipped();
      if (const check::Agreement d = check::position_agrees(shape, batch[k], a.element)) {
        const std::optional<std::vector<int64_t>> want = spec::delinearize(shape, batch[k]);
        return Verdict::failure(d->what, d->details,
                                "tilecheck delinearize " + shell_quote(text) + " " +
                                    std::to_string(batch[k]) + "   (prints " +
                                    (want ? join(*want) : std::string("padding")) + ")");
      }
    }
  }
  return Verdict::passed(static_cast<int64_t>(positions.size()));
}

Verdict Checker::check_size(const ShapeWithLayout& shape) {
  const std::string text = print_shape(shape);
  const auto reply = impl_.byte_size(shape);
  if (reply.failure) return Verdict::crashed(*reply.failure, {});
  if (reply.value->status != 0) return Verdict::skipped();
  const bool xla_model = options_.size_model == GateOptions::SizeModel::kXla;
  const check::Agreement d = xla_model ? check::xla_array_size_agrees(shape, reply.value->bytes)
                                       : check::byte_size_agrees(shape, reply.value->bytes);
  if (d) {
    return Verdict::failure(
        d->what, d->details,
        "tilecheck size " + std::string(xla_model ? "--model xla " : "") + shell_quote(text) +
            "   (" + (xla_model ? "XLA ArraySize " + std::to_string(xla::array_size(shape))
                                : "bytes " + std::to_string(spec::byte_size(shape))) +
            ")");
  }
  return Verdict::passed(1);
}

std::vector<uint8_t> Checker::random_bytes(int64_t n, uint64_t salt) const {
  std::mt19937_64 rng(options_.seed ^ salt);
  std::vector<uint8_t> bytes(static_cast<size_t>(n));
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}
std::vector<uint8_t> Checker::dense_data(const ShapeWithLayout& shape) const {
  return spec::canonical_dense(shape, random_bytes(spec::dense_byte_size(shape), 0));
}
std::vector<uint8_t> Checker::physical_data(const ShapeWithLayout& shape) const {
  return random_bytes(spec::byte_size(shape), 0x9e3779b97f4a7c15ULL);
}

gen::SeededChoices Checker::choices_for(const std::string& text) const {
  return gen::SeededChoices(gen::layout_seed(options_.seed, text));
}

Details Checker::buffer_detail(const char* name, const std::vector<uint8_t>& bytes, const char* otherwise) {
  return {{name, bytes.size() <= check::kShownBufferBytes
                     ? "[" + check::hex_bytes(bytes) + "]"
                     : std::to_string(bytes.size()) + " " + otherwise}};
}

Verdict Checker::buffer_verdict(const WorkerReply<BufferAnswer>& reply, Details details,
                                const ShapeWithLayout& result_shape, bool physical,
                                const std::vector<uint8_t>& want, const std::string& what) const {
  if (reply.failure) return Verdict::crashed(*reply.failure, details);
  const BufferAnswer& a = *reply.value;
  if (a.status != 0) return Verdict::skipped();
  if (a.wrote_outside) return Verdict::failure("wrote outside the destination buffer", details);
  if (a.changed_source) return Verdict::failure("modified the source buffer", details);
  const bool any_padding = physical && options_.padding == GateOptions::Padding::kAny;
  const std::vector<uint8_t> actual =
      any_padding && a.dst.size() == want.size()
          ? spec::pack(result_shape, spec::unpack(result_shape, a.dst))
          : a.dst;
  const check::Agreement d = check::bytes_agree(
      result_shape, physical, any_padding ? what + " (padding not compared)" : what, want, actual);
  if (!d) return Verdict::passed(1);
  details.insert(details.end(), d->details.begin(), d->details.end());
  return Verdict::failure(d->what, details);
}

std::optional<std::string> Checker::over_limit(const ShapeWithLayout& shape, const ShapeWithLayout* to) const {
  int64_t largest = largest_buffer_bytes(shape);
  if (to) largest = std::max(largest, spec::byte_size(*to));
  if (largest <= options_.max_array_bytes) return std::nullopt;
  return "gate limit: a " + std::to_string(largest) + "-byte buffer, over --max-array-bytes " +
         std::to_string(options_.max_array_bytes);
}

Verdict Checker::check_pack(const ShapeWithLayout& shape) {
  if (const auto why = over_limit(shape)) return Verdict::not_sent(*why);
  const std::vector<uint8_t> dense = dense_data(shape);
  const std::vector<uint8_t> want = spec::pack(shape, dense);
  return buffer_verdict(impl_.pack(shape, dense, want.size()),
                        buffer_detail("dense source", dense, "seeded random bytes"), shape, true,
                        want, "wrong packed bytes");
}

Verdict Checker::check_unpack(const ShapeWithLayout& shape) {
  if (const auto why = over_limit(shape)) return Verdict::not_sent(*why);
  const std::vector<uint8_t> physical = physical_data(shape);
  const std::vector<uint8_t> want = spec::unpack(shape, physical);
  return buffer_verdict(impl_.unpack(shape, physical, want.size()),
                        buffer_detail("packed source", physical, "seeded random bytes, padding too"),
                        shape, false, want, "wrong unpacked bytes");
}

std::optional<ShapeWithLayout> Checker::relayout_target(const ShapeWithLayout& from) const {
  gen::SeededChoices choices = choices_for(print_shape(from));
  // The target may pad up to four times the source (or the recipe's
  // budget), but not past --max-array-bytes where the source is within it:
  // a large array is moved at size rather than not sent.
  gen::RecipeLimits limits;
  const int64_t padded = std::min(spec::padded_element_count(from), int64_t{1} << 40);
  const int64_t fits = options_.max_array_bytes / std::max<int64_t>(1, (from.element_bits() + 7) / 8);
  limits.max_padded_elements =
      std::max(limits.max_padded_elements, 4 * padded > fits ? std::max(padded, fits) : 4 * padded);
  ShapeWithLayout to = gen::make_partner_layout(choices, from, limits);
  if (!unclaimed(to)) return to;
  to.layout.tiles.clear();
  to.layout.tail_padding_alignment.reset();
  if (!unclaimed(to)) return to;
  return std::nullopt;
}

Verdict Checker::check_relayout(const ShapeWithLayout& from) {
  if (const auto why = over_limit(from)) return Verdict::not_sent(*why);
  const std::optional<ShapeWithLayout> to = relayout_target(from);
  if (!to) return Verdict::not_sent("no relayout target: the implementation claims no partner layout");
  if (const auto why = over_limit(from, &*to)) return Verdict::not_sent(*why);
  const std::vector<uint8_t> physical = physical_data(from);
  const std::vector<uint8_t> want = spec::pack(*to, spec::unpack(from, physical));
  Details details = {{"to", print_shape(*to)}};
  const Details source = buffer_detail("source", physical, "seeded random bytes, padding too");
  details.insert(details.end(), source.begin(), source.end());
  return buffer_verdict(impl_.relayout(from, *to, physical, want.size()), details, *to, true,
                        want, "wrong relayout bytes");
}

// One text that is a layout (the layout's own) and one that is not (a
// seeded invalid layout of D9's kinds). Texts with a '?' are left out,
// whatever kind made them (a symbolic dim, or a negative dim printed as
// '?'): XLA prints '?' for unbounded dynamic dims, only tilecheck's own
// check rejects it.
Verdict Checker::check_parse(const ShapeWithLayout& shape) {
  const std::string text = print_shape(shape);
  gen::SeededChoices choices = choices_for(text);
  gen::InvalidLayout invalid = gen::make_invalid_layout(choices, gen::kExhaustiveLimits);
  while (invalid.text.find('?') != std::string::npos) {
    invalid = gen::make_invalid_layout(choices, gen::kExhaustiveLimits);
  }
  const std::pair<const std::string*, bool> asked[] = {{&text, true}, {&invalid.text, false}};
  for (const auto& [asked_text, valid] : asked) {
    const auto reply = impl_.parse(*asked_text);
    const Details details = {{"text", *asked_text}};
    if (reply.failure) return Verdict::crashed(*reply.failure, details);
    if (reply.value->status != 0) return Verdict::skipped();
    if (reply.value->valid == valid) continue;
    return Verdict::failure(
        valid ? "rejects a valid layout" +
                    (reply.value->message.empty() ? "" : ": " + reply.value->message)
              : "accepts an invalid layout (" + std::string(gen::invalid_kind_name(invalid.kind)) +
                    ")",
        details, "tilecheck check " + shell_quote(*asked_text));
  }
  return Verdict::passed(2);
}

}  // namespace tilecheck::conformance
