#include "properties/property_registry.h"

#include <rapidcheck.h>

#include <iostream>
#include <sstream>

namespace tilecheck::props {
namespace {

// The gate reports results itself: no progress output, and no "reproduce"
// line at exit (a gate run is reproduced by its --seed and --cases).
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// RapidCheck announces its global configuration on stderr when it first
// loads it; the gate's stderr is for errors only, so load it silently.
void load_configuration_quietly() {
  static const bool loaded = [] {
    std::streambuf* saved = std::cerr.rdbuf(nullptr);
    rc::detail::configuration();
    std::cerr.rdbuf(saved);
    return true;
  }();
  (void)loaded;
}

}  // namespace

PropertyRun run_property(const PropertyInfo& property, int cases, uint64_t seed) {
  load_configuration_quietly();
  rc::detail::TestMetadata metadata;
  metadata.id = property.suite + "/" + property.name;
  metadata.description = property.name;
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = scaled_cases(property, cases);
  QuietListener listener;
  const rc::detail::TestResult result =
      rc::detail::checkTestable(property.body, metadata, params, listener);
  PropertyRun run;
  if (result.is<rc::detail::SuccessResult>()) {
    run.ok = true;
    run.cases = result.get<rc::detail::SuccessResult>().numSuccess;
    return run;
  }
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  message << "\n(seed " << seed << ", " << cases << " cases)";
  run.message = message.str();
  return run;
}

}  // namespace tilecheck::props
