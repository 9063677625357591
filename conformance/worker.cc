#include "conformance/worker.h"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <sstream>

#include "conformance/child.h"
#include "conformance/protocol.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {
namespace {

constexpr double kLoadSeconds = 30;

Clock::time_point deadline_after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
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

}  // namespace

ImplWorker::ImplWorker(std::string library_path, double timeout_seconds)
    : path_(std::move(library_path)), timeout_seconds_(timeout_seconds) {
  // A relative path without a slash would make dlopen search the system
  // library path; the user means the file here.
  if (path_.find('/') == std::string::npos) path_ = "./" + path_;
  // Writing to a child that just died must be an error code, not a signal.
  signal(SIGPIPE, SIG_IGN);
  output_fd_ = memfd_create("tilecheck-impl-output", MFD_CLOEXEC);
  start();
  if (failed_) {
    throw Error("cannot load '" + path_ + "': the library " + failed_->what +
                (failed_->output.empty() ? "" : "; it printed: " + failed_->output));
  }
  if (!exports_.linear_index) {
    throw Error("'" + path_ +
                "' exports nothing usable: tilecheck_impl_linear_index (required) is missing; "
                "see tilecheck/conformance_plugin.h for the interface");
  }
}

ImplWorker::~ImplWorker() {
  stop();
  if (output_fd_ >= 0) close(output_fd_);
}

void ImplWorker::start() {
  failed_.reset();
  int down[2], up[2];
  if (pipe(down) != 0 || pipe(up) != 0) throw Error("conformance: cannot create a pipe");
  if (output_fd_ >= 0) {
    ftruncate(output_fd_, 0);
    lseek(output_fd_, 0, SEEK_SET);
  }
  std::cout.flush();
  std::cerr.flush();
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw Error("conformance: cannot fork");
  if (pid == 0) {
    close(down[1]);
    close(up[0]);
    if (output_fd_ >= 0) {
      dup2(output_fd_, 1);
      dup2(output_fd_, 2);
    }
    serve(path_, down[0], up[1]);
  }
  close(down[0]);
  close(up[1]);
  child_ = pid;
  to_child_ = down[1];
  from_child_ = up[0];
  std::vector<uint8_t> hello;
  // Loading gets at least kLoadSeconds: a short --timeout is meant for the
  // calls, and fork + dlopen can be slow on a loaded machine.
  const ReadStatus s =
      read_message(from_child_, hello, deadline_after(std::max(timeout_seconds_, kLoadSeconds)));
  if (s != ReadStatus::kOk) {
    failed_ = collect_failure(s == ReadStatus::kTimedOut ? "hung while loading" : "");
    return;
  }
  MessageReader in(hello);
  if (in.u8() == 0) {
    failed_ = WorkerFailure{"cannot be loaded: " + in.str(), ""};
    stop();
    return;
  }
  exports_.linear_index = in.u8();
  exports_.pack = in.u8();
  exports_.byte_size = in.u8();
}

void ImplWorker::stop() {
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
  if (child_ > 0) {
    kill(child_, SIGKILL);
    waitpid(child_, nullptr, 0);
  }
  child_ = -1;
}

// Called when the child stopped answering: `what` says so for a timeout;
// otherwise the child's exit status does.
WorkerFailure ImplWorker::collect_failure(const std::string& what) {
  WorkerFailure failure;
  if (!what.empty()) {
    kill(child_, SIGKILL);
    waitpid(child_, nullptr, 0);
    failure.what = what;
  } else {
    int status = 0;
    waitpid(child_, &status, 0);
    failure.what = describe_exit(status);
  }
  child_ = -1;
  stop();
  // The first few lines the child printed (the abort or sanitizer message).
  if (output_fd_ >= 0) {
    char buffer[4096];
    const ssize_t n = pread(output_fd_, buffer, sizeof buffer, 0);
    std::istringstream lines(std::string(buffer, n > 0 ? static_cast<size_t>(n) : 0));
    std::string line;
    int kept = 0;
    while (kept < 4 && std::getline(lines, line)) {
      if (line.find_first_not_of(" =\t") == std::string::npos) continue;
      failure.output += (kept++ ? " | " : "") + line;
    }
  }
  return failure;
}

bool ImplWorker::exchange(const std::vector<uint8_t>& request, std::vector<uint8_t>& reply) {
  if (child_ < 0) start();
  if (failed_) return false;
  ReadStatus s = ReadStatus::kClosed;
  if (send_message(to_child_, request)) {
    s = read_message(from_child_, reply, deadline_after(timeout_seconds_));
  }
  if (s == ReadStatus::kOk) return true;
  std::ostringstream hung;
  hung << "hung: no answer within " << timeout_seconds_ << " s (killed)";
  failed_ = collect_failure(s == ReadStatus::kTimedOut ? hung.str() : "");
  return false;
}

namespace {

template <class T>
WorkerReply<T> no_answer(const std::optional<WorkerFailure>& failure) {
  return {std::nullopt, failure};
}

}  // namespace

WorkerReply<std::vector<IndexAnswer>> ImplWorker::linear_index(const std::string& layout,
                                                               int64_t rank, int64_t count,
                                                               std::span<const int64_t> elements) {
  MessageWriter request;
  request.u8(kIndexOp).str(layout).i64(rank).i64(count);
  for (int64_t c : elements) request.i64(c);
  std::vector<uint8_t> reply;
  if (!exchange(request.payload(), reply)) return no_answer<std::vector<IndexAnswer>>(failed_);
  MessageReader in(reply);
  std::vector<IndexAnswer> answers(static_cast<size_t>(count));
  for (IndexAnswer& a : answers) {
    a.status = in.i32();
    a.index = in.i64();
  }
  return {answers, std::nullopt};
}

WorkerReply<SizeAnswer> ImplWorker::byte_size(const std::string& layout) {
  std::vector<uint8_t> reply;
  if (!exchange(MessageWriter().u8(kSizeOp).str(layout).payload(), reply)) {
    return no_answer<SizeAnswer>(failed_);
  }
  MessageReader in(reply);
  SizeAnswer a;
  a.status = in.i32();
  a.bytes = in.i64();
  return {a, std::nullopt};
}

WorkerReply<PackAnswer> ImplWorker::pack(const std::string& layout, std::span<const uint8_t> src,
                                         size_t dst_bytes) {
  MessageWriter request;
  request.u8(kPackOp)
      .str(layout)
      .bytes(src.data(), src.size())
      .i64(static_cast<int64_t>(dst_bytes));
  std::vector<uint8_t> reply;
  if (!exchange(request.payload(), reply)) return no_answer<PackAnswer>(failed_);
  MessageReader in(reply);
  PackAnswer a;
  a.status = in.i32();
  a.wrote_outside = in.u8();
  a.changed_source = in.u8();
  a.dst = in.bytes();
  return {a, std::nullopt};
}

}  // namespace tilecheck::conformance
