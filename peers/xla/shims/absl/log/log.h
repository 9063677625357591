// Shim of Abseil's absl/log/log.h (peers/xla/shims/README.md): the system's
// own when its Abseil has one, else LOG(FATAL) that aborts with its message.
// VLOG and DVLOG, where that Abseil lacks them (before 20240116), print
// nothing: a plan's own trace is not part of the protocol's output.
#pragma once

#include "tilecheck_xla_shim/fatal.h"

#if __has_include_next(<absl/log/log.h>)
#include_next <absl/log/log.h>
#else
#define LOG(severity) LOG_##severity
#define LOG_FATAL ::tilecheck_xla_shim::Fatal(__FILE__, __LINE__, "Fatal: ")
#endif

#ifndef VLOG
#define VLOG(level) \
  while (false) ::tilecheck_xla_shim::Null()
#endif
#ifndef DVLOG
#define DVLOG(level) VLOG(level)
#endif
