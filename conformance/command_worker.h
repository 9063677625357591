// An implementation under test that is a program: `tilecheck gate
// --impl-cmd 'COMMAND ARGS'` runs COMMAND with /bin/sh and speaks the JSON
// Lines protocol of docs/PROTOCOL.md over its standard input and output; its
// standard error is its log, kept in memory, whose first lines go into a
// failure's report.
//
// The command runs in a session and process group of its own, under
// resource limits (ProcessLimits), and is killed as a whole group when it
// times out, breaks the protocol, or the check ends; so no implementation
// can outlive the gate. After a failure the next request starts it afresh
// and sends `start` again.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <string>

#include "conformance/impl_under_test.h"
#include "conformance/jsonl_protocol.h"
#include "conformance/process.h"

namespace tilecheck::conformance {

class CommandWorker : public ImplUnderTest {
 public:
  // Starts the command and reads its answer to `start`. Throws Error (exit 2)
  // when it cannot be started or its answer to `start` is not one.
  CommandWorker(std::string command, double timeout_seconds, ProcessLimits limits = {});
  ~CommandWorker() override;
  CommandWorker(const CommandWorker&) = delete;
  CommandWorker& operator=(const CommandWorker&) = delete;

  std::string gate_flag() const override;
  std::string description() const override;
  const ImplExports& exports() const override { return exports_; }
  std::optional<std::string> unclaimed(const ShapeWithLayout& shape) override;
  void start_afresh() override { stop(); }
  int64_t processes_started() const override { return processes_started_; }

  WorkerReply<std::vector<IndexAnswer>> linear_index(const ShapeWithLayout& shape, int64_t count,
                                                     std::span<const int64_t> elements) override;
  WorkerReply<SizeAnswer> byte_size(const ShapeWithLayout& shape) override;
  WorkerReply<std::vector<PositionAnswer>> delinearize(const ShapeWithLayout& shape,
                                                       std::span<const int64_t> positions) override;
  WorkerReply<BufferAnswer> pack(const ShapeWithLayout& shape, std::span<const uint8_t> src,
                                 size_t dst_bytes) override;
  WorkerReply<BufferAnswer> unpack(const ShapeWithLayout& shape, std::span<const uint8_t> src,
                                   size_t dst_bytes) override;
  WorkerReply<BufferAnswer> relayout(const ShapeWithLayout& from, const ShapeWithLayout& to,
                                     std::span<const uint8_t> src, size_t dst_bytes) override;
  WorkerReply<ParseAnswer> parse(const std::string& text) override;

 private:
  // The outcome of one request: a reply read (result, skipped or errored),
  // or a failure (then the process group is gone).
  struct Outcome {
    std::optional<jsonl::Reply> reply;
    std::optional<WorkerFailure> failure;
  };
  // Waits --timeout seconds for the reply, or `timeout_seconds` when given.
  Outcome request(const std::string& op, nlohmann::json fields, size_t expected_bytes = 0,
                  std::optional<double> timeout_seconds = std::nullopt);
  // pack, unpack or relayout: the buffer in the result's base64 `key`.
  WorkerReply<BufferAnswer> buffer_request(const std::string& op, nlohmann::json fields,
                                           const char* key, size_t dst_bytes);
  // A batched request's reply: its result's list `key` of `count` entries
  // (then `list` points to it), or what to return instead: the failure,
  // every answer skipped, errored, or a result without that list.
  template <class Answer>
  static std::optional<WorkerReply<std::vector<Answer>>> batch_reply(
      const Outcome& o, const char* key, const std::string& entries, size_t count,
      const nlohmann::json** list);

  void start();  // spawns the command and does the handshake; failed_ set on failure
  void stop();   // kills the process group and reaps the command
  enum class LineStatus { kOk, kClosed, kTimedOut, kTooLong };
  LineStatus read_line(std::string& line, double seconds, size_t max_bytes);
  WorkerFailure fail(const std::string& what);
  std::string log_head() const;

  std::string command_;
  double timeout_seconds_;
  ProcessLimits limits_;
  jsonl::Capabilities capabilities_;
  ImplExports exports_;
  ChildProcess child_;
  int64_t processes_started_ = 0;
  int log_fd_ = -1;      // the command's standard error
  std::string pending_;  // bytes read past the last line
  int64_t seq_ = 0;
  std::optional<WorkerFailure> failed_;
  // The answers to `claims`, by layout text: nullopt when claimed, else why
  // not. A `claims` request that failed is not kept here: its failure waits
  // in claims_failure_ and is the answer to the next request, so that the
  // case about that layout reports it.
  bool asks_claims_ = false;  // it offers the operation `claims`
  std::map<std::string, std::optional<std::string>> claims_;
  std::optional<WorkerFailure> claims_failure_;
};

}  // namespace tilecheck::conformance
