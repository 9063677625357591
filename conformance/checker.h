// The checker: one operation of the implementation under test asked on one
// layout and its answers judged against the spec (the operations and what is
// compared: conformance/runner.h). Every phase of a run asks its cases
// through it; it keeps the cases the current process was asked, in order,
// which shrinking and the search for the earlier requests a failure depends
// on read (conformance/shrink.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/gate.h"
#include "conformance/impl_under_test.h"
#include "conformance/report.h"
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {

// The larger of a layout's dense and physical buffers: what a pack or
// unpack of it sends or receives, against --max-array-bytes.
int64_t largest_buffer_bytes(const ShapeWithLayout& shape);

class Checker {
 public:
  Checker(ImplUnderTest& impl, const check::GateOptions& options) : impl_(impl), options_(options) {}

  bool unclaimed(const ShapeWithLayout& shape) const { return impl_.unclaimed(shape).has_value(); }

  // `one_at_a_time` sends elements one per request, to name the element a
  // crash happens on.
  Verdict check(ImplFunction f, const ShapeWithLayout& shape, bool one_at_a_time = false);

  // The cases asked of the current process so far, in order (the last is
  // the latest check).
  const std::vector<RequestCase>& history() const { return history_; }

 private:
  Verdict dispatch(ImplFunction f, const ShapeWithLayout& shape, bool one_at_a_time);

  static constexpr int64_t kBatch = 4096;  // elements per request

  Verdict check_index(const ShapeWithLayout& shape, bool one_at_a_time);
  Verdict check_delinearize(const ShapeWithLayout& shape);
  Verdict check_size(const ShapeWithLayout& shape);
  Verdict check_pack(const ShapeWithLayout& shape);
  Verdict check_unpack(const ShapeWithLayout& shape);
  Verdict check_relayout(const ShapeWithLayout& from);
  Verdict check_parse(const ShapeWithLayout& shape);

  // Seeded random bytes; `salt` tells the streams of one run apart.
  std::vector<uint8_t> random_bytes(int64_t n, uint64_t salt) const;
  // The dense data of a pack check, in canonical form (docs/PROTOCOL.md,
  // "Dense buffers").
  std::vector<uint8_t> dense_data(const ShapeWithLayout& shape) const;
  // A physical buffer for unpack and relayout: every bit random, padding too.
  std::vector<uint8_t> physical_data(const ShapeWithLayout& shape) const;
  // A seeded stream of choices for one layout: the same layout and seed give
  // the same relayout target and the same invalid text, in shrinking too.
  gen::SeededChoices choices_for(const std::string& text) const;

  static Details buffer_detail(const char* name, const std::vector<uint8_t>& bytes, const char* otherwise);

  // The verdict on a buffer the implementation wrote (pack, unpack,
  // relayout): `want` is the spec's, a buffer of `result_shape`, physical or
  // dense. With --padding any a physical result's padding bits are zeroed
  // (an unpack and a pack of the spec) before the comparison; a wrong size
  // stays wrong.
  Verdict buffer_verdict(const WorkerReply<BufferAnswer>& reply, Details details,
                         const ShapeWithLayout& result_shape, bool physical,
                         const std::vector<uint8_t>& want, const std::string& what) const;

  // Why a buffer case on `shape` (and `to`) is past the gate's limit, or
  // nullopt: every dense and physical buffer it would send or receive is
  // at most --max-array-bytes.
  std::optional<std::string> over_limit(const ShapeWithLayout& shape, const ShapeWithLayout* to = nullptr) const;

  // The layout a relayout check moves `from` into: a seeded partner of the
  // same dims and element width, without its tiles when the implementation
  // does not claim them; nullopt when it claims neither.
  std::optional<ShapeWithLayout> relayout_target(const ShapeWithLayout& from) const;

  ImplUnderTest& impl_;
  const check::GateOptions& options_;
  std::vector<RequestCase> history_;
};

}  // namespace tilecheck::conformance
