#include "conformance/command_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

#include "conformance/protocol.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {
namespace {

constexpr double kStartSeconds = 30;  // the handshake gets at least this long
// A reply line may hold the payload it answers (base64: 4 bytes per 3) and
// this much more.
constexpr size_t kLineAllowance = size_t{64} << 20;

double seconds_left(Clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - Clock::now()).count();
}

// Writes all of `data` to the non-blocking `fd` before `deadline`: false
// when the pipe is gone or the reader does not take it in time.
bool write_before(int fd, std::string_view data, Clock::time_point deadline, bool& timed_out) {
  timed_out = false;
  while (!data.empty()) {
    const ssize_t w = write(fd, data.data(), data.size());
    if (w > 0) {
      data.remove_prefix(static_cast<size_t>(w));
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno != EAGAIN) return false;
    const double left = seconds_left(deadline);
    if (left <= 0) {
      timed_out = true;
      return false;
    }
    pollfd p{fd, POLLOUT, 0};
    poll(&p, 1, static_cast<int>(std::min(left * 1000 + 1, 1e9)));
  }
  return true;
}


}  // namespace

CommandWorker::CommandWorker(std::string command, double timeout_seconds, ProcessLimits limits)
    : command_(std::move(command)), timeout_seconds_(timeout_seconds), limits_(limits) {
  if (command_.find_first_not_of(" \t") == std::string::npos) {
    throw Error("--impl-cmd: the command is empty");
  }
  signal(SIGPIPE, SIG_IGN);  // writing to a command that died is an error code
  log_fd_ = memfd_create("tilecheck-impl-log", MFD_CLOEXEC);
  start();
  if (failed_) {
    std::string why = failed_->what;
    if (!failed_->output.empty()) why += "; its standard error: " + failed_->output;
    stop();
    if (log_fd_ >= 0) close(log_fd_);
    throw Error("--impl-cmd '" + command_ + "': " + why);
  }
}

CommandWorker::~CommandWorker() {
  stop();
  if (log_fd_ >= 0) close(log_fd_);
}

std::string CommandWorker::gate_flag() const { return "--impl-cmd " + shell_quote(command_); }

std::string CommandWorker::description() const {
  return command_ + " (" + capabilities_.name + " " + capabilities_.version + ")";
}

void CommandWorker::start() {
  ++processes_started_;
  failed_.reset();
  pending_.clear();
  const std::string& command = command_;
  child_ = spawn_child(log_fd_, limits_, [&command, this](int request_fd, int reply_fd) {
    // The command: the pipes as standard input and output, the log as
    // standard error, run by /bin/sh.
    dup2(request_fd, 0);
    dup2(reply_fd, 1);
    if (log_fd_ >= 0) dup2(log_fd_, 2);
    signal(SIGPIPE, SIG_DFL);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    const char msg[] = "tilecheck: cannot run /bin/sh\n";
    write(2, msg, sizeof msg - 1);
    _exit(127);
  });
  fcntl(child_.to_child, F_SETFL, fcntl(child_.to_child, F_GETFL) | O_NONBLOCK);

  // The handshake, with at least kStartSeconds: starting an interpreter on
  // a loaded machine can be slow, and --timeout is meant for the requests.
  const Outcome o = request("start", {{"protocol", jsonl::kProtocolVersion}}, 0,
                            std::max(timeout_seconds_, kStartSeconds));
  if (o.failure) {
    failed_ = o.failure;
    failed_->what = "no answer to start: " + failed_->what;
    return;
  }
  if (o.reply->kind != jsonl::Reply::Kind::kResult) {
    failed_ = fail("answered start with \"" +
                   std::string(o.reply->kind == jsonl::Reply::Kind::kSkipped ? "skipped"
                                                                             : "errored") +
                   "\": " + o.reply->message);
    return;
  }
  try {
    capabilities_ = jsonl::read_capabilities(o.reply->result);
  } catch (const Error& e) {
    failed_ = fail(e.what());
    return;
  }
  const auto offers = [&](const char* op) {
    return std::find(capabilities_.operations.begin(), capabilities_.operations.end(), op) !=
           capabilities_.operations.end();
  };
  exports_.linear_index = offers("linear_index");
  exports_.pack = offers("pack");
  exports_.byte_size = offers("byte_size");
  exports_.delinearize = offers("delinearize");
  exports_.unpack = offers("unpack");
  exports_.relayout = offers("relayout");
  exports_.parse = offers("parse");
  asks_claims_ = offers("claims");
}

