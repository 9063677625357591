// Shrinking a failure: asked alone of a new process, then made simpler step
// by step while it still fails; or, when it passes alone, the shortest
// sequence of earlier requests after which it fails again.
#include <algorithm>
#include <chrono>
#include <span>

#include "conformance/phases.h"
#include "conformance/protocol.h"
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/sweep.h>
#include <tilecheck/spec/semantics.h>

namespace tilecheck::conformance {

using check::GateOptions;

Shrunk shrunk(ShapeWithLayout shape, Verdict verdict, int steps) {
  Shrunk s;
  s.shape = std::move(shape);
  s.verdict = std::move(verdict);
  s.steps = steps;
  return s;
}

namespace {

// Candidates one step simpler than a failing layout.

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

}  // namespace

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

}  // namespace tilecheck::conformance
