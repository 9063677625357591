// The properties' GoogleTest main: registers the property suites named by
// PROPERTY_SUITES (a comma-separated list of suite functions, set per binary
// in CMakeLists.txt; PROPERTY_SUITES_HEADER names the header declaring them
// when property_registry.h does not) as tests, with RapidCheck defaults that
// make a plain run reproducible.
//
// Unless the caller says otherwise, every run uses a fixed seed and
// max_success=1000 (the ctest default), of which a costly property runs its
// share (PropertyInfo::cases_per_1000). RC_PARAMS from the environment is
// appended after the defaults, and RapidCheck lets a later key win, so
// RC_PARAMS="max_success=100000" soaks with the same seed,
// RC_PARAMS="seed=123" changes it, and RC_PARAMS="reproduce=..." replays a
// reported failure.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>  // after gtest.h, which it needs

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "properties/property_registry.h"
// A binary whose suites are declared outside properties/ names their header.
#ifdef PROPERTY_SUITES_HEADER
#include PROPERTY_SUITES_HEADER
#endif

namespace {

// rc::detail::checkGTest, with the property's share of the configured
// cases (PropertyInfo::cases_per_1000).
class PropertyTest : public testing::Test {
 public:
  explicit PropertyTest(const tilecheck::props::PropertyInfo& property) : property_(property) {}
  void TestBody() override {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    rc::detail::TestMetadata metadata;
    metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
    metadata.description = info->name();
    rc::detail::TestParams params = rc::detail::configuration().testParams;
    params.maxSuccess = tilecheck::props::scaled_cases(property_, params.maxSuccess);
    const rc::detail::TestResult result = rc::detail::checkTestable(property_.body, metadata, params);
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    if (!result.is<rc::detail::SuccessResult>()) {
      FAIL() << message.str() << std::endl;
    } else if (!result.get<rc::detail::SuccessResult>().distribution.empty()) {
      std::cout << message.str() << std::endl;
    }
  }

 private:
  tilecheck::props::PropertyInfo property_;
};

}  // namespace

int main(int argc, char** argv) {
  const char* user = std::getenv("RC_PARAMS");
  const std::string params = "seed=" + std::to_string(tilecheck::props::kDefaultSeed) +
                             " max_success=1000" + (user ? std::string(" ") + user : "");
  setenv("RC_PARAMS", params.c_str(), 1);
  testing::InitGoogleTest(&argc, argv);
  using tilecheck::props::PropertyInfo;
  for (auto suite : {PROPERTY_SUITES}) {
    for (const PropertyInfo& p : suite()) {
      testing::RegisterTest(p.suite.c_str(), p.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [p]() -> testing::Test* { return new PropertyTest(p); });
    }
  }
  return RUN_ALL_TESTS();
}
