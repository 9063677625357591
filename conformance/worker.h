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

#include "conformance/impl_under_test.h"
#include "conformance/process.h"
#include "conformance/protocol.h"

namespace tilecheck::conformance {

class ImplWorker : public ImplUnderTest {
 public:
  // Starts the child and loads the library. Throws Error (exit 2) when the
  // library cannot be loaded or the child dies while loading it.
  ImplWorker(std::string library_path, double timeout_seconds, ProcessLimits limits = {});
  ~ImplWorker();
  ImplWorker(const ImplWorker&) = delete;
  ImplWorker& operator=(const ImplWorker&) = delete;

  std::string gate_flag() const override;
  std::string description() const override { return path_; }
  const ImplExports& exports() const override { return exports_; }
  void start_afresh() override { stop(); }
  int64_t processes_started() const override { return processes_started_; }

  WorkerReply<std::vector<IndexAnswer>> linear_index(const ShapeWithLayout& shape, int64_t count,
                                                     std::span<const int64_t> elements) override;
  WorkerReply<SizeAnswer> byte_size(const ShapeWithLayout& shape) override;
  WorkerReply<BufferAnswer> pack(const ShapeWithLayout& shape, std::span<const uint8_t> src,
                                 size_t dst_bytes) override;
  WorkerReply<BufferAnswer> unpack(const ShapeWithLayout& shape, std::span<const uint8_t> src,
                                   size_t dst_bytes) override;
  WorkerReply<BufferAnswer> relayout(const ShapeWithLayout& from, const ShapeWithLayout& to,
                                     std::span<const uint8_t> src, size_t dst_bytes) override;
  WorkerReply<std::vector<PositionAnswer>> delinearize(const ShapeWithLayout& shape,
                                                       std::span<const int64_t> positions) override;

 private:
  void start();  // forks the child; on return it is ready or failed_ is set
  void stop();
  // Sends one request and reads the reply into `reply`; false when the child
  // failed (then failed_ says how and the child is gone).
  bool exchange(const std::vector<uint8_t>& request, std::vector<uint8_t>& reply);
  // pack, unpack or relayout: `request` holds the op and layout texts.
  WorkerReply<BufferAnswer> buffer_request(MessageWriter& request, std::span<const uint8_t> src,
                                           size_t dst_bytes);
  WorkerFailure collect_failure(const std::string& what);

  std::string path_;
  double timeout_seconds_;
  ImplExports exports_;
  ChildProcess child_;
  int64_t processes_started_ = 0;
  ProcessLimits limits_;
  int output_fd_ = -1;  // the child's stdout and stderr
  std::optional<WorkerFailure> failed_;
};

}  // namespace tilecheck::conformance
