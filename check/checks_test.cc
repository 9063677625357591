// The gate's check bodies (check/checks.h) pass on the spec and fail, with
// a counterexample, on deliberately broken index, delinearize and pack
// functions: each check can fail.
#include <gtest/gtest.h>

#include <tilecheck/testing/agreement.h>
#include "check/checks.h"
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::check {
namespace {

const ShapeWithLayout kFigure1 = parse_shape("f32[3,5]{1,0:T(2,2)}");
const ShapeWithLayout kNibbles = parse_shape("s4[5,7]{1,0:T(2,4)E(4)}");
const ShapeWithLayout kLarge = parse_shape("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}");

TEST(GateChecks, SpecPassesExhaustively) {
  const CheckResult r = check_bijection(kFigure1, spec_mapping(kFigure1), {});
  EXPECT_TRUE(r.ok()) << r.detail;
  EXPECT_EQ(r.status, CheckResult::Status::kPassed);
  EXPECT_EQ(r.checked, 15 + 24);
  EXPECT_EQ(r.detail, "15 elements onto 24 positions (9 padding), exhaustive");
}

TEST(GateChecks, SpecPassesSampledAboveTheLimit) {
  const GateOptions options{.exhaustive_limit = 1 << 16, .samples = 500};
  const CheckResult r = check_bijection(kLarge, spec_mapping(kLarge), options);
  EXPECT_EQ(r.status, CheckResult::Status::kPassed) << r.detail;
  // 500 random elements and the 4 corners of its two dims, then 500 positions.
  EXPECT_EQ(r.checked, 1004);
  EXPECT_NE(r.detail.find("sampled 500 and the edges"), std::string::npos) << r.detail;
}

TEST(GateChecks, BijectionCatchesACollision) {
  IndexMapping m = spec_mapping(kFigure1);
  m.linear_index = [](const Element& e) {  // (2,4) lands on (2,3)'s position
    return e == Element{2, 4} ? spec::linear_index(kFigure1, {2, 3})
                              : spec::linear_index(kFigure1, e);
  };
  const CheckResult r = check_bijection(kFigure1, m, {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_EQ(r.detail, "element (2,4) -> 17, but delinearize(17) = (2,3)");
}

TEST(GateChecks, BijectionCatchesTwoElementsOnOnePositionEvenIfDelinearizeAgrees) {
  IndexMapping m = spec_mapping(kFigure1);
  m.linear_index = [](const Element& e) {
    return e == Element{2, 4} ? spec::linear_index(kFigure1, {2, 3})
                              : spec::linear_index(kFigure1, e);
  };
  m.delinearize = [](int64_t p) -> std::optional<Element> {
    if (p == 17) return Element{2, 4};  // claims the later element, and padding at 20
    return p == 20 ? std::nullopt : spec::delinearize(kFigure1, p);
  };
  const CheckResult r = check_bijection(kFigure1, m, {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_EQ(r.detail, "element (2,3) -> 17, but delinearize(17) = (2,4)");
}

TEST(GateChecks, BijectionCatchesAPaddingPositionClaimingAnElement) {
  IndexMapping m = spec_mapping(kFigure1);
  m.delinearize = [](int64_t p) -> std::optional<Element> {
    return p == 9 ? Element{0, 0} : spec::delinearize(kFigure1, p);
  };
  const CheckResult r = check_bijection(kFigure1, m, {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_EQ(r.detail, "position 9 is hit by no element, but delinearize says (0,0)");
}

TEST(GateChecks, BijectionCatchesAnIndexOutOfRange) {
  IndexMapping m = spec_mapping(kFigure1);
  m.padded_element_count = 20;  // as if the padded count forgot the last row of tiles
  const CheckResult r = check_bijection(kFigure1, m, {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_EQ(r.detail, "element (2,4) -> 20, outside [0, 20)");
}

TEST(GateChecks, SampledBijectionCatchesABrokenIndex) {
  IndexMapping m = spec_mapping(kLarge);
  m.linear_index = [](const Element& e) { return spec::linear_index(kLarge, {e[0], e[1] / 2 * 2}); };
  const CheckResult r = check_bijection(kLarge, m, {.samples = 100});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_NE(r.detail.find("but delinearize"), std::string::npos) << r.detail;
}

TEST(GateChecks, SameIndexCatchesADisagreement) {
  const IndexFn spec_index = [](const Element& e) { return spec::linear_index(kFigure1, e); };
  const IndexFn off_by_one = [](const Element& e) {
    return spec::linear_index(kFigure1, e) + (e == Element{1, 4} ? 1 : 0);
  };
  EXPECT_TRUE(check_same_index(kFigure1, spec_index, spec_index, "a and b", {}).ok());
  const CheckResult r = check_same_index(kFigure1, spec_index, off_by_one, "a and b", {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_EQ(r.detail, "a and b disagree on element (1,4): 10 vs 11");
}

TEST(GateChecks, PackRoundTripPassesOnTheSpec) {
  const IndexFn index = spec_mapping(kNibbles).linear_index;
  const CheckResult r = check_pack_round_trip(kNibbles, spec_pack_functions(kNibbles), index, {});
  EXPECT_EQ(r.status, CheckResult::Status::kPassed) << r.detail;
  EXPECT_EQ(r.checked, 35);
}

TEST(GateChecks, PackRoundTripCatchesNonZeroPadding) {
  PackFunctions f = spec_pack_functions(kNibbles);
  f.pack = [](std::span<const uint8_t> dense) {
    std::vector<uint8_t> physical = spec::pack(kNibbles, dense);
    physical.back() |= 0x80;  // a bit of position 47, which is padding
    return physical;
  };
  const CheckResult r =
      check_pack_round_trip(kNibbles, f, spec_mapping(kNibbles).linear_index, {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_NE(r.detail.find("padding bit"), std::string::npos) << r.detail;
}

TEST(GateChecks, PackRoundTripCatchesAMisplacedElement) {
  // pack and unpack agree with each other (the round trip holds) and the
  // buffer has the right size, but elements sit where another layout puts them.
  const ShapeWithLayout other = parse_shape("s4[5,7]{1,0:T(2,4)(2,1)E(4)}");
  PackFunctions f{[&](std::span<const uint8_t> d) {
                    return spec::pack(other, d);
                  },
                  [&](std::span<const uint8_t> p) { return spec::unpack(other, p); }};
  const CheckResult r =
      check_pack_round_trip(kNibbles, f, spec_mapping(kNibbles).linear_index, {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_NE(r.detail.find("differs after pack"), std::string::npos) << r.detail;
}

TEST(GateChecks, PackRoundTripCatchesUnpackReadingPadding) {
  PackFunctions f = spec_pack_functions(kFigure1);
  f.unpack = [](std::span<const uint8_t> physical) {
    std::vector<uint8_t> dense = spec::unpack(kFigure1, physical);
    dense[0] ^= physical[9 * 4];  // reads padding position 9
    return dense;
  };
  const CheckResult r =
      check_pack_round_trip(kFigure1, f, spec_mapping(kFigure1).linear_index, {});
  EXPECT_EQ(r.status, CheckResult::Status::kFailed);
  EXPECT_EQ(r.detail, "unpack reads padding: with padding bits set it returns other data");
}

TEST(GateChecks, PackIsSkippedAboveItsLimitAndSaysSo) {
  const CheckResult r = check_pack_round_trip(kLarge, spec_pack_functions(kLarge),
                                              spec_mapping(kLarge).linear_index, {});
  EXPECT_EQ(r.status, CheckResult::Status::kSkipped);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.detail, "56623104 elements, more than the pack limit 1048576");
}

TEST(GateChecks, AThrowingCheckFailsTheGate) {
  GateRegistry registry;
  registry.add_layout_check("throws", "", [](const ShapeWithLayout&, const GateOptions&) -> CheckResult {
    throw Error("boom");
  });
  const GateReport report = run_gate(registry, {{"fig1", kFigure1}}, {});
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.failed, 1);
  EXPECT_EQ(report.layouts[0].checks[0].result.detail, "threw: boom");
  EXPECT_EQ(gate_summary_line(report), "gate: 1 layouts, 1 checks, 0 passed, 1 failed");
}

TEST(GateChecks, DuplicateCheckNamesAreRejected) {
  GateRegistry registry;
  add_spec_gate_checks(registry);
  EXPECT_THROW(add_spec_gate_checks(registry), Error);
}

// A byte difference only within float value classes is named, with its
// counts; one difference outside them (a flipped mantissa bit, nonzero
// padding) leaves the report without the classification. Either way the
// buffers disagree.
TEST(ValueClasses, FloatDifferencesWithinTheirClassAreNamed) {
  const ShapeWithLayout bf16 = parse_shape("bf16[4]{0:T(2)}");
  //                          sNaN        denormal    -0          1.0
  const std::vector<uint8_t> want = {0x81, 0x7f, 0x32, 0x80, 0x00, 0x80, 0x80, 0x3f};
  std::vector<uint8_t> got = {0xc1, 0x7f, 0x00, 0x80, 0x00, 0x00, 0x80, 0x3f};
  const Agreement d = bytes_agree(bf16, true, "wrong packed bytes", want, got);
  ASSERT_TRUE(d);
  std::string classes;
  for (const auto& [what, value] : d->details) {
    if (what == "value classes") classes = value;
  }
  EXPECT_EQ(classes,
            "only values differ, each within its class: 1 signalling NaN written quiet, 1 denormal "
            "written as a signed zero, 1 -0 written as +0 (the implementation moves values through float arithmetic "
            "instead of copying their bits; a layout conversion must copy bits)");
  EXPECT_EQ(d->what,
            "wrong packed bytes (values changed within their class: 1 signalling NaN written quiet, 1 denormal "
            "written as a signed zero, 1 -0 written as +0)");
  got[6] ^= 1;  // 1.0 with another mantissa bit: not a value class
  const Agreement other = bytes_agree(bf16, true, "wrong packed bytes", want, got);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->what, "wrong packed bytes");
  for (const auto& [what, value] : other->details) EXPECT_NE(what, "value classes") << value;
  // A 32-bit integer rounded to f32's 24 bits is named; one off by one is not.
  const ShapeWithLayout s32 = parse_shape("s32[2]{0}");
  const std::vector<uint8_t> big = {0x01, 0x00, 0x00, 0x01, 0x07, 0x00, 0x00, 0x00};  // 2^24 + 1, 7
  const std::vector<uint8_t> rounded = {0x00, 0x00, 0x00, 0x01, 0x07, 0x00, 0x00, 0x00};
  const Agreement s32_rounded = bytes_agree(s32, false, "wrong unpacked bytes", big, rounded);
  ASSERT_TRUE(s32_rounded);
  EXPECT_EQ(s32_rounded->what, "wrong unpacked bytes (values changed within their class: 1 32-bit integer rounded to f32 precision)");
  std::vector<uint8_t> off_by_one = rounded;
  off_by_one[4] = 0x06;
  const Agreement s32_other = bytes_agree(s32, false, "wrong unpacked bytes", big, off_by_one);
  ASSERT_TRUE(s32_other);
  EXPECT_EQ(s32_other->what, "wrong unpacked bytes");
  // Another integer type is never classified.
  const std::vector<uint8_t> quieted = {0xc1, 0x7f, 0x00, 0x80, 0x00, 0x00, 0x80, 0x3f};
  const Agreement ints = bytes_agree(parse_shape("s16[4]{0:T(2)}"), true, "wrong packed bytes", want, quieted);
  ASSERT_TRUE(ints);
  for (const auto& [what, value] : ints->details) EXPECT_NE(what, "value classes") << value;
}

}  // namespace
}  // namespace tilecheck::check
