// The child side of conformance/worker.h: load the implementation's library,
// say which functions it exports, answer requests until the pipe closes.
// Runs only in the forked child; never returns.
#pragma once

#include <string>

namespace tilecheck::conformance {

[[noreturn]] void serve(const std::string& library_path, int in_fd, int out_fd);

}  // namespace tilecheck::conformance
