// The JSON Lines messages (conformance/jsonl_protocol.h): base64 both ways,
// replies read into exactly one kind or refused with the reason, the
// handshake's capabilities, a layout's fields.
#include "conformance/jsonl_protocol.h"

#include <gtest/gtest.h>

#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance::jsonl {
namespace {

TEST(Base64, RoundTripsEveryLengthAndRejectsWhatIsNotCanonical) {
  std::vector<uint8_t> bytes;
  for (int n = 0; n < 40; ++n) {
    const std::string text = base64_encode(bytes);
    EXPECT_EQ(text.size() % 4, 0u);
    EXPECT_EQ(base64_decode(text), bytes) << text;
    bytes.push_back(static_cast<uint8_t>(n * 37 + 11));
  }
  EXPECT_EQ(base64_encode(std::vector<uint8_t>{0x66, 0x6f, 0x6f, 0x62}), "Zm9vYg==");
  for (const char* bad : {"Zm9", "Zm9vY===", "Zm=v", "Zm9vYh==", "Zm9v\n", "@@@@", "Zg=a"}) {
    EXPECT_EQ(base64_decode(bad), std::nullopt) << bad;
  }
}

TEST(Replies, EachKindIsReadAndEveryOtherLineIsBroken) {
  const Reply result = read_reply(R"j({"seq": 7, "result": {"bytes": 96}})j", 7);
  EXPECT_EQ(result.kind, Reply::Kind::kResult);
  EXPECT_EQ(result.result["bytes"], 96);
  const Reply skipped = read_reply(R"j({"seq": 7, "skipped": {"message": "no E(n)"}})j", 7);
  EXPECT_EQ(skipped.kind, Reply::Kind::kSkipped);
  EXPECT_EQ(skipped.message, "no E(n)");
  const Reply errored = read_reply(R"j({"errored": {"message": "oops", "context": 1}, "seq": 7})j", 7);
  EXPECT_EQ(errored.kind, Reply::Kind::kErrored);
  EXPECT_EQ(errored.message, "oops");

  const std::pair<const char*, const char*> broken[] = {
      {"", "not JSON"},
      {"{\"seq\": 7, \"result\": 1", "not JSON"},
      {"{\"seq\": 7, \"result\": \"\xff\"}", "ill-formed UTF-8"},
      {"[1, 2]", "not an object"},
      {R"j({"result": 1})j", "without an integer \"seq\""},
      {R"j({"seq": "7", "result": 1})j", "without an integer \"seq\""},
      {R"j({"seq": 8, "result": 1})j", "answered seq 8 to the request with seq 7"},
      {R"j({"seq": 7})j", "exactly one of"},
      {R"j({"seq": 7, "result": 1, "skipped": {"message": ""}})j", "exactly one of"},
      {R"j({"seq": 7, "skipped": "no"})j", "with a string \"message\""},
      {R"j({"seq": 7, "errored": {"message": 3}})j", "with a string \"message\""},
  };
  for (const auto& [line, why] : broken) {
    const Reply r = read_reply(line, 7);
    EXPECT_EQ(r.kind, Reply::Kind::kBroken) << line;
    EXPECT_NE(r.message.find(why), std::string::npos) << line << " -> " << r.message;
    for (char c : r.message) EXPECT_TRUE(c >= 0x20 && c <= 0x7e) << r.message;
  }
}

// Nesting is bounded while the line is read (a deep value would be copied
// and printed recursively), exactly at kMaxReplyNesting; a seq past int64
// is not a seq.
TEST(Replies, DepthAndNumbersAreBounded) {
  const auto nested = [](int levels) {
    return std::string(levels, '[') + std::string(levels, ']');
  };
  // The reply object is level 1 and "result" opens level 2.
  const Reply at_limit = read_reply("{\"seq\": 7, \"result\": " + nested(kMaxReplyNesting - 1) + "}", 7);
  EXPECT_EQ(at_limit.kind, Reply::Kind::kResult) << at_limit.message;
  for (const int levels : {kMaxReplyNesting, 1000000}) {
    const Reply r = read_reply("{\"seq\": 7, \"result\": " + nested(levels) + "}", 7);
    EXPECT_EQ(r.kind, Reply::Kind::kBroken);
    EXPECT_NE(r.message.find("nested more than 64 levels deep"), std::string::npos) << r.message.substr(0, 200);
    EXPECT_LE(r.message.size(), 400u);
  }
  EXPECT_EQ(read_reply(R"j({"seq": 18446744073709551623, "result": 1})j", 7).kind, Reply::Kind::kBroken);
  EXPECT_EQ(as_int64(nlohmann::json::parse("18446744073709551615")), std::nullopt);
  EXPECT_EQ(as_int64(nlohmann::json::parse("9223372036854775807")), INT64_MAX);
  EXPECT_EQ(as_int64(nlohmann::json::parse("-9223372036854775808")), INT64_MIN);
  EXPECT_EQ(as_int64(nlohmann::json::parse("1.0")), std::nullopt);
  EXPECT_EQ(shown_value(nlohmann::json::parse(nested(1000))), "[[[[[...]]]]]");
  EXPECT_EQ(shown_value(nlohmann::json::parse(R"j({"a": [1, "x\u0000"]})j")), R"j({"a":[1,"x\u0000"]})j");
  EXPECT_EQ(shown_value(std::string(1000, 'x')).size(), 123u);  // 120 and "..."
}

TEST(Capabilities, AreReadAndWhatIsUnknownIsAnError) {
  const Capabilities c = read_capabilities(nlohmann::json::parse(R"j({
      "protocol": 1, "name": "mine", "version": "2.0",
      "capabilities": {"operations": ["pack", "byte_size"], "element_types": ["f32", "BF16"],
                       "features": ["sub_tiles"]}})j"));
  EXPECT_EQ(c.name, "mine");
  EXPECT_EQ(c.operations, (std::vector<std::string>{"pack", "byte_size"}));
  EXPECT_EQ(c.element_types, (std::vector<ElementType>{ElementType::kF32, ElementType::kBF16}));
  EXPECT_EQ(c.features, std::vector<std::string>{"sub_tiles"});

  const std::pair<const char*, const char*> bad[] = {
      {R"j({"protocol": 2, "name": "a", "version": "1", "capabilities": {"operations": []}})j",
       "\"protocol\": 1"},
      {R"j({"protocol": 1, "version": "1", "capabilities": {"operations": []}})j", "\"name\""},
      {R"j({"protocol": 1, "name": "a", "version": "1"})j", "\"capabilities\""},
      {R"j({"protocol": 1, "name": "a", "version": "1", "capabilities": {}})j", "\"operations\""},
      {R"j({"protocol": 1, "name": "a", "version": "1", "capabilities": {"operations": ["fly"]}})j",
       "unknown operation 'fly'"},
      {R"j({"protocol": 1, "name": "a", "version": "1",
           "capabilities": {"operations": [], "element_types": ["f33"]}})j",
       "unknown element type 'f33'"},
      {R"j({"protocol": 1, "name": "a", "version": "1",
           "capabilities": {"operations": [], "features": ["warp"]}})j",
       "unknown feature 'warp'"},
  };
  for (const auto& [text, why] : bad) {
    try {
      read_capabilities(nlohmann::json::parse(text));
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
}

TEST(Layouts, CarryTheTextAndTheParsedFields) {
  const nlohmann::json f = layout_fields(parse_shape("s4[16,256]{0,1:T(8,128)(8,1)L(4)E(4)}"));
  EXPECT_EQ(f["text"], "s4[16,256]{0,1:T(8,128)(8,1)L(4)E(4)}");
  EXPECT_EQ(f["element_type"], "s4");
  EXPECT_EQ(f["element_bits"], 4);
  EXPECT_EQ(f["dims"], nlohmann::json::parse("[16, 256]"));
  EXPECT_EQ(f["minor_to_major"], nlohmann::json::parse("[0, 1]"));
  EXPECT_EQ(f["tiles"], nlohmann::json::parse("[[8, 128], [8, 1]]"));
  EXPECT_EQ(f["element_size_bits"], 4);
  EXPECT_EQ(f["tail_padding_alignment"], 4);
  EXPECT_EQ(f["memory_space"], 0);
  EXPECT_EQ(features_of(parse_shape("s4[16,256]{0,1:T(8,128)(8,1)L(4)E(4)}")),
            (std::vector<std::string>{"sub_tiles", "element_size", "tail_padding"}));

  const nlohmann::json g = layout_fields(parse_shape("pred[2,7,8]{2,1,0:T(*,2,4)}"));
  EXPECT_EQ(g["tiles"], nlohmann::json::parse(R"j([["*", 2, 4]])j"));
  EXPECT_EQ(g["element_bits"], 8);  // pred without E(1): a byte (D6)
  EXPECT_TRUE(g["element_size_bits"].is_null());
  EXPECT_EQ(features_of(parse_shape("pred[2,7,8]{2,1,0:T(*,2,4)}")),
            std::vector<std::string>{"combined_dims"});
}

}  // namespace
}  // namespace tilecheck::conformance::jsonl
