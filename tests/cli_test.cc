// Runs the built `tilecheck` binary (and the test-only faulty_tilecheck) and
// checks what every command prints and its exit code: 0 ok, 1 a check
// failed, 2 bad input or usage with a message on stderr starting "error:".
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <tilecheck/spec/catalog.h>
#include "tests/run_tilecheck.h"
#include "tests/text_match.h"

namespace {

using tilecheck::cli_testing::expect_ok;
using tilecheck::cli_testing::full_match;
using tilecheck::cli_testing::Output;
using tilecheck::cli_testing::read_file;
using tilecheck::cli_testing::run_binary;
using tilecheck::cli_testing::tilecheck;

const std::string kFigure1 = "f32[3,5]{1,0:T(2,2)}";
const std::string kFigure2 = "f32[4,8]{1,0:T(2,4)(2,1)}";
const std::string kCombined = "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}";
const std::string kLarge = "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}";

std::string last_line(const std::string& text) {
  const size_t end = text.find_last_not_of('\n');
  const size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

TEST(Index, Figure1ElementTwoThreeIsSeventeen) {
  const Output r = tilecheck({"index", kFigure1, "2,3"});
  expect_ok(r);
  EXPECT_EQ(r.out, "17\n");
  EXPECT_EQ(tilecheck({"index", kFigure1, "(2, 3)"}).out, "17\n");
  EXPECT_EQ(tilecheck({"index", kFigure2, "3,5"}).out, "27\n");
  EXPECT_EQ(tilecheck({"index", "f32[]{:T(128)}", ""}).out, "0\n");
}

TEST(Index, Json) {
  const Output r = tilecheck({"index", "--json", kFigure1, "2,3"});
  expect_ok(r);
  EXPECT_EQ(nlohmann::json::parse(r.out), (nlohmann::json{{"index", 17}, {"byte", 68}, {"bit", 0}}));
}

// Sub-byte widths: the byte and bits of the element, in index and explain.
TEST(Index, SubByteElementsSayTheirByteAndBits) {
  const char* s4 = "s4[16,256]{1,0:T(8,128)(8,1)E(4)}";
  EXPECT_EQ(tilecheck({"index", s4, "3,5"}).out, "43 (byte 21, bits 4-7)\n");
  EXPECT_EQ(nlohmann::json::parse(tilecheck({"index", "--json", s4, "3,5"}).out),
            (nlohmann::json{{"index", 43}, {"byte", 21}, {"bit", 4}}));
  EXPECT_EQ(tilecheck({"index", "pred[3,5]{1,0:T(2,2)E(1)}", "1,4"}).out, "10 (byte 1, bit 2)\n");
  EXPECT_EQ(tilecheck({"index", "s16[2]{0:E(12)}", "1"}).out,
            "1 (bytes 1-2, from bit 4 of the first to bit 7 of the last)\n");
  const Output explain = tilecheck({"explain", s4, "3,5"});
  EXPECT_EQ(last_line(explain.out), "  in the buffer: byte 21, bits 4-7") << explain.out;
}

TEST(Delinearize, ElementAndPadding) {
  expect_ok(tilecheck({"delinearize", kFigure1, "17"}));
  EXPECT_EQ(tilecheck({"delinearize", kFigure1, "17"}).out, "2,3\n");
  EXPECT_EQ(tilecheck({"delinearize", kFigure1, "9"}).out, "padding\n");
  // L(32) pads the count from 24 to 32: the tail is padding.
  EXPECT_EQ(tilecheck({"delinearize", "f32[3,5]{1,0:T(2,2)L(32)}", "31"}).out, "padding\n");
}

TEST(Delinearize, Json) {
  EXPECT_EQ(nlohmann::json::parse(tilecheck({"delinearize", "--json", kFigure1, "17"}).out),
            nlohmann::json::parse(R"({"padding": false, "element": [2,3]})"));
  EXPECT_EQ(nlohmann::json::parse(tilecheck({"delinearize", kFigure1, "9", "--json"}).out),
            nlohmann::json::parse(R"({"padding": true})"));
}

TEST(Size, Text) {
  const Output r = tilecheck({"size", kFigure1});
  expect_ok(r);
  EXPECT_EQ(r.out,
            "elements         15\n"
            "padded elements  24 (9 padding)\n"
            "bytes            96 (32 bits per element)\n"
            "tiled shape      (2,3,2,2)\n");
}

TEST(Size, Json) {
  const nlohmann::json j = nlohmann::json::parse(tilecheck({"size", "--json", kFigure1}).out);
  EXPECT_EQ(j["elements"], 15);
  EXPECT_EQ(j["padded_elements"], 24);
  EXPECT_EQ(j["bytes"], 96);
  EXPECT_EQ(j["tiled_shape"], nlohmann::json::parse("[2,3,2,2]"));
  const nlohmann::json large = nlohmann::json::parse(tilecheck({"size", "--json", kLarge}).out);
  EXPECT_EQ(large["bytes"], 28311552);
  EXPECT_EQ(large["element_bits"], 4);
  const nlohmann::json small =
      nlohmann::json::parse(tilecheck({"size", "--json", "f32[28,1,1]{2,1,0:T(2,128)}"}).out);
  EXPECT_EQ(small["padded_elements"], 7168);
  EXPECT_EQ(small["bytes"], 28672);
}

TEST(Size, XlaModelSaysWhyTheSizesDiffer) {
  const Output r = tilecheck({"size", "--model", "xla", "u2[6,10]{1,0:T(4,4)}"});
  expect_ok(r);
  EXPECT_NE(r.out.find("bytes            24 (2 bits per element)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("XLA ArraySize    96\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("XLA ByteSizeOf   60 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("why: XLA stores u2 without E(n) at one byte per element"),
            std::string::npos)
      << r.out;
  // --json always has both models.
  const nlohmann::json j =
      nlohmann::json::parse(tilecheck({"size", "--json", "f32[]{:T(1)(2)}"}).out);
  EXPECT_EQ(j["bytes"], 8);
  EXPECT_EQ(j["xla_array_size"], 4);
  EXPECT_EQ(j["xla_differs"], true);
  ASSERT_EQ(j["xla_reasons"].size(), 1u);
  // A split array: no exact size, XLA's all the same.
  const nlohmann::json split = nlohmann::json::parse(
      tilecheck({"size", "--json", "f32[150,200]{1,0:T(8,128)SC(1:100)}"}).out);
  EXPECT_TRUE(split["bytes"].is_null());
  EXPECT_EQ(split["xla_array_size"], 77824);
}

TEST(Size, TupleArrayByArray) {
  const nlohmann::json j = nlohmann::json::parse(
      tilecheck({"size", "--json", "(f32[2]{0}, (s32[], token[]), /*index=2*/u2[6,10]{1,0:T(4,4)})"})
          .out);
  ASSERT_EQ(j["leaves"].size(), 3u);
  EXPECT_EQ(j["leaves"][2]["path"], nlohmann::json::parse("[2]"));
  EXPECT_EQ(j["leaves"][2]["shape"], "u2[6,10]{1,0:T(4,4)}");
  EXPECT_EQ(j["bytes"], 8 + 4 + 24);
  EXPECT_EQ(j["xla_array_size"], 8 + 4 + 96);
  EXPECT_EQ(j["xla_byte_size_of"], 24);  // the tuple's index table: 3 pointers
  const Output leaf = tilecheck({"index", "--leaf", "1,0", "(f32[2]{0}, (s32[8]{0:T(4)}, token[]))", "5"});
  expect_ok(leaf);
  EXPECT_EQ(leaf.out, "5\n");
}

TEST(Check, ExitsOneOnWhatXlaRejects) {
  const Output bad = tilecheck({"check", "pred[8]{0:E(4)}"});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.out.find("error   E(4): E(n) on pred"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("invalid for XLA (1 error, 0 warnings)"), std::string::npos) << bad.out;
  const Output warned = tilecheck({"check", "f32[3]{0:T(2,128)}"});
  EXPECT_EQ(warned.exit_code, 0) << warned.err;
  EXPECT_NE(warned.out.find("valid for XLA (0 errors, 1 warning)"), std::string::npos) << warned.out;
  const nlohmann::json j = nlohmann::json::parse(tilecheck({"check", "--json", kLarge}).out);
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["problems"].size(), 0u);
}

TEST(Explain, Figure1AsTheDocumentWritesIt) {
  const Output r = tilecheck({"explain", kFigure1, "2,3"});
  expect_ok(r);
  EXPECT_EQ(r.out,
            "element (2,3) of f32[3,5]{1,0:T(2,2)}\n"
            "physical order (minor_to_major 1,0): element (2,3), bounds (3,5)\n"
            "level 1: tile (2,2) on element (2,3), bounds (3,5)\n"
            "  tile index         floor((2,3) / (2,2)) = (1,1)\n"
            "  within-tile index  (2,3) mod (2,2) = (0,1)\n"
            "  combined vector    (1,1,0,1), bounds (ceil((3,5) / (2,2)), (2,2)) = (2,3,2,2)\n"
            "linear_index((1,1,0,1), (2,3,2,2))\n"
            "  = linear_index((1,1), (2,3)) * 2*2 + linear_index((0,1), (2,2))\n"
            "  = (1*3 + 1) * 2*2 + (0*2 + 1)\n"
            "  = 17\n");
}

TEST(Explain, CombinedDimsAndTwoLevels) {
  const Output combined = tilecheck({"explain", kCombined, "1,6,7,10,9"});
  expect_ok(combined);
  EXPECT_NE(combined.out.find("combine (D4, '*')  dims 0..2: index (1*7 + 6)*8 + 7 = 111, "
                              "bound 2*7*8 = 112\n"),
            std::string::npos)
      << combined.out;
  EXPECT_NE(combined.out.find("dims 3..4: index 10*10 + 9 = 109, bound 11*10 = 110\n"),
            std::string::npos);
  EXPECT_EQ(last_line(combined.out), "  = " + tilecheck({"index", kCombined, "1,6,7,10,9"}).out.substr(0, 5));
  const Output two = tilecheck({"explain", kFigure2, "3,5"});
  EXPECT_NE(two.out.find("level 2: tile (2,1) on element (1,1,1,1), bounds (2,2,2,4)\n"),
            std::string::npos)
      << two.out;
  EXPECT_EQ(last_line(two.out), "  = 27");
  const Output extended = tilecheck({"explain", "f32[3]{0:T(2,128)}", "2"});
  EXPECT_NE(extended.out.find("extend (D3)"), std::string::npos) << extended.out;
}

// explain's result is the index for every catalogue layout's last element.
TEST(Explain, AgreesWithIndexOnTheCatalogue) {
  for (const tilecheck::CatalogEntry& entry : tilecheck::catalog()) {
    const std::string layout(entry.layout);
    const nlohmann::json size = nlohmann::json::parse(tilecheck({"size", "--json", layout}).out);
    if (size["elements"] == 0) continue;
    const std::string dims = layout.substr(layout.find('[') + 1, layout.find(']') - layout.find('[') - 1);
    std::string last;
    std::stringstream in(dims);
    for (std::string d; std::getline(in, d, ',');) {
      if (!last.empty()) last += ',';
      last += std::to_string(std::stoll(d) - 1);
    }
    const Output explain = tilecheck({"explain", "--json", layout, last});
    expect_ok(explain);
    const Output index = tilecheck({"index", "--json", layout, last});
    EXPECT_EQ(nlohmann::json::parse(explain.out)["index"], nlohmann::json::parse(index.out)["index"])
        << layout;
  }
}

TEST(Draw, Figure1) {
  const Output r = tilecheck({"draw", kFigure1});
  expect_ok(r);
  EXPECT_EQ(r.out,
            "f32[3,5]{1,0:T(2,2)}: 15 elements in 24 positions (9 padding), tiled shape (2,3,2,2)\n"
            "\n"
            "linear index of each element (rows: dim 0, columns: dim 1):\n"
            "      0  1  2  3  4\n"
            "  0:  0  1  4  5  8\n"
            "  1:  2  3  6  7 10\n"
            "  2: 12 13 16 17 20\n"
            "\n"
            "memory order (the element stored at each position, '.' for padding):\n"
            "   0: 0,0 0,1 1,0 1,1 0,2 0,3 1,2 1,3 0,4   . 1,4   .\n"
            "  12: 2,0 2,1   .   . 2,2 2,3   .   . 2,4   .   .   .\n");
}

TEST(Draw, Figure2Grid) {
  const Output r = tilecheck({"draw", kFigure2});
  expect_ok(r);
  EXPECT_NE(r.out.find("  0:  0  2  4  6  8 10 12 14\n"
                       "  1:  1  3  5  7  9 11 13 15\n"
                       "  2: 16 18 20 22 24 26 28 30\n"
                       "  3: 17 19 21 23 25 27 29 31\n"),
            std::string::npos)
      << r.out;
}

TEST(Draw, RankThreeSaysWhichSliceAndLargeLayoutsAreCut) {
  const Output rank3 = tilecheck({"draw", "bf16[2,3,4]{2,1,0:T(2,2)}"});
  expect_ok(rank3);
  EXPECT_NE(rank3.out.find("(rows: dim 1, columns: dim 2; dims 0..0 at index 0)"),
            std::string::npos)
      << rank3.out;
  const Output large = tilecheck({"draw", "f32[130,9]{0,1:T(8,128)}", "--max-rows", "4"});
  expect_ok(large);
  EXPECT_NE(large.out.find("(showing 4 of 130 rows, 4 of 9 columns; raise --max-rows"),
            std::string::npos)
      << large.out;
  EXPECT_NE(large.out.find("(showing positions 0..63 of 4096;"), std::string::npos) << large.out;
  // A leading dim of 0: the slice at index 0 of it holds no element.
  for (const char* empty : {"f32[0,2,3]{2,1,0}", "s4[0,4611686018427387904,3]{0,1,2:T(8,128)(8,1)E(4)}"}) {
    const Output r = tilecheck({"draw", empty});
    expect_ok(r);
    EXPECT_NE(r.out.find("  (no elements)\n"), std::string::npos) << r.out;
    const std::string svg = testing::TempDir() + "empty_leading_dim.svg";
    expect_ok(tilecheck({"draw", empty, "--svg", svg}));
    std::remove(svg.c_str());
  }
}

// Bad input: exit 2, nothing on stdout, one message on stderr starting "error:".
TEST(Errors, BadInputExitsTwoWithAMessage) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"index", "f32[3,5]{1,0:T(2,2)", "2,3"}, "expected '}'"},
      {{"index", "f99[3,5]", "2,3"}, "unknown element type"},
      {{"size", "f32[3,5]{1,0:T(0,2)}"}, "tile entry 0"},
      {{"size", "f32[3,5]{0,0}"}, "minor_to_major"},
      {{"size", "f32[?,5]"}, "symbolic"},
      {{"size", "f32[99999999999,99999999999]{1,0:T(8,128)}"}, "overflow"},
      {{"index", kFigure1, "2,x"}, "'x' is not an integer"},
      {{"index", kFigure1, "3,0"}, "out of bounds"},
      {{"index", kFigure1, "-1,0"}, "out of bounds"},
      {{"index", kFigure1, "1"}, "has rank 2"},
      {{"index", kFigure1, "99999999999999999999,0"}, "does not fit in int64"},
      {{"explain", kFigure1, "2,5"}, "out of bounds"},
      {{"delinearize", kFigure1, "24"}, "outside [0, 24)"},
      {{"delinearize", kFigure1, "-1"}, "outside [0, 24)"},
      {{"delinearize", kFigure1, "1x"}, "not an integer"},
      {{"draw", "f32[3,5]{1,0:T(*)}"}, "'*'"},
      {{"gate", "--layout", "f32[3,5]{1,0:T(2,2)}x"}, "column"},
      // Usage errors from CLI11 follow the same rule.
      {{}, "subcommand is required"},
      {{"frobnicate"}, "unknown command 'frobnicate'"},
      {{"index", kFigure1}, "E is required"},
      {{"size", "--bogus", kFigure1}, "--bogus"},
      {{"gate", "--samples", "0"}, "--samples"},
      // XLA's constructs: what no mapping models, sparse layouts, tuples.
      {{"index", "f32[8]{0:T(4)SC(0:4)}", "1"}, "not supported: split configs (SC)"},
      {{"size", "f32[8]{0:D(C)}"}, "sparse layouts are not supported"},
      {{"index", "(f32[2]{0}, s32[])", "1"}, "choose one of its arrays with --leaf"},
      {{"index", "--leaf", "2", "(f32[2]{0}, s32[])", "1"}, "its arrays are at 0 1"},
      {{"size", "--model", "tpu", kFigure1}, "--model"},
      {{"check", "f32[3]{0:SC(0:1)S(1)}"}, "column 17: property S(..) is out of order"},
      {{"gate", "--size-model", "other"}, "--size-model"},
  };
  for (const auto& [args, message] : cases) {
    const Output r = tilecheck(args);
    std::string shown;
    for (const std::string& a : args) shown += a + " ";
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_EQ(r.out, "") << shown;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << shown << "\n" << r.err;
  }
}

