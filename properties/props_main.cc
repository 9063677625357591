// The properties' GoogleTest main: registers the property suites named by
// PROPERTY_SUITES (a comma-separated list of suite functions, set per binary
// in CMakeLists.txt; PROPERTY_SUITES_HEADER names the header declaring them
// when property_registry.h does not) as tests, with RapidCheck defaults that
// make a plain run reproducible.
//
// Unless the caller says otherwise, every run uses a fixed seed and
// max_success=1000 (the ctest default). RC_PARAMS from the environment is
// appended after the defaults, and RapidCheck lets a later key win, so
// RC_PARAMS="max_success=100000" soaks with the same seed,
// RC_PARAMS="seed=123" changes it, and RC_PARAMS="reproduce=..." replays a
// reported failure.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>  // after gtest.h, which it needs

#include <cstdlib>
#include <string>

#include "properties/property_registry.h"
// A binary whose suites are declared outside properties/ names their header.
#ifdef PROPERTY_SUITES_HEADER
#include PROPERTY_SUITES_HEADER
#endif

namespace {

class PropertyTest : public testing::Test {
 public:
  explicit PropertyTest(void (*body)()) : body_(body) {}
  void TestBody() override { rc::detail::checkGTest(body_); }

 private:
  void (*body_)();
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
                            [body = p.body]() -> testing::Test* { return new PropertyTest(body); });
    }
  }
  return RUN_ALL_TESTS();
}
