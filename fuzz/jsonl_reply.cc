// Fuzz target jsonl_reply: arbitrary bytes as a reply line of an
// implementation under `tilecheck gate --impl-cmd` (docs/PROTOCOL.md) ->
// jsonl::read_reply, and its result as the answer to `start` ->
// jsonl::read_capabilities; the same bytes as base64 -> base64_decode.
//
// Contract checked, for every input: nothing the implementation writes
// makes tilecheck crash, throw anything but tilecheck::Error, or trip a
// sanitizer; a broken line's reason is one printable ASCII line; a reply
// with the wrong seq is never read as an answer; base64 that decodes
// encodes back to the same text (only canonical base64 is accepted).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "conformance/jsonl_protocol.h"
#include "fuzz/check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilecheck;
  using conformance::jsonl::Reply;
  FuzzedDataProvider input(data, size);
  const int64_t seq = input.ConsumeIntegralInRange<int64_t>(0, 9);
  const std::string line = input.ConsumeRemainingBytesAsString();

  const Reply reply = conformance::jsonl::read_reply(line, seq);
  if (reply.kind == Reply::Kind::kBroken) {
    for (char c : reply.message) {
      FUZZ_CHECK(c >= 0x20 && c <= 0x7e, "a reason that is not printable ASCII: " << reply.message);
    }
  } else {
    const nlohmann::json j = nlohmann::json::parse(line);  // it parsed once already
    FUZZ_CHECK(j.at("seq") == seq, "a reply to another seq was read as an answer");
  }
  if (reply.kind == Reply::Kind::kResult) {
    try {
      conformance::jsonl::read_capabilities(reply.result);
    } catch (const Error&) {
      // what is wrong with it, said
    }
  }
  if (const auto bytes = conformance::jsonl::base64_decode(line)) {
    FUZZ_CHECK(conformance::jsonl::base64_encode(*bytes) == line,
               "base64 that is not canonical was accepted: " << line);
  }
  return 0;
}