TEST(Help, ExitsZero) {
  const Output r = tilecheck({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("gate"), std::string::npos);
  const Output list = tilecheck({"gate", "--list"});
  expect_ok(list);
  for (const char* check : {"formulas_agree", "bijection", "pack_round_trip"}) {
    EXPECT_NE(list.out.find(std::string(check) + " "), std::string::npos) << list.out;
  }
}

const char kSummary[] = R"(gate: (\d+) layouts, (\d+) checks, (\d+) passed, (\d+) failed(, (\d+) skipped)?)";

TEST(Gate, TheCataloguePasses) {
  // Every check of the main job but `proofs`, the properties at 10 cases
  // each (their own ctests run them at 100, and under ASan the gate's
  // default doubles this test's time). `proofs` proves the obligations that
  // proofs_test proves one by one (Catalog.EveryLayoutIsProvedForSymbolicDims,
  // NoOverflow.CatalogueWithItsDimsIsProved, FastDiv.EveryShiftTheCodeChoosesIsProved):
  // 40 s of Z3 under the sanitizers, twice.
  const Output list = tilecheck({"gate", "--list"});
  expect_ok(list);
  std::vector<std::string> args = {"gate", "--cases", "10"};
  std::istringstream lines(list.out);
  bool proofs_listed = false;
  for (std::string line; std::getline(lines, line);) {
    const std::string name = line.substr(0, line.find(' '));
    if (name == "proofs") {
      proofs_listed = true;
    } else {
      args.insert(args.end(), {"--check", name});
    }
  }
  EXPECT_TRUE(proofs_listed) << list.out;
  EXPECT_GT(args.size(), 3u + 2 * 10) << list.out;
  const Output r = tilecheck(args);
  expect_ok(r);
  std::vector<std::string> m;
  const std::string summary = last_line(r.out);
  ASSERT_TRUE(full_match(summary, kSummary, &m)) << summary;
  EXPECT_EQ(std::stoul(m[1]), tilecheck::catalog().size());
  EXPECT_EQ(m[2], m[3]) << "every check passed";
  EXPECT_EQ(m[4], "0");
  EXPECT_GE(std::stoul(m[2]), 3 * tilecheck::catalog().size());
  EXPECT_NE(r.out.find("doc_figure1  "), std::string::npos);
}

TEST(Gate, JsonOnGivenLayouts) {
  const Output r = tilecheck({"gate", "--json", "--layout", kFigure1, "--layout", kFigure2,
                              "--check", "bijection", "--check", "formulas_agree"});
  expect_ok(r);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["summary"]["layouts"], 2);
  EXPECT_EQ(j["summary"]["failed"], 0);
  EXPECT_EQ(j["layouts"][0]["layout"], kFigure1);
  bool bijection = false;
  for (const nlohmann::json& c : j["layouts"][0]["checks"]) {
    EXPECT_EQ(c["status"], "passed") << c.dump();
    if (c["check"] == "bijection") {
      bijection = true;
      EXPECT_EQ(c["detail"], "15 elements onto 24 positions (9 padding), exhaustive");
      EXPECT_EQ(c["checked"], 39);
    }
  }
  EXPECT_TRUE(bijection);
}

