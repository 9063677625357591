#include "conformance/runner.h"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iomanip>
#include <optional>
#include <random>
#include <sstream>

#include "check/checks.h"
#include "conformance/worker.h"
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/reach.h>
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::conformance {

using check::GateOptions;
using check::Element;

namespace {

// The larger of a layout's dense and physical buffers: what a pack or
// unpack of it sends or receives, against --max-array-bytes.
int64_t largest_buffer_bytes(const ShapeWithLayout& shape) {
  return std::max(spec::dense_byte_size(shape), spec::byte_size(shape));
}


// Each function's name, what one of its cases is, and its export flag.
struct FunctionInfo {
  const char* name;
  const char* case_unit;
  bool ImplExports::*exported;
};

const FunctionInfo& info(ImplFunction f) {
  static const FunctionInfo table[] = {{"linear_index", "elements", &ImplExports::linear_index},
                                       {"pack", "buffers", &ImplExports::pack},
                                       {"byte_size", "sizes", &ImplExports::byte_size},
                                       {"delinearize", "positions", &ImplExports::delinearize},
                                       {"unpack", "buffers", &ImplExports::unpack},
                                       {"relayout", "buffers", &ImplExports::relayout},
                                       {"parse", "texts", &ImplExports::parse}};
  return table[static_cast<int>(f)];
}


class Checker {
 public:
  Checker(ImplUnderTest& impl, const GateOptions& options) : impl_(impl), options_(options) {}

  bool unclaimed(const ShapeWithLayout& shape) const { return impl_.unclaimed(shape).has_value(); }

  // `one_at_a_time` sends elements one per request, to name the element a
  // crash happens on.
  Verdict check(ImplFunction f, const ShapeWithLayout& shape, bool one_at_a_time = false) {
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

  // The cases asked of the current process so far, in order (the last is
  // the latest check).
  const std::vector<RequestCase>& history() const { return history_; }

 private:
  Verdict dispatch(ImplFunction f, const ShapeWithLayout& shape, bool one_at_a_time) {
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

  static constexpr int64_t kBatch = 4096;  // elements per request

  Verdict check_index(const ShapeWithLayout& shape, bool one_at_a_time) {
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

  Verdict check_delinearize(const ShapeWithLayout& shape) {
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

  Verdict check_size(const ShapeWithLayout& shape) {
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

  // Seeded random bytes; `salt` tells the streams of one run apart.
  std::vector<uint8_t> random_bytes(int64_t n, uint64_t salt) const {
    std::mt19937_64 rng(options_.seed ^ salt);
    std::vector<uint8_t> bytes(static_cast<size_t>(n));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    return bytes;
  }
  // The dense data of a pack check, in canonical form (docs/PROTOCOL.md,
  // "Dense buffers").
  std::vector<uint8_t> dense_data(const ShapeWithLayout& shape) const {
    return spec::canonical_dense(shape, random_bytes(spec::dense_byte_size(shape), 0));
  }
  // A physical buffer for unpack and relayout: every bit random, padding too.
  std::vector<uint8_t> physical_data(const ShapeWithLayout& shape) const {
    return random_bytes(spec::byte_size(shape), 0x9e3779b97f4a7c15ULL);
  }
  // A seeded stream of choices for one layout: the same layout and seed give
  // the same relayout target and the same invalid text, in shrinking too.
  gen::SeededChoices choices_for(const std::string& text) const {
    return gen::SeededChoices(gen::layout_seed(options_.seed, text));
  }

  static Details buffer_detail(const char* name, const std::vector<uint8_t>& bytes,
                               const char* otherwise) {
    return {{name, bytes.size() <= check::kShownBufferBytes
                       ? "[" + check::hex_bytes(bytes) + "]"
                       : std::to_string(bytes.size()) + " " + otherwise}};
  }

  // The verdict on a buffer the implementation wrote (pack, unpack,
  // relayout): `want` is the spec's, a buffer of `result_shape`, physical or
  // dense. With --padding any a physical result's padding bits are zeroed
  // (an unpack and a pack of the spec) before the comparison; a wrong size
  // stays wrong.
  Verdict buffer_verdict(const WorkerReply<BufferAnswer>& reply, Details details,
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

  // Why a buffer case on `shape` (and `to`) is past the gate's limit, or
  // nullopt: every dense and physical buffer it would send or receive is
  // at most --max-array-bytes.
  std::optional<std::string> over_limit(const ShapeWithLayout& shape,
                                        const ShapeWithLayout* to = nullptr) const {
    int64_t largest = largest_buffer_bytes(shape);
    if (to) largest = std::max(largest, spec::byte_size(*to));
    if (largest <= options_.max_array_bytes) return std::nullopt;
    return "gate limit: a " + std::to_string(largest) + "-byte buffer, over --max-array-bytes " +
           std::to_string(options_.max_array_bytes);
  }

  Verdict check_pack(const ShapeWithLayout& shape) {
    if (const auto why = over_limit(shape)) return Verdict::not_sent(*why);
    const std::vector<uint8_t> dense = dense_data(shape);
    const std::vector<uint8_t> want = spec::pack(shape, dense);
    return buffer_verdict(impl_.pack(shape, dense, want.size()),
                          buffer_detail("dense source", dense, "seeded random bytes"), shape, true,
                          want, "wrong packed bytes");
  }

  Verdict check_unpack(const ShapeWithLayout& shape) {
    if (const auto why = over_limit(shape)) return Verdict::not_sent(*why);
    const std::vector<uint8_t> physical = physical_data(shape);
    const std::vector<uint8_t> want = spec::unpack(shape, physical);
    return buffer_verdict(impl_.unpack(shape, physical, want.size()),
                          buffer_detail("packed source", physical, "seeded random bytes, padding too"),
                          shape, false, want, "wrong unpacked bytes");
  }

  // The layout a relayout check moves `from` into: a seeded partner of the
  // same dims and element width, without its tiles when the implementation
  // does not claim them; nullopt when it claims neither.
  std::optional<ShapeWithLayout> relayout_target(const ShapeWithLayout& from) const {
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

  Verdict check_relayout(const ShapeWithLayout& from) {
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
  Verdict check_parse(const ShapeWithLayout& shape) {
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

  ImplUnderTest& impl_;
  const GateOptions& options_;
  std::vector<RequestCase> history_;
};

// ---------------------------------------------------------------------------
// Shrinking: candidates one step simpler than a failing layout.

bool valid_layout(const ShapeWithLayout& shape) {
  try {
    spec::validate(shape);
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::vector<ShapeWithLayout> simpler_layouts(const ShapeWithLayout& s) {
  std::vector<ShapeWithLayout> out;
  auto with = [&](auto change) {
    ShapeWithLayout c = s;
    change(c);
    if (!(c == s)) out.push_back(std::move(c));
  };
  with([](ShapeWithLayout& c) { c.layout.memory_space.reset(); });
  with([](ShapeWithLayout& c) { c.layout.tail_padding_alignment.reset(); });
  with([](ShapeWithLayout& c) { c.layout.element_size_bits.reset(); });
  for (size_t t = s.layout.tiles.size(); t-- > 0;) {
    with([&](ShapeWithLayout& c) { c.layout.tiles.erase(c.layout.tiles.begin() + t); });
  }
  with([](ShapeWithLayout& c) {
    c.layout.minor_to_major = default_layout(c.rank()).minor_to_major;
  });
  for (size_t i = 0; i < s.dims.size(); ++i) {  // drop dim i
    with([&](ShapeWithLayout& c) {
      c.dims.erase(c.dims.begin() + i);
      auto& m2m = c.layout.minor_to_major;
      m2m.erase(std::find(m2m.begin(), m2m.end(), static_cast<int64_t>(i)));
      for (int64_t& m : m2m) m -= m > static_cast<int64_t>(i);
    });
  }
  for (size_t i = 0; i < s.dims.size(); ++i) {
    for (int64_t smaller : {int64_t{1}, s.dims[i] / 2, s.dims[i] - 1}) {
      if (smaller >= 1 && smaller < s.dims[i])
        with([&](ShapeWithLayout& c) { c.dims[i] = smaller; });
    }
  }
  for (size_t t = 0; t < s.layout.tiles.size(); ++t) {
    const std::vector<int64_t>& entries = s.layout.tiles[t].dims;
    for (size_t j = 0; j < entries.size(); ++j) {  // a shorter tile
      with([&](ShapeWithLayout& c) {
        auto& d = c.layout.tiles[t].dims;
        d.erase(d.begin() + j);
      });
    }
    for (size_t j = 0; j < entries.size(); ++j) {
      const int64_t e = entries[j];
      if (e == kCombineDim) continue;  // INT64_MIN: no smaller entry, and e - 1 would overflow
      for (int64_t smaller : {int64_t{1}, e / 2, e - 1}) {
        if (smaller >= 1 && smaller < e) {
          with([&](ShapeWithLayout& c) { c.layout.tiles[t].dims[j] = smaller; });
        }
      }
    }
  }
  with([](ShapeWithLayout& c) { c.type = ElementType::kF32; });
  return out;
}


// Whether `c` may be tried as a simpler case of a failure of `f`: a valid
// layout the implementation claims, with no more positions to check than
// `budget`.
bool worth_trying(const Checker& checker, ImplFunction f, const ShapeWithLayout& c, int64_t budget) {
  return valid_layout(c) && !checker.unclaimed(c) && spec::padded_element_count(c) <= budget &&
         !(f == ImplFunction::kLinearIndex && spec::element_count(c) == 0);
}

// A failing case as found, or after `steps` steps of shrinking.
Shrunk shrunk(ShapeWithLayout shape, Verdict verdict, int steps = 0) {
  Shrunk s;
  s.shape = std::move(shape);
  s.verdict = std::move(verdict);
  s.steps = steps;
  return s;
}

// Shrinking, within options.shrink_seconds, until nothing simpler fails:
// first the structure (the first candidate of simpler_layouts that keeps
// the dims' sizes and still fails), then each dim by bisection (the
// smallest size that still fails, if failing is monotone in it, in about
// log2(size) checks: a bug past 2^31 positions on [65536,65536] ends just
// past 2^31 in some 30 checks, where stepping down by one would take
// thousands), then the other candidates (dims and tile entries a step
// smaller, f32). Only failing candidates are kept, so whatever the order,
// the result fails.
Shrunk shrink(Checker& checker, ImplFunction f, const ShapeWithLayout& failing, Verdict verdict,
              const GateOptions& options) {
  constexpr int kMaxAttempts = 2000;
  Shrunk s = shrunk(failing, std::move(verdict));
  const auto deadline = deadline_after(options.shrink_seconds);
  const int64_t budget =
      std::max(spec::padded_element_count(failing), gen::kExhaustiveLimits.max_padded_elements);
  int attempts = 0;
  // Checks `c`; keeps it when it still fails. False once time or attempts run out.
  bool stopped = false;
  const auto fails = [&](const ShapeWithLayout& c) {
    if (stopped || !worth_trying(checker, f, c, budget)) return false;
    if (++attempts > kMaxAttempts || std::chrono::steady_clock::now() > deadline) {
      stopped = true;
      return false;
    }
    Verdict v = checker.check(f, c);
    if (!v.failed()) return false;
    s = shrunk(c, std::move(v), s.steps + 1);
    return true;
  };
  const auto bisect_dims = [&] {
    bool progress = false;
    for (size_t i = 0; i < s.shape.dims.size() && !stopped; ++i) {
      int64_t passes = 0, fails_at = s.shape.dims[i];  // 0: not known to pass
      while (fails_at - passes > 1 && !stopped) {
        ShapeWithLayout c = s.shape;
        c.dims[i] = passes + (fails_at - passes) / 2;
        if (fails(c)) {
          fails_at = c.dims[i];
          progress = true;
        } else {
          passes = c.dims[i];
        }
      }
    }
    return progress;
  };
  // The first failing candidate of simpler_layouts: those that keep every
  // dim's size (`structural`: fewer properties, tiles or dims, the default
  // order), or the others (smaller dims and tile entries, f32).
  const auto first_simpler = [&](bool structural) {
    for (const ShapeWithLayout& c : simpler_layouts(s.shape)) {
      const bool keeps_sizes = c.dims.size() != s.shape.dims.size() || c.dims == s.shape.dims;
      if (keeps_sizes != structural) continue;
      if (fails(c)) return true;
      if (stopped) break;
    }
    return false;
  };
  // Structure first, then sizes by bisection, then the small steps.
  while (!stopped && (first_simpler(true) || bisect_dims() || first_simpler(false))) {
  }
  s.out_of_time = stopped && attempts <= kMaxAttempts;
  // A crash inside a batch of elements: name the element.
  if (f == ImplFunction::kLinearIndex && s.verdict.problem.rfind("crashed", 0) == 0) {
    Verdict single = checker.check(f, s.shape, /*one_at_a_time=*/true);
    if (single.failed()) s.verdict = std::move(single);
  }
  return s;
}


// The shortest sequence of `earlier` cases (kept in order) after which
// `failing`, asked in a new process, fails again, and its verdict there;
// within options.shrink_seconds, nullopt when none failed in time. First the
// shortest failing suffix, 1, 2, 4, ... cases back (the state a failure
// depends on was mostly left by a recent request), then every case of it
// that can go is left out, halves first, then quarters, down to single
// cases (delta debugging).
std::optional<std::pair<std::vector<RequestCase>, Verdict>> shortest_earlier(
    ImplUnderTest& impl, Checker& checker, const RequestCase& failing, const std::vector<RequestCase>& earlier,
    const GateOptions& options) {
  const auto deadline = deadline_after(options.shrink_seconds);
  bool stopped = false;
  Verdict verdict;  // of the last sequence that failed
  const auto fails_after = [&](std::span<const RequestCase> before) {
    if (stopped || std::chrono::steady_clock::now() > deadline) {
      stopped = true;
      return false;
    }
    impl.start_afresh();
    for (const RequestCase& c : before) checker.check(c.function, c.shape);
    Verdict v = checker.check(failing.function, failing.shape);
    if (!v.failed()) return false;
    verdict = std::move(v);
    return true;
  };
  std::optional<std::vector<RequestCase>> best;
  for (size_t k = 1; !earlier.empty() && !best && !stopped; k *= 2) {
    const size_t n = std::min(k, earlier.size());
    const std::span<const RequestCase> suffix(earlier.data() + earlier.size() - n, n);
    if (fails_after(suffix)) best.emplace(suffix.begin(), suffix.end());
    if (n == earlier.size()) break;
  }
  if (!best) return std::nullopt;
  size_t chunk = std::max<size_t>(1, best->size() / 2);
  while (best->size() > 1 && !stopped) {
    bool left_out = false;
    for (size_t i = 0; i < best->size() && best->size() > 1 && !stopped;) {
      std::vector<RequestCase> c = *best;
      c.erase(c.begin() + static_cast<std::ptrdiff_t>(i),
              c.begin() + static_cast<std::ptrdiff_t>(std::min(i + chunk, c.size())));
      if (!c.empty() && fails_after(c)) {
        *best = std::move(c);
        left_out = true;
      } else {
        i += chunk;
      }
    }
    if (!left_out && chunk == 1) break;
    if (!left_out) chunk /= 2;
    chunk = std::min(chunk, std::max<size_t>(1, best->size() / 2));
  }
  return std::make_pair(std::move(*best), std::move(verdict));
}

// A failure as the report gives it: asked again of a new process first.
// When it passes there, it depends on the requests before it (`earlier`,
// asked of the same process): shrinking, whose checks follow one another in
// one process, would then chase state, so it is reported as found, with the
// shortest sequence of earlier cases that makes it fail again. Otherwise it is shrunk, and the minimal case
// is asked alone again: if it passes alone (shrinking went astray on
// state), the failure as found is reported instead.
Shrunk shrink_alone(ImplUnderTest& impl, Checker& checker, ImplFunction f, const ShapeWithLayout& failing,
                    Verdict verdict, const std::vector<RequestCase>& earlier, const GateOptions& options) {
  // A hang costs --timeout per attempt: report it as found.
  if (verdict.problem.rfind("hung", 0) == 0) return shrunk(failing, std::move(verdict));
  impl.start_afresh();
  Verdict alone = checker.check(f, failing);
  if (!alone.failed()) {
    Shrunk s = shrunk(failing, std::move(verdict));
    s.depends_on_earlier_requests = true;
    // Reported as that sequence shows it (the same case may fail in
    // another way after other state).
    if (auto shortest = shortest_earlier(impl, checker, {f, failing}, earlier, options)) {
      s.earlier = std::move(shortest->first);
      s.verdict = std::move(shortest->second);
      s.earlier_found = true;
    }
    return s;
  }
  Shrunk s = shrink(checker, f, failing, std::move(alone), options);
  if (s.steps == 0) return s;
  impl.start_afresh();
  if (checker.check(f, s.shape).failed()) return s;
  impl.start_afresh();
  return shrunk(failing, checker.check(f, failing));
}

struct OriginLayout {
  std::string origin;
  ShapeWithLayout shape;
  // For the index operations only: the reach set's shapes past 2^31
  // positions, whose buffers no run sends (pack, unpack and relayout are
  // not cases of them at all).
  bool index_only = false;
};

// Calls visit(layout) for every layout of the run, in order.
void for_each_layout(const std::vector<ShapeWithLayout>& given, const GateOptions& options,
                     const LayoutStream& stream, ConformanceReport& report,
                     const std::function<void(const OriginLayout&)>& visit) {
  if (!given.empty()) {
    for (const ShapeWithLayout& shape : given) {
      ++report.given_layouts;
      visit({"--layout", shape});
    }
    return;
  }
  for (const CatalogEntry& entry : catalog()) {
    const ShapeWithLayout shape = parse_shape(entry.layout);
    if (!stream.keeps(shape)) {
      ++report.narrowed_layouts;
      continue;
    }
    ++report.catalogue_layouts;
    visit({"catalogue entry " + std::string(entry.name), shape});
  }
  // The reach set, then the size set; the reach set's shapes past 2^31
  // positions are for the index operations only.
  const auto send = [&](const ShapeWithLayout& shape, const char* origin, int64_t& count) {
    if (!stream.keeps(shape)) {
      ++report.narrowed_layouts;
      return;
    }
    ++count;
    visit({origin, shape, spec::padded_element_count(shape) > (int64_t{1} << 31)});
  };
  if (stream.reach_set) {
    for (const std::string& text : gen::reach_layouts()) {
      send(parse_shape(text), "reach set (tilecheck/gen/reach.h)", report.reach_layouts);
    }
  }
  if (stream.size_set) {
    for (const ShapeWithLayout& shape : size_set_within(options.max_array_bytes, &report.size_over_limit)) {
      send(shape, "size set (tilecheck/gen/reach.h)", report.size_layouts);
    }
  }
  gen::SeededChoices choices(options.seed);  // --seed: a deterministic stream
  const gen::RecipeLimits limits = gen::profile_limits(stream.profile, gen::kExhaustiveLimits);
  const std::string profile =
      stream.profile == gen::Profile::kGeneral
          ? ""
          : "profile " + std::string(gen::profile_name(stream.profile)) + ", ";
  for (int64_t k = 0; k < options.property_cases; ++k) {
    // The next layout the narrowing keeps: within a bounded number of draws.
    constexpr int kDraws = 10000;
    std::optional<ShapeWithLayout> shape;
    for (int draw = 0; draw < kDraws && !shape; ++draw) {
      ShapeWithLayout s = gen::make_profile_layout(choices, stream.profile, limits);
      if (stream.keeps(s)) shape = std::move(s);
    }
    if (!shape) {
      throw Error("no layout of profile " + std::string(gen::profile_name(stream.profile)) +
                  " in " + std::to_string(kDraws) +
                  " draws has the --max-rank and --types asked for");
    }
    ++report.generated_layouts;
    visit({"generated layout " + std::to_string(k + 1) + " (" + profile + "seed " +
               std::to_string(options.seed) + ")",
           *shape});
  }
}

}  // namespace

// A word the shell passes through unchanged, quoted only when needed.
std::string shell_quote(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) ||
           std::string_view("_./-+=:,@").find(ch) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

const char* function_name(ImplFunction f) { return info(f).name; }

std::optional<ImplFunction> function_named(std::string_view name) {
  for (ImplFunction f : kFunctions) {
    if (name == function_name(f)) return f;
  }
  return std::nullopt;
}

std::string function_names() {
  std::string names;
  for (ImplFunction f : kFunctions) names += (names.empty() ? "" : ", ") + std::string(function_name(f));
  return names;
}
const char* case_unit(ImplFunction f) { return info(f).case_unit; }
bool is_buffer_function(ImplFunction f) {
  return f == ImplFunction::kPack || f == ImplFunction::kUnpack || f == ImplFunction::kRelayout;
}

std::string CaseOutcome::id() const { return std::string(function_name(function)) + ":" + layout; }

const char* status_name(CaseOutcome::Status s) {
  switch (s) {
    case CaseOutcome::Status::kPassed: return "passed";
    case CaseOutcome::Status::kSkipped: return "skipped";
    case CaseOutcome::Status::kFailed: return "failed";
    case CaseOutcome::Status::kNotRun: return "not run";
    case CaseOutcome::Status::kNotSent: return "not sent";
  }
  return "?";
}

std::vector<ShapeWithLayout> size_set_within(int64_t max_array_bytes, int64_t* over_limit) {
  std::vector<ShapeWithLayout> out;
  for (const std::string& text : gen::size_layouts()) {
    ShapeWithLayout shape = parse_shape(text);
    if (largest_buffer_bytes(shape) <= max_array_bytes) {
      out.push_back(std::move(shape));
    } else if (over_limit) {
      ++*over_limit;
    }
  }
  return out;
}

bool LayoutStream::keeps(const ShapeWithLayout& shape) const {
  if (max_rank >= 0 && shape.rank() > max_rank) return false;
  return types.empty() || std::find(types.begin(), types.end(), shape.type) != types.end();
}

bool KnownGaps::matches(const std::string& id) const {
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
    // Literally (a case id holds '[' and may hold '*'), or as a shell glob.
    return p == id || fnmatch(p.c_str(), id.c_str(), 0) == 0;
  });
}

std::vector<const CaseOutcome*> ConformanceReport::cases_with(CaseOutcome::Status status,
                                                              bool listed) const {
  std::vector<const CaseOutcome*> out;
  for (const CaseOutcome& c : cases) {
    if (c.status == status && c.listed == listed) out.push_back(&c);
  }
  return out;
}

std::vector<ImplFunction> ConformanceReport::missing_required() const {
  std::vector<ImplFunction> out;
  for (ImplFunction f : rules.required) {
    const auto it = std::find_if(functions.begin(), functions.end(),
                                 [&](const FunctionReport& r) { return r.function == f; });
    if (it == functions.end() || !it->exported || it->layouts_checked == 0) out.push_back(f);
  }
  return out;
}

std::vector<std::string> ConformanceReport::failures() const {
  std::vector<std::string> out;
  for (const FunctionReport& f : functions) {
    if (f.failure) out.push_back(function_name(f.function));
  }
  const auto count = [](size_t n, const std::string& what) {
    return std::to_string(n) + " case" + (n == 1 ? "" : "s") + " " + what;
  };
  if (const size_t n = cases_with(CaseOutcome::Status::kSkipped, false).size()) {
    out.push_back(count(n, "skipped although claimed"));
  }
  if (rules.gaps.must_fail) {
    if (const size_t n = cases_with(CaseOutcome::Status::kPassed, true).size()) {
      out.push_back(count(n, "listed as known gaps that pass"));
    }
  }
  for (ImplFunction f : missing_required()) {
    out.push_back(std::string("required ") + function_name(f) + " not answered");
  }
  return out;
}

namespace {

// A report with a row per function, before any case.
ConformanceReport empty_report(ImplUnderTest& impl, const GateOptions& options, const RunRules& rules) {
  ConformanceReport report;
  report.rules = rules;
  report.padding_any = options.padding == GateOptions::Padding::kAny;
  report.impl = impl.description();
  report.gate_flag = impl.gate_flag();
  report.exports = impl.exports();
  report.seed = options.seed;
  report.max_array_bytes = options.max_array_bytes;
  for (ImplFunction f : kFunctions) {
    FunctionReport fr;
    fr.function = f;
    fr.exported = impl.exports().*info(f).exported;
    report.functions.push_back(fr);
  }
  return report;
}

// The command that asks `shape` of a new process, as the run asked it.
std::string reproduce_command(ImplUnderTest& impl, ImplFunction f, const ShapeWithLayout& shape,
                              const GateOptions& options) {
  std::string reproduce = "tilecheck gate " + impl.gate_flag() + " --layout " + shell_quote(print_shape(shape));
  if (is_buffer_function(f) || f == ImplFunction::kParse) {
    reproduce += " --seed " + std::to_string(options.seed);
    if (options.padding == GateOptions::Padding::kAny) reproduce += " --padding any";
    // A limit other than the default, which the case may need to be sent.
    if (is_buffer_function(f) && options.max_array_bytes != GateOptions{}.max_array_bytes) {
      reproduce += " --max-array-bytes " + std::to_string(options.max_array_bytes);
    }
  }
  if (f == ImplFunction::kByteSize && options.size_model == GateOptions::SizeModel::kXla) {
    reproduce += " --size-model xla";
  }
  return reproduce;
}

// How a failure found by ask() is reported: `shrink` asks it alone and
// shrinks it (run); otherwise it is reported as found, after the cases
// before it in the process (replay).
enum class OnFailure { kShrink, kAsFound };

// Asks one case of `fr`'s function on `shape` and records it: the case's
// outcome, the function's counts and its first failure not listed.
void ask(ImplUnderTest& impl, Checker& checker, const GateOptions& options, const RunRules& rules,
         ConformanceReport& report, FunctionReport& fr, const std::string& origin, const ShapeWithLayout& shape,
         OnFailure on_failure) {
  const std::string text = print_shape(shape);
  CaseOutcome outcome;
  outcome.function = fr.function;
  outcome.layout = text;
  outcome.type = shape.type;
  outcome.status = CaseOutcome::Status::kNotRun;
  outcome.listed = rules.gaps.matches(outcome.id());
  if (fr.stopped) {
    report.cases.push_back(outcome);
    return;
  }
  Verdict v = checker.check(fr.function, shape);
  switch (v.status) {
    case Verdict::Status::kPassed:
      ++fr.layouts_checked;
      fr.cases += v.cases;
      outcome.status = CaseOutcome::Status::kPassed;
      break;
    case Verdict::Status::kSkipped:
      ++fr.layouts_skipped;
      outcome.status = CaseOutcome::Status::kSkipped;
      break;
    case Verdict::Status::kNotSent:
      ++fr.layouts_not_sent;
      outcome.status = CaseOutcome::Status::kNotSent;
      outcome.problem = v.problem;
      break;
    case Verdict::Status::kFailed: {
      ++fr.layouts_failed;
      outcome.status = CaseOutcome::Status::kFailed;
      outcome.problem = v.problem;
      // Each hang costs --timeout: the operation's other layouts are not run.
      if (v.problem.rfind("hung", 0) == 0) fr.stopped = true;
      // The first failure that is not a known gap is reported.
      if (outcome.listed || fr.failure) break;
      // The cases the same process was asked before this one.
      std::vector<RequestCase> earlier = checker.history();
      earlier.pop_back();
      Shrunk minimal;
      if (on_failure == OnFailure::kShrink) {
        minimal = shrink_alone(impl, checker, fr.function, shape, std::move(v), earlier, options);
      } else {
        minimal = shrunk(shape, std::move(v));
        minimal.earlier_found = !earlier.empty();
        minimal.earlier = std::move(earlier);
      }
      std::string reproduce = reproduce_command(impl, fr.function, minimal.shape, options);
      fr.failure = FailureReport{origin, text, std::move(minimal), std::move(reproduce)};
      break;
    }
  }
  report.cases.push_back(outcome);
}

}  // namespace

std::string RequestCase::id() const { return std::string(function_name(function)) + ":" + print_shape(shape); }

RequestCase parse_case_id(const std::string& id) {
  const size_t colon = id.find(':');
  const std::optional<ImplFunction> f = function_named(id.substr(0, colon));
  if (colon == std::string::npos || !f) {
    throw Error("'" + id + "' is not a case: expected OPERATION:LAYOUT with OPERATION one of " + function_names());
  }
  return {*f, parse_shape(id.substr(colon + 1))};
}

std::vector<RequestCase> Shrunk::sequence(ImplFunction f) const {
  std::vector<RequestCase> out = earlier;
  out.push_back({f, shape});
  return out;
}

ConformanceReport run(ImplUnderTest& impl, const std::vector<ShapeWithLayout>& given,
                      const GateOptions& options, const RunRules& rules) {
  ConformanceReport report = empty_report(impl, options, rules);
  Checker checker(impl, options);
  for_each_layout(given, options, rules.stream, report, [&](const OriginLayout& layout) {
    // Never sent: the implementation does not claim this kind of layout.
    if (impl.unclaimed(layout.shape)) {
      ++report.unclaimed_layouts;
      return;
    }
    for (FunctionReport& fr : report.functions) {
      if (!fr.exported) continue;
      if (layout.index_only && is_buffer_function(fr.function)) continue;
      if (fr.function == ImplFunction::kLinearIndex && spec::element_count(layout.shape) == 0)
        continue;
      ask(impl, checker, options, rules, report, fr, layout.origin, layout.shape, OnFailure::kShrink);
    }
  });
  return report;
}

ConformanceReport replay(ImplUnderTest& impl, const std::vector<std::vector<RequestCase>>& sequences,
                         const GateOptions& options, const RunRules& rules) {
  ConformanceReport report = empty_report(impl, options, rules);
  Checker checker(impl, options);
  for (size_t k = 0; k < sequences.size(); ++k) {
    ++report.replayed_sequences;
    impl.start_afresh();
    const std::vector<RequestCase>& sequence = sequences[k];
    for (size_t i = 0; i < sequence.size(); ++i) {
      const RequestCase& c = sequence[i];
      FunctionReport& fr = report.functions[static_cast<size_t>(c.function)];
      const std::string origin = "replay sequence " + std::to_string(k + 1) + ", case " + std::to_string(i + 1) +
                                 " of " + std::to_string(sequence.size());
      if (!fr.exported) throw Error(origin + " asks " + function_name(c.function) + ", which the implementation does not offer");
      if (const auto why = impl.unclaimed(c.shape)) throw Error(origin + ": the implementation does not claim " + print_shape(c.shape) + " (" + *why + ")");
      ask(impl, checker, options, rules, report, fr, origin, c.shape, OnFailure::kAsFound);
    }
  }
  return report;
}

}  // namespace tilecheck::conformance
