#include "conformance/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {
namespace {

// The soft limit `value`, the hard one `value + slack` (for RLIMIT_CPU the
// soft limit sends SIGXCPU, which names the cause; the hard one SIGKILL).
void set_limit(int resource, int64_t value, int64_t slack = 0) {
  if (value <= 0) return;
  rlimit r{static_cast<rlim_t>(value), static_cast<rlim_t>(value + slack)};
  setrlimit(resource, &r);
}

}  // namespace

ChildProcess spawn_child(int log_fd, const ProcessLimits& limits,
                         const std::function<void(int request_fd, int reply_fd)>& in_child) {
  int down[2], up[2];
  if (pipe2(down, O_CLOEXEC) != 0) throw Error("conformance: cannot create a pipe");
  if (pipe2(up, O_CLOEXEC) != 0) {
    close(down[0]);
    close(down[1]);
    throw Error("conformance: cannot create a pipe");
  }
  if (log_fd >= 0) {
    ftruncate(log_fd, 0);
    lseek(log_fd, 0, SEEK_SET);
  }
  std::cout.flush();
  std::cerr.flush();
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {down[0], down[1], up[0], up[1]}) close(fd);
    throw Error("conformance: cannot fork");
  }
  if (pid == 0) {
    setsid();
    set_limit(RLIMIT_CPU, limits.cpu_seconds, 2);
    const rlimit no_core{0, 0};  // a crashing implementation leaves no core file behind
    setrlimit(RLIMIT_CORE, &no_core);
    set_limit(RLIMIT_AS, limits.address_space_bytes);
    set_limit(RLIMIT_NOFILE, limits.open_files);
    set_limit(RLIMIT_NPROC, limits.processes);
    close(down[1]);
    close(up[0]);
    in_child(down[0], up[1]);
    _exit(127);
  }
  close(down[0]);
  close(up[1]);
  return {pid, down[1], up[0]};
}

void kill_child(ChildProcess& child) {
  if (child.to_child >= 0) close(child.to_child);
  if (child.from_child >= 0) close(child.from_child);
  if (child.pid > 0) {
    kill(-child.pid, SIGKILL);  // the whole process group
    kill(child.pid, SIGKILL);
    waitpid(child.pid, nullptr, 0);
  }
  child = ChildProcess{};
}

}  // namespace tilecheck::conformance