void CommandWorker::stop() { kill_child(child_); }

// The command stopped answering as it should: `what` says how, unless it is
// empty, when the command's exit status does. The group is gone afterwards.
WorkerFailure CommandWorker::fail(const std::string& what) {
  WorkerFailure failure{what, ""};
  if (what.empty() && child_.pid > 0) {
    // It closed its output: give it a moment to exit and report how.
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 100 && done == 0; ++i) {
      done = waitpid(child_.pid, &status, WNOHANG);
      if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (done == child_.pid) {
      failure.what = describe_exit(status);
      // /bin/sh reports a command killed by signal N as status 128 + N.
      if (WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 65) {
        const int sig = WEXITSTATUS(status) - 128;
        const char* abbrev = sigabbrev_np(sig);
        failure.what += " (the shell's way of saying: killed by signal " + std::to_string(sig) +
                        " (SIG" + (abbrev ? abbrev : "?") + "))";
      }
      kill(-child_.pid, SIGKILL);  // what it left behind
      child_.pid = -1;
    } else {
      failure.what = "closed its standard output without exiting (killed)";
    }
  }
  stop();
  failure.output = log_head();
  return failure;
}

// The last lines the command wrote to its standard error, joined by " | ".
std::string CommandWorker::log_head() const {
  if (log_fd_ < 0) return "";
  const off_t size = lseek(log_fd_, 0, SEEK_END);
  if (size <= 0) return "";
  char buffer[4096];
  const off_t from = std::max<off_t>(0, size - static_cast<off_t>(sizeof buffer));
  const ssize_t n = pread(log_fd_, buffer, sizeof buffer, from);
  std::istringstream lines(std::string(buffer, n > 0 ? static_cast<size_t>(n) : 0));
  std::vector<std::string> kept;
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" =\t\r") == std::string::npos) continue;
    for (char& c : line) {
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    }
    kept.push_back(line.substr(0, 200));
  }
  std::string out;
  for (size_t i = kept.size() > 4 ? kept.size() - 4 : 0; i < kept.size(); ++i) {
    out += (out.empty() ? "" : " | ") + kept[i];
  }
  return out;
}

