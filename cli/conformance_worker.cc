#include "cli/conformance_worker.h"

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

#include <tilecheck/conformance_plugin.h>
#include "check/buffers.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::cli {
namespace {

// ---------------------------------------------------------------------------
// Messages: a little-endian u64 length, then the payload. Payloads are built
// with MessageWriter and read back with MessageReader, in the same order.

enum Op : uint8_t { kIndexOp = 1, kSizeOp = 2, kPackOp = 3 };

class MessageWriter {
 public:
  MessageWriter& u8(uint8_t v) { return raw(&v, 1); }
  MessageWriter& i32(int32_t v) { return raw(&v, sizeof v); }
  MessageWriter& i64(int64_t v) { return raw(&v, sizeof v); }
  MessageWriter& bytes(const void* data, size_t n) {
    i64(static_cast<int64_t>(n));
    return raw(data, n);
  }
  MessageWriter& str(const std::string& s) { return bytes(s.data(), s.size()); }
  const std::vector<uint8_t>& payload() const { return payload_; }

 private:
  MessageWriter& raw(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    payload_.insert(payload_.end(), p, p + n);
    return *this;
  }
  std::vector<uint8_t> payload_;
};

// Reads what MessageWriter wrote; a short message throws (a protocol bug).
class MessageReader {
 public:
  explicit MessageReader(const std::vector<uint8_t>& payload) : payload_(payload) {}
  uint8_t u8() { return scalar<uint8_t>(); }
  int32_t i32() { return scalar<int32_t>(); }
  int64_t i64() { return scalar<int64_t>(); }
  std::vector<uint8_t> bytes() {
    const size_t n = static_cast<size_t>(i64());
    require(n);
    std::vector<uint8_t> out(payload_.begin() + at_, payload_.begin() + at_ + n);
    at_ += n;
    return out;
  }
  std::string str() {
    const std::vector<uint8_t> b = bytes();
    return {b.begin(), b.end()};
  }
  const uint8_t* take(size_t n) {
    require(n);
    const uint8_t* p = payload_.data() + at_;
    at_ += n;
    return p;
  }

 private:
  template <class T>
  T scalar() {
    T v;
    std::memcpy(&v, take(sizeof v), sizeof v);
    return v;
  }
  void require(size_t n) const {
    if (payload_.size() - at_ < n) throw Error("conformance worker: truncated message");
  }
  const std::vector<uint8_t>& payload_;
  size_t at_ = 0;
};

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

using Clock = std::chrono::steady_clock;
enum class ReadStatus { kOk, kClosed, kTimedOut };

// Reads exactly n bytes; waits at most until `deadline` (none when nullopt).
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

// ---------------------------------------------------------------------------
// The child: load the library, say what it exports, answer until EOF.

struct LoadedImpl {
  tilecheck_impl_linear_index_fn linear_index = nullptr;
  tilecheck_impl_pack_fn pack = nullptr;
  tilecheck_impl_byte_size_fn byte_size = nullptr;
};

std::vector<uint8_t> answer(const LoadedImpl& impl, const std::vector<uint8_t>& request) {
  MessageReader in(request);
  const uint8_t op = in.u8();
  const std::string layout = in.str();
  MessageWriter out;
  switch (op) {
    case kIndexOp: {
      const int64_t rank = in.i64(), count = in.i64();
      const uint8_t* coords = in.take(static_cast<size_t>(rank * count) * sizeof(int64_t));
      // Never a null pointer, even for a scalar's empty element.
      std::vector<int64_t> element(static_cast<size_t>(std::max<int64_t>(rank, 1)));
      for (int64_t k = 0; k < count; ++k) {
        if (rank > 0)
          std::memcpy(element.data(), coords + k * rank * sizeof(int64_t), rank * sizeof(int64_t));
        int64_t index = 0;
        const int status = impl.linear_index(layout.c_str(), rank, element.data(), &index);
        out.i32(status).i64(index);
      }
      break;
    }
    case kSizeOp: {
      int64_t bytes = 0;
      const int status = impl.byte_size(layout.c_str(), &bytes);
      out.i32(status).i64(bytes);
      break;
    }
    case kPackOp: {
      const std::vector<uint8_t> src = in.bytes();
      const std::vector<uint8_t> src_copy = src;
      const size_t dst_bytes = static_cast<size_t>(in.i64());
      // Pre-filled with a nonzero pattern, so padding left unwritten shows.
      check::GuardedBuffer dst(dst_bytes, 0xA5);
      const int status =
          impl.pack(layout.c_str(), src_copy.data(), src_copy.size(), dst.span().data(), dst_bytes);
      const std::vector<uint8_t> after = dst.bytes();
      out.i32(status).u8(!dst.intact()).u8(src_copy != src).bytes(after.data(), after.size());
      break;
    }
    default:
      break;
  }
  return out.payload();
}

[[noreturn]] void serve(const std::string& path, int in_fd, int out_fd) {
  MessageWriter hello;
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    send_message(out_fd, MessageWriter().u8(0).str(why ? why : "dlopen failed").payload());
    _exit(0);
  }
  LoadedImpl impl;
  impl.linear_index = reinterpret_cast<tilecheck_impl_linear_index_fn>(
      dlsym(library, "tilecheck_impl_linear_index"));
  impl.pack = reinterpret_cast<tilecheck_impl_pack_fn>(dlsym(library, "tilecheck_impl_pack"));
  impl.byte_size =
      reinterpret_cast<tilecheck_impl_byte_size_fn>(dlsym(library, "tilecheck_impl_byte_size"));
  hello.u8(1)
      .u8(impl.linear_index != nullptr)
      .u8(impl.pack != nullptr)
      .u8(impl.byte_size != nullptr);
  if (!send_message(out_fd, hello.payload())) _exit(0);
  std::vector<uint8_t> request;
  while (read_message(in_fd, request, std::nullopt) == ReadStatus::kOk) {
    if (!send_message(out_fd, answer(impl, request))) break;
  }
  // _exit: no atexit handlers, no leak check, no flushing the parent's buffers.
  _exit(0);
}

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

}  // namespace tilecheck::cli
