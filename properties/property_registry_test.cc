// run_property (the gate's way of running a property) reports a failing
// property as failed, with the minimal counterexample, and a passing one
// with its case count.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "properties/property_registry.h"
#include "properties/rc_layout_gen.h"

namespace tilecheck::props {
namespace {

// False for every layout with a tile: the counterexample is printed as
// layout text with a tile.
void NoLayoutHasTiles() { RC_ASSERT((*gen_layout()).layout.tiles.empty()); }
void TrueOfEveryLayout() { RC_ASSERT(spec::tiled_shape(*gen_layout()).size() >= 0u); }

TEST(RunProperty, ReportsTheMinimalCounterexample) {
  const PropertyRun run = run_property({"Test", "NoLayoutHasTiles", "t", "", &NoLayoutHasTiles}, 100);
  EXPECT_FALSE(run.ok);
  EXPECT_NE(run.message.find("Falsifiable"), std::string::npos) << run.message;
  EXPECT_NE(run.message.find("ShapeWithLayout:\n"), std::string::npos) << run.message;
  EXPECT_NE(run.message.find(":T("), std::string::npos) << run.message;
}

TEST(RunProperty, CountsThePassingCases) {
  const PropertyRun run = run_property({"Test", "TrueOfEveryLayout", "t", "", &TrueOfEveryLayout}, 37);
  EXPECT_TRUE(run.ok) << run.message;
  EXPECT_EQ(run.cases, 37);
}

}  // namespace
}  // namespace tilecheck::props
