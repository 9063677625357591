// The thread schedule's invariants (impl::PackPlan::thread_shares), checked
// on the schedule itself rather than on results: two threads ORing bits into
// one byte go wrong only rarely, so comparing bytes cannot see that race.
// One checker for every driver (the property p8_thread_shares, the fuzz
// target pack_roundtrip). Header-only: the caller links the impl it checks.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>

#include <tilecheck/impl/plan.h>

namespace tilecheck::check {

// The first invariant the shares of `plan` for one of `thread_counts` break,
// for pack and for unpack, or nullopt:
//   - one thread has at most one share; `threads` have at most `threads`,
//     and none exactly when one thread has none;
//   - the shares cover what the single share covers, in order, each
//     iteration and bit once (each starts where the one before ends, the
//     first at 0, the last where the single share ends, within the buffer);
//   - every share of a pack starts on a byte boundary (no two threads
//     write one byte).
inline std::optional<std::string> thread_schedule_problem(const impl::PackPlan& plan,
                                                          std::initializer_list<int> thread_counts) {
  for (const bool pack : {true, false}) {
    const auto single = plan.thread_shares(pack, {.threads = 1});
    if (single.size() > 1) {
      return std::string(pack ? "pack" : "unpack") + ": one thread has " + std::to_string(single.size()) +
             " shares";
    }
    if (!single.empty() && single.front().end_bit > plan.index().byte_size() * 8) {
      return std::string(pack ? "pack" : "unpack") + ": the work reaches past the physical buffer";
    }
    for (const int threads : thread_counts) {
      const auto shares = plan.thread_shares(pack, {.threads = threads});
      // Messages are built only for a problem found.
      const auto what = [&] {
        return std::string(pack ? "pack" : "unpack") + " in " + std::to_string(threads) + " threads: ";
      };
      if (shares.empty() != single.empty()) return what() + "shares exist for one thread count only";
      if (shares.empty()) continue;
      if (shares.size() > static_cast<size_t>(threads)) {
        return what() + std::to_string(shares.size()) + " shares";
      }
      if (shares.front().begin != 0 || shares.front().first_bit != 0) {
        return what() + "the first share does not start at 0";
      }
      for (size_t i = 0; i < shares.size(); ++i) {
        const auto share = [&] { return what() + "share " + std::to_string(i) + " "; };
        if (shares[i].begin >= shares[i].end) return share() + "is empty";
        if (shares[i].first_bit > shares[i].end_bit) return share() + "ends before it starts";
        if (i + 1 < shares.size() && (shares[i].end != shares[i + 1].begin ||
                                      shares[i].end_bit != shares[i + 1].first_bit)) {
          return share() + "does not end where the next one starts";
        }
        if (pack && shares[i].first_bit % 8 != 0) {
          return share() + "starts at bit " + std::to_string(shares[i].first_bit) +
                 ", inside a byte that the share before it also writes";
        }
      }
      if (shares.back().end != single.front().end || shares.back().end_bit != single.front().end_bit) {
        return what() + "the shares do not end where one thread's work ends";
      }
    }
  }
  return std::nullopt;
}

}  // namespace tilecheck::check
