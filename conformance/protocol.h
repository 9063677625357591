// The wire protocol between tilecheck and the child process that runs an
// implementation under test (conformance/worker.h).
//
// Messages: a little-endian u64 length, then the payload. Payloads are built
// with MessageWriter and read back with MessageReader, in the same order.
// The child's first message says whether the library loaded and which
// functions it exports; then every request (an Op, the layout text, the
// operands) gets one reply (the function's status and results).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {

enum Op : uint8_t {
  kIndexOp = 1,
  kSizeOp = 2,
  kPackOp = 3,
  kUnpackOp = 4,
  kDelinearizeOp = 5,
  kRelayoutOp = 6,
};

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

using Clock = std::chrono::steady_clock;

// The time `seconds` from now.
inline Clock::time_point deadline_after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}
enum class ReadStatus { kOk, kClosed, kTimedOut };

// Writes all n bytes (retrying short writes); false when the pipe is gone.
bool write_all(int fd, const void* data, size_t n);
bool send_message(int fd, const std::vector<uint8_t>& payload);
// Reads exactly n bytes; waits at most until `deadline` (none when nullopt).
ReadStatus read_exact(int fd, void* data, size_t n, std::optional<Clock::time_point> deadline);
ReadStatus read_message(int fd, std::vector<uint8_t>& payload,
                        std::optional<Clock::time_point> deadline);

// How a child process that stopped in the middle of a call ended, from
// waitpid's status, in one line: "crashed: killed by signal 6 (SIGABRT)".
std::string describe_exit(int wait_status);

}  // namespace tilecheck::conformance
