// A third-party implementation as a command under the gate: the JSON Lines
// protocol (docs/PROTOCOL.md) answered with a peer's operations. Each
// peer's command (tilecheck-onednn-impl, ...) fills a PeerOperations with
// its adapter's functions and calls serve_peer; this file holds what they
// share: reading requests, the layouts' texts, base64, the answer to
// `start`, and turning an exception into "errored".
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::peers {

using Bytes = std::vector<uint8_t>;

struct PeerOperations {
  std::string name, version;                  // the answer to start
  std::vector<std::string> element_types;     // the types it may claim (XLA names)
  std::vector<std::string> features;          // the tiling forms it may claim (docs/PROTOCOL.md)
  // Why the peer cannot take `shape` (one sentence), or nullopt: the
  // answer to `claims`.
  std::function<std::optional<std::string>(const ShapeWithLayout&)> unclaimed;
  // Each operation may be empty (not offered). They are called only with a
  // claimed layout, and throw std::exception when the input is not what
  // they take (a buffer of the wrong size): the reply is then "errored".
  std::function<int64_t(const ShapeWithLayout&)> byte_size;
  std::function<Bytes(const ShapeWithLayout&, std::span<const uint8_t> dense)> pack;
  std::function<Bytes(const ShapeWithLayout&, std::span<const uint8_t> physical)> unpack;
  std::function<Bytes(const ShapeWithLayout& from, const ShapeWithLayout& to, std::span<const uint8_t> physical)>
      relayout;
};

// Answers request lines from `in` on `out`, one reply line each, until `in`
// ends. Returns the process's exit status (0).
int serve_peer(const PeerOperations& peer, std::istream& in, std::ostream& out);

// A peer command's whole main: with no arguments, serve_peer on standard
// input and output with what `operations` returns; with any, a usage line
// and exit status 2.
int peer_main(int argc, char** argv, const std::function<PeerOperations()>& operations);

// The exception for a buffer of the wrong size, for the operations above.
void require_size(const char* what, std::span<const uint8_t> bytes, size_t expected);

}  // namespace tilecheck::peers
