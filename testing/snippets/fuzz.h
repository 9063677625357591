// What docs/TESTING.md's fuzz programs ("fuzz_family", "fuzz_profile")
// leave to the user: a pack of u8[R,C]{1,0:T(32,128)(4,1)} as written. The
// page declares it; testing/fuzz_random_driver.cc drives the harness.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "testing/hand_written.h"
#include <tilecheck/spec/model.h>
#include <tilecheck/spec/syntax.h>

std::vector<uint8_t> my_pack(const tilecheck::ShapeWithLayout& layout, std::span<const uint8_t> dense) {
  return tilecheck::testing::example::pack_tiled(std::vector<uint8_t>(dense.begin(), dense.end()),
                                                 static_cast<int>(layout.dims[0]), static_cast<int>(layout.dims[1]),
                                                 32, 4);
}
