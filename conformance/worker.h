// The implementation under test, run in a child process.
//
// ImplWorker forks a child that dlopens the library and answers requests
// over two pipes; the parent (tilecheck) never loads the library itself. So
// whatever the implementation does -- crash, abort, exit, hang, print -- the
// parent sees an answer, a dead child or a timeout, reports it as the
// implementation's failure, and starts a fresh child for the next request.
// The child's stdout and stderr go to a temporary file; the first lines of
// it are part of a crash report (e.g. the sanitizer's or abort's message).
//
// Requests are batched (linear_index takes many elements at once) because a
// round trip costs two context switches; a crash inside a batch is narrowed
// down by the caller, one element at a time.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tilecheck::conformance {

// Which of the three functions the library exports.
struct ImplExports {
  bool linear_index = false, pack = false, byte_size = false;
};

// Why a request got no answer: the child died or did not answer in time.
// `what` is one line ("crashed: killed by signal 6 (SIGABRT)"), `output` the
// first lines the child printed (may be empty).
struct WorkerFailure {
  std::string what;
  std::string output;
};

template <class T>
struct WorkerReply {
  std::optional<T> value;                // set when the child answered
  std::optional<WorkerFailure> failure;  // set when it did not
};

struct IndexAnswer {
  int32_t status = 0;  // the function's return code: 0 ok, else unsupported
  int64_t index = 0;
};

struct SizeAnswer {
  int32_t status = 0;
  int64_t bytes = 0;
};

struct PackAnswer {
  int32_t status = 0;
  std::vector<uint8_t> dst;     // the buffer after the call
  bool wrote_outside = false;   // a guard byte around dst changed
  bool changed_source = false;  // src differs after the call
};

class ImplWorker {
 public:
  // Starts the child and loads the library. Throws Error (exit 2) when the
  // library cannot be loaded or the child dies while loading it.
  ImplWorker(std::string library_path, double timeout_seconds);
  ~ImplWorker();
  ImplWorker(const ImplWorker&) = delete;
  ImplWorker& operator=(const ImplWorker&) = delete;

  const ImplExports& exports() const { return exports_; }

  // `elements` holds count*rank coordinates, element after element.
  WorkerReply<std::vector<IndexAnswer>> linear_index(const std::string& layout, int64_t rank,
                                                     int64_t count,
                                                     std::span<const int64_t> elements);
  WorkerReply<SizeAnswer> byte_size(const std::string& layout);
  WorkerReply<PackAnswer> pack(const std::string& layout, std::span<const uint8_t> src,
                               size_t dst_bytes);

 private:
  void start();  // forks the child; on return it is ready or failed_ is set
  void stop();
  // Sends one request and reads the reply into `reply`; false when the child
  // failed (then failed_ says how and the child is gone).
  bool exchange(const std::vector<uint8_t>& request, std::vector<uint8_t>& reply);
  WorkerFailure collect_failure(const std::string& what);

  std::string path_;
  double timeout_seconds_;
  ImplExports exports_;
  pid_t child_ = -1;
  int to_child_ = -1, from_child_ = -1;
  int output_fd_ = -1;  // the child's stdout and stderr
  std::optional<WorkerFailure> failed_;
};

}  // namespace tilecheck::conformance
