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
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {
namespace {

constexpr double kLoadSeconds = 30;

// The limits of process.h, but no address-space limit under AddressSanitizer:
// the child is a fork of tilecheck, and an ASan process has reserved
// terabytes of shadow memory before the limit could apply.
ProcessLimits plugin_limits(ProcessLimits limits) {
#if defined(__SANITIZE_ADDRESS__)
  limits.address_space_bytes = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  limits.address_space_bytes = 0;
#endif
#endif
  return limits;
}

}  // namespace

ImplWorker::ImplWorker(std::string library_path, double timeout_seconds, ProcessLimits limits)
    : path_(std::move(library_path)), timeout_seconds_(timeout_seconds), limits_(plugin_limits(limits)) {
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
  ++processes_started_;
  failed_.reset();
  const std::string& path = path_;
  const int output_fd = output_fd_;
  child_ = spawn_child(output_fd_, limits_, [&path, output_fd](int request_fd, int reply_fd) {
    // The library's own output goes to the output file.
    if (output_fd >= 0) {
      dup2(output_fd, 1);
      dup2(output_fd, 2);
    }
    serve(path, request_fd, reply_fd);
  });
  std::vector<uint8_t> hello;
  // Loading gets at least kLoadSeconds: a short --timeout is meant for the
  // calls, and fork + dlopen can be slow on a loaded machine.
  const ReadStatus s =
      read_message(child_.from_child, hello, deadline_after(std::max(timeout_seconds_, kLoadSeconds)));
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
  exports_.unpack = in.u8();
  exports_.delinearize = in.u8();
  exports_.relayout = in.u8();
}

void ImplWorker::stop() { kill_child(child_); }

// Called when the child stopped answering: `what` says so for a timeout;
// otherwise the child's exit status does.
WorkerFailure ImplWorker::collect_failure(const std::string& what) {
  WorkerFailure failure;
  if (what.empty()) {
    int status = 0;
    waitpid(child_.pid, &status, 0);
    failure.what = describe_exit(status);
    kill(-child_.pid, SIGKILL);  // what it left behind
    child_.pid = -1;
  } else {
    failure.what = what;
  }
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
  if (child_.pid < 0) start();
  if (failed_) return false;
  ReadStatus s = ReadStatus::kClosed;
  if (send_message(child_.to_child, request)) {
    s = read_message(child_.from_child, reply, deadline_after(timeout_seconds_));
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

std::string ImplWorker::gate_flag() const { return "--impl " + shell_quote(path_); }

WorkerReply<std::vector<IndexAnswer>> ImplWorker::linear_index(const ShapeWithLayout& shape,
                                                               int64_t count,
                                                               std::span<const int64_t> elements) {
  MessageWriter request;
  request.u8(kIndexOp).str(print_shape(shape)).i64(shape.rank()).i64(count);
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

WorkerReply<SizeAnswer> ImplWorker::byte_size(const ShapeWithLayout& shape) {
  std::vector<uint8_t> reply;
  if (!exchange(MessageWriter().u8(kSizeOp).str(print_shape(shape)).payload(), reply)) {
    return no_answer<SizeAnswer>(failed_);
  }
  MessageReader in(reply);
  SizeAnswer a;
  a.status = in.i32();
  a.bytes = in.i64();
  return {a, std::nullopt};
}

WorkerReply<BufferAnswer> ImplWorker::buffer_request(MessageWriter& request,
                                                     std::span<const uint8_t> src, size_t dst_bytes) {
  request.bytes(src.data(), src.size()).i64(static_cast<int64_t>(dst_bytes));
  std::vector<uint8_t> reply;
  if (!exchange(request.payload(), reply)) return no_answer<BufferAnswer>(failed_);
  MessageReader in(reply);
  BufferAnswer a;
  a.status = in.i32();
  a.wrote_outside = in.u8();
  a.changed_source = in.u8();
  a.dst = in.bytes();
  return {a, std::nullopt};
}

WorkerReply<BufferAnswer> ImplWorker::pack(const ShapeWithLayout& shape,
                                           std::span<const uint8_t> src, size_t dst_bytes) {
  MessageWriter request;
  request.u8(kPackOp).str(print_shape(shape));
  return buffer_request(request, src, dst_bytes);
}

WorkerReply<BufferAnswer> ImplWorker::unpack(const ShapeWithLayout& shape,
                                             std::span<const uint8_t> src, size_t dst_bytes) {
  MessageWriter request;
  request.u8(kUnpackOp).str(print_shape(shape));
  return buffer_request(request, src, dst_bytes);
}

WorkerReply<BufferAnswer> ImplWorker::relayout(const ShapeWithLayout& from, const ShapeWithLayout& to,
                                               std::span<const uint8_t> src, size_t dst_bytes) {
  MessageWriter request;
  request.u8(kRelayoutOp).str(print_shape(from)).str(print_shape(to));
  return buffer_request(request, src, dst_bytes);
}

WorkerReply<std::vector<PositionAnswer>> ImplWorker::delinearize(const ShapeWithLayout& shape,
                                                                 std::span<const int64_t> positions) {
  using Answers = std::vector<PositionAnswer>;
  MessageWriter request;
  request.u8(kDelinearizeOp)
      .str(print_shape(shape))
      .i64(shape.rank())
      .i64(static_cast<int64_t>(positions.size()));
  for (int64_t p : positions) request.i64(p);
  std::vector<uint8_t> reply;
  if (!exchange(request.payload(), reply)) return no_answer<Answers>(failed_);
  MessageReader in(reply);
  Answers answers(positions.size());
  for (PositionAnswer& a : answers) {
    a.status = in.i32();
    const bool padding = in.u8();
    std::vector<int64_t> element(static_cast<size_t>(shape.rank()));
    for (int64_t& e : element) e = in.i64();
    if (!padding) a.element = std::move(element);
  }
  return {answers, std::nullopt};
}

}  // namespace tilecheck::conformance
