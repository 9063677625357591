// The oneDNN peer's property suite (onednn_properties.cc), for the
// properties' main (properties/props_main.cc).
#pragma once

#include <vector>

#include "properties/property_registry.h"

namespace tilecheck::peers {

std::vector<props::PropertyInfo> onednn_property_suite();

}  // namespace tilecheck::peers
