// The last phase of a run: options.property_cases layouts of the chosen
// profile (tilecheck/gen/profiles.h; the layout recipe's make_layout with the
// exhaustive budget for "general"), drawn from a stream seeded by
// options.seed, so a run is deterministic; narrowed by --max-rank and
// --types.
#include <optional>

#include "conformance/phases.h"
#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/gen/profiles.h>
#include <tilecheck/gen/seeded_choices.h>
#include <tilecheck/gen/sweep.h>

namespace tilecheck::conformance {

void generated_phase(const check::GateOptions& options, const LayoutStream& stream, ConformanceReport& report,
                     const VisitLayout& visit) {
  gen::SeededChoices choices(options.seed);  // --seed: a deterministic stream
  const gen::RecipeLimits limits = gen::profile_limits(stream.profile, gen::kExhaustiveLimits);
  const std::string profile =
      stream.profile == gen::Profile::kGeneral
          ? ""
          : "profile " + std::string(gen::profile_name(stream.profile)) + ", ";
  for (int64_t k = 0; k < options.property_cases; ++k) {
    // The next layout the narrowing keeps: within a bounded number of draws.
    constexpr int kDraws = 10000;
    std::optional<ShapeWithLayout> shape;
    for (int draw = 0; draw < kDraws && !shape; ++draw) {
      ShapeWithLayout s = gen::make_profile_layout(choices, stream.profile, limits);
      if (stream.keeps(s)) shape = std::move(s);
    }
    if (!shape) {
      throw Error("no layout of profile " + std::string(gen::profile_name(stream.profile)) +
                  " in " + std::to_string(kDraws) +
                  " draws has the --max-rank and --types asked for");
    }
    ++report.generated_layouts;
    visit({"generated layout " + std::to_string(k + 1) + " (" + profile + "seed " +
               std::to_string(options.seed) + ")",
           *shape});
  }
}

}  // namespace tilecheck::conformance