CommandWorker::LineStatus CommandWorker::read_line(std::string& line, double seconds,
                                                   size_t max_bytes) {
  const Clock::time_point deadline = deadline_after(seconds);
  size_t scanned = 0;
  while (true) {
    const size_t newline = pending_.find('\n', scanned);
    if (newline != std::string::npos) {
      line = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      return LineStatus::kOk;
    }
    scanned = pending_.size();
    if (pending_.size() > max_bytes) return LineStatus::kTooLong;
    const double left = seconds_left(deadline);
    if (left <= 0) return LineStatus::kTimedOut;
    pollfd p{child_.from_child, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min(left * 1000 + 1, 1e9)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline decides
    char buffer[1 << 16];
    const ssize_t n = read(child_.from_child, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return LineStatus::kClosed;
    pending_.append(buffer, static_cast<size_t>(n));
  }
}

CommandWorker::Outcome CommandWorker::request(const std::string& op, nlohmann::json fields,
                                              size_t expected_bytes,
                                              std::optional<double> timeout_seconds) {
  const double timeout = timeout_seconds.value_or(timeout_seconds_);
  if (claims_failure_) {
    Outcome o{std::nullopt, std::move(claims_failure_)};
    claims_failure_.reset();
    return o;
  }
  if (child_.pid < 0) start();
  if (failed_) return {std::nullopt, failed_};
  const int64_t seq = seq_++;
  fields["seq"] = seq;
  fields["op"] = op;
  const std::string line = fields.dump() + "\n";
  std::ostringstream hung;
  hung << "hung: no answer within " << timeout << " s (killed)";
  bool timed_out = false;
  if (!write_before(child_.to_child, line, deadline_after(timeout), timed_out)) {
    failed_ = fail(timed_out ? hung.str() + " while it was sent the request" : "");
    return {std::nullopt, failed_};
  }
  std::string answer;
  const size_t max_bytes = kLineAllowance + expected_bytes / 3 * 4 + 4;
  switch (read_line(answer, timeout, max_bytes)) {
    case LineStatus::kOk: break;
    case LineStatus::kTimedOut: failed_ = fail(hung.str()); return {std::nullopt, failed_};
    case LineStatus::kClosed: failed_ = fail(""); return {std::nullopt, failed_};
    case LineStatus::kTooLong:
      failed_ = fail("answered a line longer than " + std::to_string(max_bytes) +
                     " bytes (killed)");
      return {std::nullopt, failed_};
  }
  jsonl::Reply reply = jsonl::read_reply(answer, seq);
  if (reply.kind == jsonl::Reply::Kind::kBroken) {
    failed_ = fail(reply.message);
    return {std::nullopt, failed_};
  }
  return {std::move(reply), std::nullopt};
}

namespace {

// A reply that is `errored`, or a result without the expected field, as a
// failure of the request.
template <class T>
WorkerReply<T> failed_reply(std::string what) {
  return {std::nullopt, WorkerFailure{std::move(what), ""}};
}

std::string errored(const jsonl::Reply& r) { return "errored: " + r.message; }

// The answer to a request whose outcome `o` is not a result: its failure,
// `skipped_answer` for "skipped", or "errored" as a failure; nullopt for a
// result, which the caller reads.
template <class T, class Outcome>
std::optional<WorkerReply<T>> unless_result(const Outcome& o, T skipped_answer) {
  if (o.failure) return WorkerReply<T>{std::nullopt, o.failure};
  if (o.reply->kind == jsonl::Reply::Kind::kSkipped) {
    return WorkerReply<T>{std::move(skipped_answer), std::nullopt};
  }
  if (o.reply->kind == jsonl::Reply::Kind::kErrored) return failed_reply<T>(errored(*o.reply));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CommandWorker::unclaimed(const ShapeWithLayout& shape) {
  if (const auto& types = capabilities_.element_types) {
    if (std::find(types->begin(), types->end(), shape.type) == types->end()) {
      return "element type " + std::string(element_type_name(shape.type)) + " is not claimed";
    }
  }
  if (const auto& features = capabilities_.features) {
    for (const std::string& f : jsonl::features_of(shape)) {
      if (std::find(features->begin(), features->end(), f) == features->end()) {
        return "feature " + f + " is not claimed";
      }
    }
  }
  if (!asks_claims_) return std::nullopt;
  const std::string text = print_shape(shape);
  if (const auto it = claims_.find(text); it != claims_.end()) return it->second;
  if (claims_failure_) return std::nullopt;  // the next request reports the last one first
  const Outcome o = request("claims", {{"layout", jsonl::layout_fields(shape)}});
  if (o.failure) {
    claims_failure_ = o.failure;
  } else if (o.reply->kind == jsonl::Reply::Kind::kSkipped) {
    return claims_[text] = "answered claims with skipped: " + o.reply->message;
  } else if (o.reply->kind == jsonl::Reply::Kind::kErrored) {
    claims_failure_ = WorkerFailure{errored(*o.reply), ""};
  } else if (const auto claim = jsonl::read_claim(o.reply->result); !claim) {
    claims_failure_ = WorkerFailure{"a result without a boolean \"claimed\"", ""};
  } else {
    return claims_[text] = claim->claimed ? std::nullopt : std::optional<std::string>("not claimed: " + claim->message);
  }
  // A failed answer: the layout counts as claimed, and the next request,
  // which is about it, reports the failure.
  claims_failure_->what = "asked whether it claims " + text + ": " + claims_failure_->what;
  return std::nullopt;
}


template <class Answer>
std::optional<WorkerReply<std::vector<Answer>>> CommandWorker::batch_reply(
    const Outcome& o, const char* key, const std::string& entries, size_t count,
    const nlohmann::json** list) {
  using Answers = std::vector<Answer>;
  Answers skipped(count);
  for (Answer& a : skipped) a.status = 1;
  if (auto other = unless_result<Answers>(o, std::move(skipped))) return other;
  const nlohmann::json& r = o.reply->result;
  const auto it = r.is_object() ? r.find(key) : r.end();
  if (it == r.end() || !it->is_array() || it->size() != count) {
    return failed_reply<Answers>("answered without \"" + std::string(key) + "\", a list of " +
                                 std::to_string(count) + " " + entries);
  }
  *list = &*it;
  return std::nullopt;
}

WorkerReply<std::vector<IndexAnswer>> CommandWorker::linear_index(
    const ShapeWithLayout& shape, int64_t count, std::span<const int64_t> elements) {
  using Answers = std::vector<IndexAnswer>;
  nlohmann::json list = nlohmann::json::array();
  const size_t rank = static_cast<size_t>(shape.rank());
  for (int64_t k = 0; k < count; ++k) {
    list.push_back(std::vector<int64_t>(elements.begin() + static_cast<ptrdiff_t>(k * rank),
                                        elements.begin() + static_cast<ptrdiff_t>((k + 1) * rank)));
  }
  const Outcome o = request("linear_index", {{"layout", jsonl::layout_fields(shape)},
                                             {"elements", std::move(list)}});
  const nlohmann::json* it = nullptr;
  if (auto other = batch_reply<IndexAnswer>(o, "indices", "integers", count, &it)) return *other;
  Answers answers(static_cast<size_t>(count));
  for (size_t k = 0; k < answers.size(); ++k) {
    const std::optional<int64_t> index = jsonl::as_int64((*it)[k]);
    if (!index) {
      return failed_reply<Answers>("answered linear_index with an index that is not an int64 integer: " +
                                   jsonl::shown_value((*it)[k]));
    }
    answers[k].index = *index;
  }
  return {answers, std::nullopt};
}

WorkerReply<std::vector<PositionAnswer>> CommandWorker::delinearize(
    const ShapeWithLayout& shape, std::span<const int64_t> positions) {
  using Answers = std::vector<PositionAnswer>;
  const Outcome o =
      request("delinearize", {{"layout", jsonl::layout_fields(shape)},
                              {"positions", std::vector<int64_t>(positions.begin(), positions.end())}});
  const nlohmann::json* it = nullptr;
  if (auto other = batch_reply<PositionAnswer>(o, "elements",
                                               "elements (lists of coordinates) or nulls",
                                               positions.size(), &it)) {
    return *other;
  }
  Answers answers(positions.size());
  for (size_t k = 0; k < answers.size(); ++k) {
    const nlohmann::json& e = (*it)[k];
    if (e.is_null()) continue;  // padding
    bool ok = e.is_array();
    std::vector<int64_t> element;
    for (size_t i = 0; ok && i < e.size(); ++i) {
      const std::optional<int64_t> coordinate = jsonl::as_int64(e[i]);
      ok = coordinate.has_value();
      if (ok) element.push_back(*coordinate);
    }
    if (!ok) {
      return failed_reply<Answers>(
          "answered delinearize with an element that is not a list of int64 integers or null: " +
          jsonl::shown_value(e));
    }
    answers[k].element = std::move(element);
  }
  return {answers, std::nullopt};
}

WorkerReply<SizeAnswer> CommandWorker::byte_size(const ShapeWithLayout& shape) {
  const Outcome o = request("byte_size", {{"layout", jsonl::layout_fields(shape)}});
  if (auto other = unless_result<SizeAnswer>(o, SizeAnswer{1, 0})) return *other;
  const nlohmann::json& r = o.reply->result;
  const auto it = r.is_object() ? r.find("bytes") : r.end();
  const std::optional<int64_t> bytes = it == r.end() ? std::nullopt : jsonl::as_int64(*it);
  if (!bytes) {
    return failed_reply<SizeAnswer>("answered byte_size without \"bytes\", an int64 integer" +
                                    (it == r.end() ? std::string() : ": " + jsonl::shown_value(*it)));
  }
  return {SizeAnswer{0, *bytes}, std::nullopt};
}

WorkerReply<BufferAnswer> CommandWorker::buffer_request(const std::string& op, nlohmann::json fields,
                                                        const char* key, size_t dst_bytes) {
  const Outcome o = request(op, std::move(fields), dst_bytes);
  BufferAnswer skipped;
  skipped.status = 1;
  if (auto other = unless_result<BufferAnswer>(o, skipped)) return *other;
  BufferAnswer a;
  const nlohmann::json& r = o.reply->result;
  const auto it = r.is_object() ? r.find(key) : r.end();
  if (it == r.end() || !it->is_string()) {
    return failed_reply<BufferAnswer>("answered " + op + " without \"" + key +
                                      "\", a base64 string");
  }
  std::optional<std::vector<uint8_t>> bytes = jsonl::base64_decode(it->get<std::string>());
  if (!bytes) {
    return failed_reply<BufferAnswer>("answered " + op + " with \"" + key +
                                      "\" that is not base64");
  }
  a.dst = std::move(*bytes);
  return {a, std::nullopt};
}

WorkerReply<BufferAnswer> CommandWorker::pack(const ShapeWithLayout& shape,
                                              std::span<const uint8_t> src, size_t dst_bytes) {
  return buffer_request(
      "pack", {{"layout", jsonl::layout_fields(shape)}, {"dense", jsonl::base64_encode(src)}},
      "packed", dst_bytes);
}

WorkerReply<BufferAnswer> CommandWorker::unpack(const ShapeWithLayout& shape,
                                                std::span<const uint8_t> src, size_t dst_bytes) {
  return buffer_request(
      "unpack", {{"layout", jsonl::layout_fields(shape)}, {"packed", jsonl::base64_encode(src)}},
      "dense", dst_bytes);
}

WorkerReply<BufferAnswer> CommandWorker::relayout(const ShapeWithLayout& from,
                                                  const ShapeWithLayout& to,
                                                  std::span<const uint8_t> src, size_t dst_bytes) {
  return buffer_request("relayout",
                        {{"layout", jsonl::layout_fields(from)},
                         {"to", jsonl::layout_fields(to)},
                         {"packed", jsonl::base64_encode(src)}},
                        "packed", dst_bytes);
}

WorkerReply<ParseAnswer> CommandWorker::parse(const std::string& text) {
  const Outcome o = request("parse", {{"text", text}});
  ParseAnswer skipped;
  skipped.status = 1;
  if (auto other = unless_result<ParseAnswer>(o, skipped)) return *other;
  ParseAnswer a;
  const nlohmann::json& r = o.reply->result;
  const auto valid = r.is_object() ? r.find("valid") : r.end();
  if (valid == r.end() || !valid->is_boolean()) {
    return failed_reply<ParseAnswer>("answered parse without \"valid\", true or false");
  }
  a.valid = valid->get<bool>();
  const auto message = r.find("message");
  if (message != r.end() && message->is_string()) a.message = message->get<std::string>().substr(0, 200);
  return {a, std::nullopt};
}

}  // namespace tilecheck::conformance