TEST(Gate, LargeLayoutIsSampledAndPackSkipped) {
  // Only the checks this test is about: the suite checks (properties, proofs)
  // do not look at --layout and are covered by TheCataloguePasses.
  const std::vector<std::string> checks = {"--check", "bijection", "--check", "pack_round_trip",
                                           "--check", "impl_pack"};
  std::vector<std::string> args = {"gate", "--json", "--samples", "300", "--layout", kLarge};
  args.insert(args.end(), checks.begin(), checks.end());
  const Output r = tilecheck(args);
  expect_ok(r);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["summary"]["skipped"], 2);  // pack_round_trip and impl_pack
  for (const nlohmann::json& c : j["layouts"][0]["checks"]) {
    if (c["check"] == "bijection") {
      EXPECT_EQ(c["detail"], "elements and positions sampled 300 and the edges (seed 1)");
    }
    if (c["check"] == "pack_round_trip" || c["check"] == "impl_pack") {
      EXPECT_EQ(c["status"], "skipped");
    }
  }
  args.erase(args.begin() + 1);  // the table instead of --json
  EXPECT_NE(last_line(tilecheck(args).out).find(", 2 skipped"), std::string::npos);
}

TEST(Gate, CheckSelectsChecksByName) {
  const Output r = tilecheck({"gate", "--layout", kFigure1, "--check", "bijection"});
  expect_ok(r);
  EXPECT_EQ(last_line(r.out), "gate: 1 layouts, 1 checks, 1 passed, 0 failed");
  const Output bad = tilecheck({"gate", "--check", "no_such_check"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err, "error: no gate check is named 'no_such_check'; 'tilecheck gate --list' lists them\n");
}

// The same gate with one check over a deliberately broken index: exit 1, the
// failure spelled out under its layout, counted in the summary.
TEST(Gate, FailsWhenACheckFails) {
  for (const std::string limit : {"65536", "0"}) {  // exhaustive, then sampled
    const Output r = run_binary(FAULTY_TILECHECK_BINARY,
                             {"gate", "--exhaustive-limit", limit, "--layout", kFigure1,
                              "--check", "broken_index_bijection", "--check", "bijection"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("FAILED broken_index_bijection: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("FAIL "), std::string::npos) << r.out;
    std::vector<std::string> m;
    const std::string summary = last_line(r.out);
    ASSERT_TRUE(full_match(summary, kSummary, &m)) << summary;
    EXPECT_EQ(m[1], "1");
    EXPECT_EQ(std::stoi(m[3]), std::stoi(m[2]) - 1);
    EXPECT_EQ(m[4], "1");
  }
  const Output json = run_binary(FAULTY_TILECHECK_BINARY, {"gate", "--json", "--layout", kFigure1,
                                                          "--check", "broken_index_bijection"});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(json.out)["ok"], false);
}

}  // namespace
