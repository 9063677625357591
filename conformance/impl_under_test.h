// The implementation under test, as the conformance engine sees it.
//
// Two kinds stand behind this one interface and get the same checks, the
// same shrinking and the same report: a shared library with the C entry
// points of tilecheck/conformance_plugin.h, run in a forked child
// (conformance/worker.h), and any program speaking the JSON Lines protocol
// of docs/PROTOCOL.md on its standard input and output
// (conformance/command_worker.h). Either runs in a process of its own, so
// whatever it does -- crash, hang, print garbage -- comes back as a
// WorkerFailure for the request that caused it, and the next request gets a
// fresh process.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {

// The operations the implementation offers (the plugin's exported
// functions, or the operations the command claims in its handshake).
struct ImplExports {
  bool linear_index = false, pack = false, byte_size = false, delinearize = false;
  bool unpack = false, relayout = false, parse = false;
};

// Why a request got no answer: the process died, did not answer in time or
// answered something that is not an answer. `what` is one line ("crashed:
// killed by signal 6 (SIGABRT)"), `output` the first lines the process
// printed (may be empty).
struct WorkerFailure {
  std::string what;
  std::string output;
};

template <class T>
struct WorkerReply {
  std::optional<T> value;                // set when the implementation answered
  std::optional<WorkerFailure> failure;  // set when it did not
};

// `status` 0: answered; nonzero: "this layout is not supported" (skipped).
struct IndexAnswer {
  int32_t status = 0;
  int64_t index = 0;
};

// The element at a position, or none: padding.
struct PositionAnswer {
  int32_t status = 0;
  std::optional<std::vector<int64_t>> element;
};

struct SizeAnswer {
  int32_t status = 0;
  int64_t bytes = 0;
};

// The buffer pack, unpack or relayout wrote.
struct BufferAnswer {
  int32_t status = 0;
  std::vector<uint8_t> dst;     // the buffer written
  bool wrote_outside = false;   // a guard byte around dst changed (plugins only)
  bool changed_source = false;  // src differs after the call (plugins only)
};

// Whether a text is a valid layout, in the implementation's view.
struct ParseAnswer {
  int32_t status = 0;
  bool valid = false;
  std::string message;  // why not, when it says so
};

// The answer of an operation the implementation does not offer.
template <class T>
WorkerReply<T> not_offered(const char* op) {
  return {std::nullopt, WorkerFailure{std::string(op) + " is not offered", ""}};
}

// A word the shell passes through unchanged, quoted only when needed.
std::string shell_quote(const std::string& s);

class ImplUnderTest {
 public:
  virtual ~ImplUnderTest() = default;

  // How reports and reproducing commands name it: "--impl PATH" or
  // "--impl-cmd 'COMMAND'", already quoted for a shell.
  virtual std::string gate_flag() const = 0;
  // What the reports call it: the library's path, or the command with the
  // name and version it gave.
  virtual std::string description() const = 0;
  virtual const ImplExports& exports() const = 0;
  // Why the implementation never gets asked about `shape` (it does not
  // claim its element type or one of its tiling forms, or it answered
  // `claims` for this layout with false), or nullopt when it claims it. Not
  // const: a command may be asked. A plugin claims everything.
  virtual std::optional<std::string> unclaimed(const ShapeWithLayout&) { return {}; }
  // The next request goes to a new process, which has seen no earlier
  // request (to tell a failure that depends on them from one that does not).
  virtual void start_afresh() = 0;
  // How many processes have been started so far: a request that raises it
  // went to a new process, which had seen no earlier request.
  virtual int64_t processes_started() const = 0;

  // `elements` holds count*rank coordinates, element after element.
  virtual WorkerReply<std::vector<IndexAnswer>> linear_index(const ShapeWithLayout& shape,
                                                             int64_t count,
                                                             std::span<const int64_t> elements) = 0;
  virtual WorkerReply<SizeAnswer> byte_size(const ShapeWithLayout& shape) = 0;
  // `src` is the dense array (docs/PROTOCOL.md, "Dense buffers"); the
  // packed buffer must have `dst_bytes` bytes.
  virtual WorkerReply<BufferAnswer> pack(const ShapeWithLayout& shape, std::span<const uint8_t> src,
                                         size_t dst_bytes) = 0;

  // The operations below are called only when exports() offers them.
  virtual WorkerReply<std::vector<PositionAnswer>> delinearize(const ShapeWithLayout&,
                                                               std::span<const int64_t>) {
    return not_offered<std::vector<PositionAnswer>>("delinearize");
  }
  // `src` is a physical buffer, its padding bits random; the dense array
  // must have `dst_bytes` bytes.
  virtual WorkerReply<BufferAnswer> unpack(const ShapeWithLayout&, std::span<const uint8_t>, size_t) {
    return not_offered<BufferAnswer>("unpack");
  }
  // `src` is a physical buffer of `from`, its padding bits random; the
  // buffer of `to` must have `dst_bytes` bytes.
  virtual WorkerReply<BufferAnswer> relayout(const ShapeWithLayout&, const ShapeWithLayout&,
                                             std::span<const uint8_t>, size_t) {
    return not_offered<BufferAnswer>("relayout");
  }
  virtual WorkerReply<ParseAnswer> parse(const std::string&) { return not_offered<ParseAnswer>("parse"); }
};

}  // namespace tilecheck::conformance
