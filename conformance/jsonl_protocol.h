// The JSON Lines protocol between tilecheck and an implementation under
// test that runs as a command (docs/PROTOCOL.md states it for implementers;
// conformance/command_worker.h runs the process). This file holds the
// messages only: building requests, and reading a reply line into exactly
// one of a result, `skipped` or `errored` -- or the reason it is none of
// them. Nothing a reply line holds can make these functions fail other than
// by returning that reason.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::conformance::jsonl {

inline constexpr int kProtocolVersion = 1;

// The layout of a request: its XLA text and its parsed fields
// (docs/PROTOCOL.md, "Layouts").
nlohmann::json layout_fields(const ShapeWithLayout& shape);

std::string base64_encode(std::span<const uint8_t> bytes);
// nullopt when `text` is not canonical base64 (RFC 4648, with padding).
std::optional<std::vector<uint8_t>> base64_decode(std::string_view text);

// One reply, read.
struct Reply {
  enum class Kind { kResult, kSkipped, kErrored, kBroken };
  Kind kind = Kind::kBroken;
  nlohmann::json result;  // kResult: the "result" value
  std::string message;    // kSkipped, kErrored: the implementation's message;
                          // kBroken: what is wrong with the line
};

// How deep a reply may nest, the reply object being level 1; no answer of
// the protocol nests past 4.
inline constexpr int kMaxReplyNesting = 64;

// Reads one reply line (without its newline) to the request `seq`.
Reply read_reply(std::string_view line, int64_t seq);

// A reply's number as int64: nullopt unless it is an integer that fits
// (not a float, not an unsigned past 2^63 - 1).
std::optional<int64_t> as_int64(const nlohmann::json& value);
// A reply's value for a message: JSON text of at most 120 printable ASCII
// characters, anything nested past 4 levels as [...] or {...}, so a hostile
// value (a million levels deep, megabytes long) prints short and without
// deep recursion.
std::string shown_value(const nlohmann::json& value);

// What the implementation claims in its answer to `start`
// (docs/PROTOCOL.md, "Capabilities").
struct Capabilities {
  std::string name, version;
  std::vector<std::string> operations;
  std::optional<std::vector<ElementType>> element_types;  // nullopt: every type
  std::optional<std::vector<std::string>> features;       // nullopt: every feature
};

// Reads the result of `start`; throws Error naming what is wrong.
Capabilities read_capabilities(const nlohmann::json& result);

// The result of `claims`: whether the implementation claims the layout,
// and why not when it does not (its "message", possibly empty); nullopt
// when the result has no boolean "claimed" or a "message" that is not a
// string.
struct Claim {
  bool claimed = false;
  std::string message;
};
std::optional<Claim> read_claim(const nlohmann::json& result);

// The tiling features a layout uses, by their protocol names:
// "sub_tiles", "combined_dims", "element_size", "tail_padding".
std::vector<std::string> features_of(const ShapeWithLayout& shape);
inline const std::vector<std::string>& all_features() {
  static const std::vector<std::string> names = {"sub_tiles", "combined_dims", "element_size",
                                                 "tail_padding"};
  return names;
}
// The operations of protocol version 1 (`claims` is asked of a layout
// before any other, when offered).
inline const std::vector<std::string>& all_operations() {
  static const std::vector<std::string> names = {"byte_size", "linear_index", "delinearize", "pack",
                                                 "unpack",    "relayout",     "parse",       "claims"};
  return names;
}

}  // namespace tilecheck::conformance::jsonl
