#include "properties/property_registry.h"

#include <rapidcheck.h>

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

}  // namespace

PropertyRun run_property(const PropertyInfo& property, int cases, uint64_t seed) {
  rc::detail::TestMetadata metadata;
  metadata.id = property.suite + "/" + property.name;
  metadata.description = property.name;
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
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
