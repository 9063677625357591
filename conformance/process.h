// The process an implementation under test runs in, for both kinds of
// implementation (conformance/worker.h, conformance/command_worker.h): a
// child in a session and process group of its own, under resource limits,
// connected by two pipes, killed as a whole group.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>

namespace tilecheck::conformance {

// setrlimit limits for every process of the implementation
// (docs/PROTOCOL.md, "Failures and isolation"). 0 leaves a limit as it is.
struct ProcessLimits {
  int64_t cpu_seconds = 3600;                       // RLIMIT_CPU, per process
  int64_t address_space_bytes = int64_t{16} << 30;  // RLIMIT_AS
  int64_t open_files = 256;                         // RLIMIT_NOFILE
  // RLIMIT_NPROC: the processes of the user, counted by the kernel across
  // all of the user's processes; root is exempt (then the process-group
  // kill at a timeout or at the end bounds what it starts).
  int64_t processes = 4096;
};

struct ChildProcess {
  pid_t pid = -1;
  int to_child = -1;    // the parent writes requests here
  int from_child = -1;  // and reads replies here
};

// Empties `log_fd` (when >= 0), flushes the parent's output and forks. The
// child starts a new session, takes `limits`, and calls
// in_child(request_fd, reply_fd), which must not return (it execs or
// _exits); every other descriptor the child inherits is close-on-exec.
// Throws Error when a pipe or the fork cannot be made.
ChildProcess spawn_child(int log_fd, const ProcessLimits& limits,
                         const std::function<void(int request_fd, int reply_fd)>& in_child);

// Closes the pipes, kills the child's whole process group and reaps the
// child; `child` is empty afterwards.
void kill_child(ChildProcess& child);

}  // namespace tilecheck::conformance
