#include "peers/command/peer_command.h"

#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <tilecheck/spec/syntax.h>

#include "conformance/jsonl_protocol.h"

namespace tilecheck::peers {
namespace {

using nlohmann::json;
namespace jsonl = conformance::jsonl;

ShapeWithLayout layout_of(const json& request, const char* key) {
  return parse_shape(request.at(key).at("text").get<std::string>());
}

Bytes bytes_of(const json& request, const char* key) {
  auto bytes = jsonl::base64_decode(request.at(key).get<std::string>());
  if (!bytes) throw std::runtime_error(std::string("\"") + key + "\" is not base64");
  return std::move(*bytes);
}

// The layout a request is about, refused when the peer does not claim it
// (the gate never sends one; a request that does is answered "errored").
ShapeWithLayout claimed_layout(const PeerOperations& peer, const json& request, const char* key) {
  ShapeWithLayout shape = layout_of(request, key);
  if (const auto why = peer.unclaimed(shape)) {
    throw std::runtime_error("not claimed: " + print_shape(shape) + ": " + *why);
  }
  return shape;
}

json result_of(const PeerOperations& peer, const json& request) {
  const std::string op = request.at("op");
  if (op == "start") {
    json operations = {"claims"};
    for (const auto& [name, offered] :
         {std::pair{"byte_size", bool(peer.byte_size)}, std::pair{"pack", bool(peer.pack)},
          std::pair{"unpack", bool(peer.unpack)}, std::pair{"relayout", bool(peer.relayout)}}) {
      if (offered) operations.push_back(name);
    }
    return {{"protocol", jsonl::kProtocolVersion},
            {"name", peer.name},
            {"version", peer.version},
            {"capabilities",
             {{"operations", operations}, {"element_types", peer.element_types}, {"features", peer.features}}}};
  }
  if (op == "claims") {
    const auto why = peer.unclaimed(layout_of(request, "layout"));
    return why ? json{{"claimed", false}, {"message", *why}} : json{{"claimed", true}};
  }
  const ShapeWithLayout shape = claimed_layout(peer, request, "layout");
  if (op == "byte_size" && peer.byte_size) return {{"bytes", peer.byte_size(shape)}};
  if (op == "pack" && peer.pack) return {{"packed", jsonl::base64_encode(peer.pack(shape, bytes_of(request, "dense")))}};
  if (op == "unpack" && peer.unpack) {
    return {{"dense", jsonl::base64_encode(peer.unpack(shape, bytes_of(request, "packed")))}};
  }
  if (op == "relayout" && peer.relayout) {
    const ShapeWithLayout to = claimed_layout(peer, request, "to");
    return {{"packed", jsonl::base64_encode(peer.relayout(shape, to, bytes_of(request, "packed")))}};
  }
  throw std::runtime_error("operation '" + op + "' is not offered");
}

}  // namespace

int serve_peer(const PeerOperations& peer, std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    json reply;
    json seq = nullptr;
    try {
      const json request = json::parse(line);
      seq = request.at("seq");
      reply = {{"result", result_of(peer, request)}};
    } catch (const std::exception& e) {  // a request it cannot take, or the peer's own error
      reply = {{"errored", {{"message", e.what()}}}};
    }
    reply["seq"] = seq;
    out << reply.dump() << "\n" << std::flush;
  }
  return 0;
}

int peer_main(int argc, char** argv, const std::function<PeerOperations()>& operations) {
  if (argc != 1) {
    std::cerr << "usage: " << argv[0]
              << " (no arguments): speaks tilecheck's JSON Lines protocol on standard input and output;\n"
                 "run it as: tilecheck gate --impl-cmd "
              << argv[0] << "\n";
    return 2;
  }
  return serve_peer(operations(), std::cin, std::cout);
}

void require_size(const char* what, std::span<const uint8_t> bytes, size_t expected) {
  if (bytes.size() != expected) {
    throw std::runtime_error(std::string(what) + " holds " + std::to_string(bytes.size()) + " bytes, not " +
                             std::to_string(expected));
  }
}

}  // namespace tilecheck::peers
