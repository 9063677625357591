// Is reinterpreting a buffer of layout `from` as layout `to` a bitcast?
// The rule and its report are answers/bitcast.h's; this runs it element by
// element over the impl's index plans (tens of millions of elements a
// second).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "answers/bitcast.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::check {

using answers::BitcastReport;

// Element counts that differ make it no bitcast (no reshape exists). Throws
// Error for layouts tilecheck cannot map (symbolic dims, split configs, ...)
// or a `transpose` that is not a permutation matching the dims.
//
// Inline, as tilecheck/testing/agreement.h: it runs on whichever impl the executable
// links (the real one, or a mutant of the properties).
inline BitcastReport check_bitcast(const ShapeWithLayout& from, const ShapeWithLayout& to,
                                   const std::optional<std::vector<int64_t>>& transpose = std::nullopt) {
  return answers::bitcast_report<impl::IndexPlan>(from, to, transpose);
}

}  // namespace tilecheck::check
