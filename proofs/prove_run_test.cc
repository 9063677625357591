// The prove and equiv commands' output and exit codes (proofs/prove_run.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "proofs/prove_run.h"

namespace tilecheck::proofs {
namespace {

// `equiv FIRST SECOND` with the default options.
EquivOptions equiv(std::string first, std::string second) {
  EquivOptions o;
  o.first = std::move(first);
  o.second = std::move(second);
  return o;
}

TEST(Equiv, DifferentDimsAreBadInput) {
  std::ostringstream out, err;
  EXPECT_EQ(run_equiv({"f32[?,128]{1,0}", "f32[?,?]{1,0}", false, "", 1000}, out, err),
            kBadInput);
  EXPECT_NE(err.str().find("error:"), std::string::npos);
}

TEST(Equiv, DifferentElementTypesAreBadInputUnlessAsked) {
  std::ostringstream out, err;
  EquivOptions options = equiv("f32[16,256]{1,0:T(8,128)}", "bf16[16,256]{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(run_equiv(options, out, err), kBadInput);
  EXPECT_NE(err.str().find("error: equiv compares layouts of one element type; f32 and bf16 differ"),
            std::string::npos)
      << err.str();
  options.any_types = true;
  std::ostringstream out2, err2;
  EXPECT_EQ(run_equiv(options, out2, err2), kSomeRefuted) << err2.str();
  EXPECT_NE(err2.str().find("warning: f32 and bf16 differ"), std::string::npos) << err2.str();
}

// The counterexample is shrunk: the smallest '?' dims, then the first
// element in row-major order; a '?' is never printed as a number.
TEST(Equiv, TheCounterexampleIsShrunk) {
  std::ostringstream out, err;
  EXPECT_EQ(run_equiv(equiv("f32[?,?]{1,0:T(8,128)}", "f32[?,?]{0,1:T(8,128)}"), out, err),
            kSomeRefuted);
  EXPECT_NE(out.str().find("counterexample: dims [1,2]: element (0,1) is at position 1 in "
                           "f32[1,2]{1,0:T(8,128)} but 128 in f32[1,2]{0,1:T(8,128)}"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("-2"), std::string::npos) << out.str();
  std::ostringstream fixed, err2;
  EXPECT_EQ(run_equiv(equiv("f32[2048,2048]{1,0:T(8,128)}", "f32[2048,2048]{1,0:T(8,256)}"), fixed, err2),
            kSomeRefuted);
  EXPECT_NE(fixed.str().find("element (0,128) is at position 1024"), std::string::npos) << fixed.str();
}

TEST(Command, JsonHasOneEntryPerObligation) {
  std::ostringstream out, err;
  ProveOptions options;
  options.layout = "f32[?,?]{1,0:T(8,128)}";
  options.json = true;
  ASSERT_EQ(run_prove(options, out, err), kAllProved) << err.str();
  const nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["layout"], "f32[?,?]{1,0:T(8,128)}");
  ASSERT_EQ(j["obligations"].size(), 4u);
  EXPECT_EQ(j["obligations"][0]["name"], "P1");
  EXPECT_EQ(j["obligations"][3]["name"], "P5");
  EXPECT_EQ(j["obligations"][3]["result"], "proved");
  EXPECT_EQ(j["obligations"][0]["result"], "proved");
  EXPECT_TRUE(j["obligations"][0]["ms"].is_number());
}

TEST(Command, TextOutputAndBadInput) {
  std::ostringstream out, err;
  ProveOptions options;
  options.layout = "f32[?]{0:T(4)}";
  EXPECT_EQ(run_prove(options, out, err), kAllProved);
  EXPECT_NE(out.str().find("P1 injective: proved"), std::string::npos) << out.str();
  options.layout = "f32[?]{0:T(0)}";
  std::ostringstream out2, err2;
  EXPECT_EQ(run_prove(options, out2, err2), kBadInput);
  EXPECT_NE(err2.str().find("error:"), std::string::npos);
  options.layout = "";
  EXPECT_EQ(run_prove(options, out2, err2), kBadInput);
}

TEST(Command, Smt2FilesAreWritten) {
  std::ostringstream out, err;
  ProveOptions options;
  options.layout = "f32[?,?]{1,0:T(2,2)}";
  options.smt2_dir = ::testing::TempDir() + "/tilecheck_smt2";
  ASSERT_EQ(run_prove(options, out, err), kAllProved) << err.str();
  std::ifstream f(options.smt2_dir + "/mixed-radix-core.smt2");
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("(check-sat)"), std::string::npos);
}

}  // namespace
}  // namespace tilecheck::proofs
