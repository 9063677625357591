// Shim of Abseil's absl/log/check.h (peers/xla/shims/README.md): the system's
// own when its Abseil has one, else CHECK that aborts with its message.
// DCHECK is checked in every build, as in XLA's debug builds: the gate then
// reports a broken invariant of TransposePlan as a crash, not as a wrong
// buffer.
#pragma once

#if __has_include_next(<absl/log/check.h>)
#include_next <absl/log/check.h>
#else
#include "tilecheck_xla_shim/fatal.h"

#define CHECK(condition)                     \
  (condition) ? (void)0                      \
              : ::tilecheck_xla_shim::Voidify() & \
                    ::tilecheck_xla_shim::Fatal(__FILE__, __LINE__, "Check failed: " #condition " ")
#define CHECK_EQ(a, b) CHECK((a) == (b))
#define CHECK_NE(a, b) CHECK((a) != (b))
#define CHECK_LT(a, b) CHECK((a) < (b))
#define CHECK_LE(a, b) CHECK((a) <= (b))
#define CHECK_GT(a, b) CHECK((a) > (b))
#define CHECK_GE(a, b) CHECK((a) >= (b))

#define DCHECK(condition) CHECK(condition)
#define DCHECK_EQ(a, b) CHECK_EQ(a, b)
#define DCHECK_NE(a, b) CHECK_NE(a, b)
#define DCHECK_LT(a, b) CHECK_LT(a, b)
#define DCHECK_LE(a, b) CHECK_LE(a, b)
#define DCHECK_GT(a, b) CHECK_GT(a, b)
#define DCHECK_GE(a, b) CHECK_GE(a, b)
#endif
