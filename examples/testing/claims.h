// Which layouts each function of the library handles, as families
// (<tilecheck/testing/family.h>): its TPU format over any rows and columns.
// The properties draw from them, the fuzz targets spend every input on
// them, and `contains` answers for one layout.
#pragma once

#include <tilecheck/testing/family.h>

namespace claims {

inline const tilecheck::testing::Family& detile_bf16() {
  static const tilecheck::testing::Family family = tilecheck::testing::family("bf16[?,?]{1,0:T(8,128)(2,1)}");
  return family;
}

inline const tilecheck::testing::Family& pack_s4() {
  static const tilecheck::testing::Family family = tilecheck::testing::family("s4[?,?]{1,0:T(8,128)(8,1)E(4)}");
  return family;
}

}  // namespace claims
