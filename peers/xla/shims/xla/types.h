// Shim of XLA's types.h for TransposePlan (peers/xla/shims/README.md): the
// files it builds use only the fixed-width integers from it.
#pragma once

#include <cstdint>
