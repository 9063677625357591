#include "conformance/protocol.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace tilecheck::conformance {

bool write_all(int fd, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool send_message(int fd, const std::vector<uint8_t>& payload) {
  const int64_t n = static_cast<int64_t>(payload.size());
  return write_all(fd, &n, sizeof n) && write_all(fd, payload.data(), payload.size());
}

ReadStatus read_exact(int fd, void* data, size_t n, std::optional<Clock::time_point> deadline) {
  auto* p = static_cast<uint8_t*>(data);
  while (n > 0) {
    if (deadline) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
      if (left.count() <= 0) return ReadStatus::kTimedOut;
      pollfd pfd{fd, POLLIN, 0};
      const int ready =
          poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count() + 1, 1 << 30)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) continue;  // the deadline check above decides
    }
    const ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return ReadStatus::kClosed;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return ReadStatus::kOk;
}

ReadStatus read_message(int fd, std::vector<uint8_t>& payload,
                        std::optional<Clock::time_point> deadline) {
  int64_t n = 0;
  if (ReadStatus s = read_exact(fd, &n, sizeof n, deadline); s != ReadStatus::kOk) return s;
  if (n < 0 || n > (int64_t{1} << 40)) return ReadStatus::kClosed;
  payload.resize(static_cast<size_t>(n));
  return read_exact(fd, payload.data(), payload.size(), deadline);
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* abbrev = sigabbrev_np(sig);
    return "crashed: killed by signal " + std::to_string(sig) + " (SIG" + (abbrev ? abbrev : "?") +
           ")";
  }
  if (WIFEXITED(status)) {
    return "crashed: the process exited with status " + std::to_string(WEXITSTATUS(status)) +
           " in the middle of a call";
  }
  return "crashed";
}

}  // namespace tilecheck::conformance
