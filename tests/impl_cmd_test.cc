// `tilecheck gate --impl-cmd`, the JSON Lines front end of the conformance
// engine (docs/PROTOCOL.md), run as a user runs it: the Python example of
// examples/python passes, each of its deliberately broken variants is caught
// with a minimal counterexample that reproduces, and an implementation that
// crashes, exits, hangs (with a child of its own), or answers garbage, text
// that is not UTF-8, the wrong seq or "errored" is reported with the
// request that caused it while tilecheck goes on with the other operations.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <tilecheck/gen/reach.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include "tests/run_tilecheck.h"
#include "tests/text_match.h"

namespace {

using tilecheck::cli_testing::Output;
using tilecheck::cli_testing::read_file;
using tilecheck::cli_testing::still_running;
using tilecheck::cli_testing::tilecheck;
using tilecheck::cli_testing::with_fewer_positions;
using tilecheck::cli_testing::search;

const std::string kExample = std::string(PYTHON3) + " " + PYTHON_EXAMPLE;

// Five generated layouts after the catalogue, no reach set or size set,
// and fewer positions checked one by one (1,024, then 256 sampled): these
// tests are about the command front end (faults, flags, reports), which the
// catalogue exercises; the generated TPU layouts are large, and each costs
// the checker (built with the sanitizers here) seconds. The reach set, the
// size set and the default positions have tests of their own.
Output gate_cmd(const std::string& command, std::vector<std::string> more = {}) {
  std::vector<std::string> args =
      with_fewer_positions({"gate", "--impl-cmd", command, "--cases", "5", "--no-reach-set", "--no-size-set"});
  args.insert(args.end(), more.begin(), more.end());
  return tilecheck(args);
}

bool passed(const Output& r, const std::string& op) {
  return search(r.out, "\\n" + op + " +passed ");
}

// The report's count of layouts never sent because they are not claimed
// (0 when it has no such line).
int not_claimed(const Output& r) {
  std::vector<std::string> m;
  return search(r.out, "\\nnot claimed by the implementation \\(never sent\\): ([0-9]+) ", &m) ? std::stoi(m[1]) : 0;
}

std::string after(const std::string& text, const std::string& label) {
  std::vector<std::string> m;
  return search(text, "\\n *" + label + " +([^\\n]*)", &m) ? m[1] : "";
}

// The example implementations, through both front ends: the Python one and
// the C++ one as commands (--impl-cmd ... --bug NAME), and the C++ one as a
// plugin (--impl libtilecheck_example_impl_NAME.so).
struct FrontEnd {
  const char* id;  // the test's name
  const char* name;
  std::vector<std::string> (*flags)(const std::string& bug);  // "" = correct
};
const FrontEnd kFrontEnds[] = {
    {"PythonCmd", "python --impl-cmd",
     [](const std::string& bug) -> std::vector<std::string> {
       return {"--impl-cmd", kExample + (bug.empty() ? "" : " --bug " + bug)};
     }},
    // Built with the project's flags, AddressSanitizer in this build: its
    // shadow memory needs the address space unlimited (docs/PROTOCOL.md).
    {"CppCmd", "c++ --impl-cmd",
     [](const std::string& bug) -> std::vector<std::string> {
       return {"--impl-cmd", std::string(EXAMPLE_IMPL_CMD) + (bug.empty() ? "" : " --bug " + bug),
               "--limit", "memory=0"};
     }},
    {"CppPlugin", "c++ --impl",
     [](const std::string& bug) -> std::vector<std::string> {
       return {"--impl", std::string(EXAMPLE_IMPL_DIR) + "/libtilecheck_example_impl" +
                             (bug.empty() ? "" : "_" + bug) + ".so"};
     }},
};

Output gate_with(std::vector<std::string> flags, std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"gate"};
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), {"--cases", "20"});
  args.insert(args.end(), more.begin(), more.end());
  return tilecheck(args);
}

class BothFrontEnds : public testing::TestWithParam<FrontEnd> {};

TEST_P(BothFrontEnds, TheExamplesPassEveryOperationTheyOffer) {
  const FrontEnd& f = GetParam();
  {
    // The Python command's run is the default one but for the size set,
    // which the Python example passes in docs/GATE.md's example (label
    // docs). The C++ command's run over the reach set and the size set is
    // TheDefaultRunHasNoCoverageHoles; the library's, with fewer positions,
    // Conformance.TheCorrectExamplePassesEveryFunction: both share
    // example_impl.h, so the library's run here checks its front end.
    std::vector<std::string> more = {"--no-size-set"};
    if (std::string(f.id) == "CppCmd") more = {"--no-reach-set", "--no-size-set"};
    if (std::string(f.id) == "CppPlugin") more = with_fewer_positions({"--no-reach-set", "--no-size-set"});
    const Output r = gate_with(f.flags(""), more);
    EXPECT_EQ(r.exit_code, 0) << f.name << r.out << r.err;
    for (const char* op : {"linear_index", "pack", "byte_size", "delinearize", "unpack", "relayout"}) {
      EXPECT_TRUE(passed(r, op)) << f.name << " " << op << r.out;
    }
    EXPECT_NE(r.out.find("\nconformance: passed\n"), std::string::npos) << f.name << r.out;
    if (std::string(f.name) == "c++ --impl-cmd") {
      EXPECT_TRUE(passed(r, "parse")) << r.out;
    }
    if (std::string(f.name) == "python --impl-cmd") {
      EXPECT_NE(r.out.find("(tiled_layout_impl.py 1.0) to the spec\n"), std::string::npos) << r.out;
    }
  }
}

TEST_P(BothFrontEnds, EachBrokenVariantIsCaughtWithAMinimalCaseThatReproduces) {
  struct Case {
    const char* bug;
    const char* failed;          // the FAILED line's operation and problem
    const char* minimal_layout;  // the shrunk layout
  };
  const Case cases[] = {
      {"nibble_order", "pack: wrong packed bytes", "s4[]"},
      {"first_tile_size", "byte_size: wrong byte size", "f32[]{:T(1)(2)}"},
      {"ignore_minor_to_major", "linear_index: wrong linear index", "f32[2,2]{0,1}"},
      {"nonzero_padding", "pack: wrong packed bytes", "f32[]{:T(2)}"},
      {"delinearize_off_by_one", "delinearize: wrong delinearize", "f32[1]{0:T(2)}"},
  };
  // Layouts that show each bug (4-bit values, a second tile that pads, a
  // transposed minor-to-major, padding, a ragged edge); the whole catalogue
  // is the passing test's.
  const std::vector<std::string> layouts = {
      "--layout", "s4[16,256]{1,0:T(8,128)(8,1)E(4)}", "--layout", "f32[3,5]{1,0:T(2,2)(3,1)}",
      "--layout", "f32[3,5]{0,1:T(2,2)}",               "--layout", "f32[3,5]{1,0:T(2,2)}"};
  const FrontEnd& f = GetParam();
  {
    for (const Case& c : cases) {
      const std::string what = std::string(f.name) + " --bug " + c.bug;
      const Output r = gate_with(f.flags(c.bug), layouts);
      EXPECT_EQ(r.exit_code, 1) << what << r.out << r.err;
      const size_t at = r.out.find(std::string("\nFAILED ") + c.failed + "\n");
      ASSERT_NE(at, std::string::npos) << what << r.out;
      const std::string report = r.out.substr(at);
      EXPECT_EQ(after(report, "layout"), c.minimal_layout) << what << report;
      // The reproducing command fails the same way on the minimal layout.
      std::vector<std::string> m;
      ASSERT_TRUE(search(report, "--layout '([^']*)'", &m)) << report;
      std::vector<std::string> again_args = {"gate"};
      for (const std::string& flag : f.flags(c.bug)) again_args.push_back(flag);
      again_args.insert(again_args.end(), {"--layout", m[1]});
      const Output again = tilecheck(again_args);
      EXPECT_EQ(again.exit_code, 1) << what << again.out;
      EXPECT_NE(again.out.find(std::string("\nFAILED ") + c.failed + "\n"), std::string::npos)
          << what << again.out;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, BothFrontEnds, testing::ValuesIn(kFrontEnds),
                         [](const testing::TestParamInfo<FrontEnd>& info) {
                           return std::string(info.param.id);
                         });

// Bugs that only rare layouts show: a '*' under a minor_to_major that is
// not the default, the half-filled last byte of a 4-bit array, an index past
// 2^31. The default run's layouts (the reach set, tilecheck/gen/reach.h) must catch each, shrink
// it to a minimal case and print a reproduce line that fails again. The two
// command front ends (the plugin runs the C++ command's code).
TEST(ImplCmd, TheDefaultLayoutsCatchBugsOnlyRareLayoutsShow) {
  struct Case {
    const char* bug;
    const char* type;  // the layouts of the bug's element type: the run narrowed to them
    const char* failed;
    const char* minimal_layout;
  };
  const Case cases[] = {
      {"combine_logical", "f32", "linear_index: wrong linear index", "f32[2,2]{0,1:T(*,1)}"},
      {"odd_nibble_tail", "s4", "pack: wrong packed bytes", "s4[]"},
      // 32769 * 65535 = 2^31 + 32767 positions: the bug shows only past 2^31.
      {"index_32bit", "f32", "linear_index: wrong linear index", "f32[32769,65535]{1,0}"},
  };
  for (const FrontEnd& f : {kFrontEnds[0], kFrontEnds[1]}) {
    for (const Case& c : cases) {
      const std::string what = std::string(f.name) + " --bug " + c.bug;
      // The catalogue and the reach set of the bug's element type (one
      // generated layout: they are not what this is about; the test budget
      // is), with a generous shrinking budget: the sanitizer build is slow.
      // Fewer positions one by one (the edges the bugs break at, such as
      // 2^31, are always among the sampled ones).
      std::vector<std::string> args = {"gate"};
      for (const std::string& flag : f.flags(c.bug)) args.push_back(flag);
      args.insert(args.end(), {"--types", c.type, "--cases", "1", "--shrink-seconds", "120", "--no-size-set"});
      const Output r = tilecheck(with_fewer_positions(args));
      EXPECT_EQ(r.exit_code, 1) << what << r.out << r.err;
      const size_t at = r.out.find(std::string("\nFAILED ") + c.failed + "\n");
      ASSERT_NE(at, std::string::npos) << what << r.out;
      const std::string report = r.out.substr(at);
      EXPECT_EQ(after(report, "layout"), c.minimal_layout) << what << report;
      std::vector<std::string> again_args = {"gate"};
      for (const std::string& flag : f.flags(c.bug)) again_args.push_back(flag);
      again_args.insert(again_args.end(), {"--layout", c.minimal_layout, "--seed", "1"});
      const Output again = tilecheck(again_args);
      EXPECT_EQ(again.exit_code, 1) << what << again.out;
      EXPECT_NE(again.out.find(std::string("\nFAILED ") + c.failed + "\n"), std::string::npos) << what << again.out;
    }
  }
}

// Bugs of arithmetic narrower than the positions, and of ranks past 6,
// fail on the reach set's layouts (which the default run sends:
// TheDefaultRunHasNoCoverageHoles) and shrink to just past the edge each
// breaks at: 2^53 positions (a double), a dim past 2^31 (an int), 2^63 bits
// (an int64_t count of bits), 2^31 tiles (an int tile number), rank 7. The
// Python example has the same bugs (its runs take longer here).
TEST(ImplCmd, WidthAndRankBugsFailOnTheReachSetAndShrinkToTheirEdge) {
  const std::string wide = "f32[134217728,4294967311]{1,0:T(1,2)}";
  const std::string rank8 = "f32[2,1,3,2,1,2,3,5]{3,6,0,7,2,5,1,4:T(2,4)}";
  const std::vector<std::string> reach = tilecheck::gen::reach_layouts();
  for (const std::string& layout : {wide, rank8}) {
    EXPECT_NE(std::find(reach.begin(), reach.end(), layout), reach.end()) << layout << " left the reach set";
  }
  struct Case {
    const char* bug;
    const std::string& layout;
    const char* failed;
    const char* minimal_layout;
  };
  const Case cases[] = {
      // 2^21 * (2^32 + 1) = 2^53 + 2^21 positions.
      {"index_float", wide, "linear_index: wrong linear index", "f32[2097152,4294967297]{1,0}"},
      {"dim_32bit", wide, "linear_index: wrong linear index", "f32[2147483649]{0}"},
      // 2^26 * 2^32 positions of 32 bits: 2^63 bits.
      {"bits_overflow", wide, "byte_size: wrong byte size", "f32[67108864,4294967296]{1,0}"},
      {"tile_32bit", wide, "linear_index: wrong linear index", "f32[2147483649]{0:T(1)}"},
      {"rank_limit", rank8, "linear_index: wrong linear index", "f32[1,2,1,1,2,1,1]{2,5,6,1,4,0,3}"},
  };
  const FrontEnd& f = kFrontEnds[1];
  for (const Case& c : cases) {
    const std::string what = std::string(f.name) + " --bug " + c.bug;
    std::vector<std::string> args = {"gate"};
    for (const std::string& flag : f.flags(c.bug)) args.push_back(flag);
    args.insert(args.end(), {"--layout", c.layout, "--shrink-seconds", "120"});
    const Output r = tilecheck(args);
    EXPECT_EQ(r.exit_code, 1) << what << r.out << r.err;
    const size_t at = r.out.find(std::string("\nFAILED ") + c.failed + "\n");
    ASSERT_NE(at, std::string::npos) << what << r.out;
    EXPECT_EQ(after(r.out.substr(at), "layout"), c.minimal_layout) << what << r.out;
    std::vector<std::string> again_args = {"gate"};
    for (const std::string& flag : f.flags(c.bug)) again_args.push_back(flag);
    again_args.insert(again_args.end(), {"--layout", c.minimal_layout});
    const Output again = tilecheck(again_args);
    EXPECT_NE(again.out.find(std::string("\nFAILED ") + c.failed + "\n"), std::string::npos) << what << again.out;
  }
}

// Bugs of data movement at size, each right on every array of up to 65,536
// elements: packing in chunks of 65,536 that lose a byte two chunks share,
// a 16-bit element counter, thread shares rounded to whole bytes of the
// row-major order (which a tiled layout's bytes do not follow), a staging
// buffer of 1 MiB. The default run's size set (tilecheck/gen/reach.h,
// size_layouts; narrowed here to one type each, without the reach set,
// whose arrays are all smaller) catches each, shrinks it to a case that
// still has the size -- past 65,536 elements, or for the staging buffer a
// physical buffer past 1 MiB -- and prints a reproduce line that fails
// again.
struct SizeBug {
  const char* bug;
  const char* type;
  int64_t past_elements, past_bytes;
};
const SizeBug kSizeBugs[] = {
    {"chunked_pack", "u4", int64_t{1} << 16, 0},
    {"counter_16bit", "bf16", int64_t{1} << 16, 0},
    {"thread_shares", "s2", (int64_t{1} << 16) - 1, 0},
    {"staging_1mib", "s8", 0, int64_t{1} << 20},
};

class SizeBugs : public testing::TestWithParam<SizeBug> {};

TEST_P(SizeBugs, FailOnTheSizeLayoutsAndShrinkKeepingTheirSize) {
  const SizeBug& c = GetParam();
  const FrontEnd& f = kFrontEnds[1];
  const std::string what = std::string(f.name) + " --bug " + c.bug;
  std::vector<std::string> args = {"gate"};
  for (const std::string& flag : f.flags(c.bug)) args.push_back(flag);
  args.insert(args.end(), {"--no-reach-set", "--types", c.type, "--cases", "1"});
  const Output r = tilecheck(with_fewer_positions(args));
  EXPECT_EQ(r.exit_code, 1) << what << r.out << r.err;
  const size_t at = r.out.find("\nFAILED pack: wrong packed bytes\n");
  ASSERT_NE(at, std::string::npos) << what << r.out;
  EXPECT_NE(r.out.find("found on:      size set (tilecheck/gen/reach.h): "), std::string::npos) << what << r.out;
  const std::string minimal = after(r.out.substr(at), "layout");
  const tilecheck::ShapeWithLayout s = tilecheck::parse_shape(minimal);
  EXPECT_GT(tilecheck::spec::element_count(s), c.past_elements) << what << r.out;
  EXPECT_GT(tilecheck::spec::byte_size(s), c.past_bytes) << what << r.out;
  std::vector<std::string> again_args = {"gate"};
  for (const std::string& flag : f.flags(c.bug)) again_args.push_back(flag);
  again_args.insert(again_args.end(), {"--layout", minimal});
  const Output again = tilecheck(again_args);
  EXPECT_EQ(again.exit_code, 1) << what << again.out;
}

// One test per bug, so that ctest runs them side by side.
INSTANTIATE_TEST_SUITE_P(ImplCmd, SizeBugs, testing::ValuesIn(kSizeBugs),
                         [](const testing::TestParamInfo<SizeBug>& info) { return std::string(info.param.bug); });

// An implementation that keeps state between requests (a cache keyed by
// too little, a buffer reused without zeroing) fails only after earlier
// requests: the failing case is asked again of a new process, passes there,
// and the report says so, with the shortest sequence of earlier cases after
// which it fails again in a new process. --write-replay writes that
// sequence, and --replay asks it again: it fails as before, and the
// correct implementation passes it. A failure that does not depend on
// state carries no such lines.
TEST(ImplCmd, AFailureThatDependsOnEarlierRequestsIsSaidSoAndReplayed) {
  const std::string dir = ::testing::TempDir();
  for (const FrontEnd& f : {kFrontEnds[0], kFrontEnds[1]}) {
    for (const char* bug : {"stale_cache", "reused_buffer"}) {
      const std::string what = std::string(f.name) + " --bug " + bug;
      const std::string file = dir + "/replay_" + f.id + "_" + bug + ".jsonl";
      // Two layouts of the same dims, the second with padding: the cache
      // keyed by dims answers the first's size for the second, the reused
      // buffer leaves the first pack's bytes in the second's padding.
      std::vector<std::string> args = {"gate"};
      for (const std::string& flag : f.flags(bug)) args.push_back(flag);
      args.insert(args.end(), {"--layout", "f32[3,5]{1,0}", "--layout", "f32[3,5]{1,0:T(2,2)}", "--write-replay", file});
      const Output r = tilecheck(args);
      EXPECT_EQ(r.exit_code, 1) << what << r.out << r.err;
      const size_t at = r.out.find("\nFAILED ");
      ASSERT_NE(at, std::string::npos) << what << r.out;
      const std::string report = r.out.substr(at);
      const std::string failed = report.substr(1, report.find('\n', 1) - 1);
      EXPECT_NE(report.find("\n  alone:         passes when asked first of a new process: this failure depends on "
                            "the requests before it"),
                std::string::npos)
          << what << report;
      // One earlier case suffices for both bugs: one of the first layout.
      EXPECT_NE(report.find("\n  fails after:   1 case, asked first of a new process (the shortest sequence "
                            "found):\n                   "),
                std::string::npos)
          << what << report;
      EXPECT_NE(report.find(":f32[3,5]{1,0}\n  reproduce:     tilecheck gate "), std::string::npos) << what << report;
      EXPECT_NE(report.find(" --replay " + file + "\n"), std::string::npos) << what << report;
      // The file: its header, then the first failure's sequence, its two
      // cases (then those of the other operations that failed).
      const std::string text = read_file(file);
      EXPECT_TRUE(search(text, "^\\{\"padding\":\"zero\",\"seed\":1,\"size_model\":\"exact\","
                                                     "\"tilecheck_replay\":1\\}\n\\{\"case\":\"[a-z_]+:f32\\[3,5\\]\\{1,0\\}\","
                                                     "\"sequence\":1\\}\n\\{\"case\":\"[^\"]+\",\"failed\":\"[^\"]+\",\"sequence\":1\\}\n"))
          << what << text;
      std::vector<std::string> replay = {"gate"};
      for (const std::string& flag : f.flags(bug)) replay.push_back(flag);
      replay.insert(replay.end(), {"--replay", file});
      const Output again = tilecheck(replay);
      EXPECT_EQ(again.exit_code, 1) << what << again.out << again.err;
      EXPECT_NE(again.out.find("\n" + failed + "\n"), std::string::npos) << what << failed << again.out;
      EXPECT_NE(again.out.find("\n  fails after:   1 case of its sequence, asked first of a new process:\n"),
                std::string::npos)
          << what << again.out;
      std::vector<std::string> correct = {"gate"};
      for (const std::string& flag : f.flags("")) correct.push_back(flag);
      correct.insert(correct.end(), {"--replay", file});
      const Output fine = tilecheck(correct);
      EXPECT_EQ(fine.exit_code, 0) << what << fine.out << fine.err;
      EXPECT_TRUE(search(fine.out, "\nlayouts: [0-9]+ request sequences? from --replay, each asked of a new process \\(seed 1\\)\n"))
          << fine.out;
    }
  }
  // A replay file that is not one is bad input: exit 2, naming the line.
  const std::string bad = dir + "/replay_bad.jsonl";
  {
    std::ofstream out(bad);
    out << "{\"tilecheck_replay\": 1, \"seed\": 1}\n{\"sequence\": 1, \"case\": \"spin:f32[3]{0}\"}\n";
  }
  const Output unusable = tilecheck({"gate", "--impl-cmd", kExample, "--replay", bad});
  EXPECT_EQ(unusable.exit_code, 2) << unusable.out;
  EXPECT_NE(unusable.err.find("replay_bad.jsonl:2: 'spin:f32[3]{0}' is not a case"), std::string::npos)
      << unusable.err;
  const Output plain = tilecheck({"gate", "--impl-cmd", kExample + " --bug odd_nibble_tail", "--layout", "s4[3]{0}"});
  EXPECT_EQ(plain.exit_code, 1) << plain.out;
  EXPECT_EQ(plain.out.find("\n  alone:"), std::string::npos) << plain.out;
}

TEST(ImplCmd, EveryFaultIsReportedAndTheOtherOperationsGoOn) {
  struct Case {
    const char* mode;
    const char* failed;  // the start of the FAILED line after "FAILED "
  };
  const Case cases[] = {
      {"crash_on_pack", "pack: crashed: the process exited with status 139 in the middle of a "
                        "call (the shell's way of saying: killed by signal 11 (SIGSEGV))"},
      {"exit_on_index", "linear_index: crashed: the process exited with status 3"},
      {"garbage_size", "byte_size: answered a line that is not JSON"},
      {"non_utf8_size", "byte_size: answered a line that is not JSON (invalid string: ill-formed "
                        "UTF-8 byte"},
      {"wrong_seq_index", "linear_index: answered seq"},
      {"errored_pack", "pack: errored: out of coffee"},
      {"oversized_size", "byte_size: answered a line longer than"},
      {"gib_line_size", "byte_size: answered a line longer than"},
      {"deep_json_size", "byte_size: answered JSON nested more than 64 levels deep: {\"seq\": "},
      {"huge_number_size", "byte_size: answered byte_size without \"bytes\", an int64 integer: 1.2345678901234568e+29"},
      {"uint64_size", "byte_size: answered byte_size without \"bytes\", an int64 integer: 18446744073709551615"},
      {"float_size", "byte_size: answered a line that is not JSON ([json.exception.out_of_range.406] number overflow"},
      {"nul_size", "byte_size: answered a line that is not JSON"},
  };
  for (const Case& c : cases) {
    // A few layouts (one of each kind of element width) keep it quick.
    const Output r = gate_cmd(std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " " + c.mode,
                              {"--layout", "f32[3,5]{1,0:T(2,2)}", "--layout",
                               "bf16[4,6]{1,0:T(2,2)(2,1)}", "--layout", "s4[5,7]{1,0:T(2,4)E(4)}"});
    EXPECT_EQ(r.exit_code, 1) << c.mode << r.out << r.err;
    EXPECT_NE(r.out.find(std::string("\nFAILED ") + c.failed), std::string::npos)
        << c.mode << r.out;
    // What the implementation wrote to its standard error is in the report.
    if (std::string(c.mode) == "crash_on_pack") {
      EXPECT_NE(after(r.out, "it printed").find("faulty_impl_cmd: about to crash in pack"), std::string::npos)
          << r.out;
    }
    const std::string op(c.failed, std::string(c.failed).find(':'));
    for (const char* other :
         {"linear_index", "pack", "byte_size", "delinearize", "unpack", "relayout"}) {
      if (other != op) {
        EXPECT_TRUE(passed(r, other)) << c.mode << " " << other << r.out;
      }
    }
  }
}

TEST(ImplCmd, AHangIsKilledWithEveryProcessItStarted) {
  const std::string pid_file = testing::TempDir() + "impl_cmd_hang_child.pid";
  std::remove(pid_file.c_str());
  const Output r = gate_cmd(
      std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " hang_on_index " + pid_file,
      {"--timeout", "2"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("\nFAILED linear_index: hung: no answer within 2 s (killed)\n"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(passed(r, "pack")) << r.out;
  // The sleeping child the implementation started is gone with it.
  const std::string pid = read_file(pid_file);
  ASSERT_FALSE(pid.empty());
  EXPECT_FALSE(still_running(pid)) << "process " << pid << " outlived the gate";
}

TEST(ImplCmd, OnlyWhatIsClaimedIsSent) {
  const Output r = gate_cmd(std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " claims_f32_plain");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GT(not_claimed(r), 20) << r.out;  // most of the 45 layouts
  EXPECT_TRUE(passed(r, "linear_index")) << r.out;
}

// An implementation that offers `claims` is asked about each layout before
// anything else, and sent nothing about a layout it does not claim (it
// answers such a request "errored", which would fail the gate).
TEST(ImplCmd, ALayoutItDoesNotClaimWhenAskedIsNeverSent) {
  const Output r = gate_cmd(std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " claims_rank_2");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GT(not_claimed(r), 10) << r.out;
  for (const char* op : {"linear_index", "pack", "byte_size", "delinearize", "unpack", "relayout"}) {
    EXPECT_TRUE(passed(r, op)) << op << r.out;
  }
}

// A crash or an "errored" answer to `claims` fails every case about that
// layout, named in the report; the other layouts are still checked.
TEST(ImplCmd, AFailedAnswerToClaimsFailsTheLayoutAsked) {
  const std::string layouts[] = {"--layout", "f32[3,5]{1,0:T(2,2)}", "--layout", "bf16[4,6]{1,0:T(2,2)(2,1)}"};
  for (const std::string mode : {"crash_on_claims", "errored_claims"}) {
    std::vector<std::string> flags(std::begin(layouts), std::end(layouts));
    const Output r = gate_cmd(std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " " + mode, flags);
    EXPECT_EQ(r.exit_code, 1) << mode << r.out << r.err;
    const std::string why = mode == "crash_on_claims" ? "crashed: " : "errored: lost count of tiles";
    // Shrunk like any failure: to a simpler layout with sub-tiles.
    EXPECT_TRUE(search(r.out, "\\nFAILED linear_index: asked whether it claims [^\\n]*\\)\\}: " + why)) << mode << r.out;
    EXPECT_NE(r.out.find("found on:      --layout: bf16[4,6]{1,0:T(2,2)(2,1)}\n"), std::string::npos) << mode << r.out;
    EXPECT_TRUE(search(r.out, "\\n  byte_size +bf16 +0 +0 +1 ")) << mode << r.out;
    EXPECT_FALSE(search(r.out, "\\n  (linear_index|pack|byte_size) +f32 ")) << mode << r.out;
    EXPECT_EQ(r.out.find("depends on the requests before it"), std::string::npos) << mode << r.out;
  }
}

TEST(ImplCmd, AStartThatIsNotOneExitsTwo) {
  const Output bad = gate_cmd(std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " bad_start");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("the answer to start must say \"protocol\": 1"), std::string::npos)
      << bad.err;
  const Output missing = gate_cmd("/nonexistent/impl");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("error: --impl-cmd '/nonexistent/impl': no answer to start: crashed: "
                             "the process exited with status 127"),
            std::string::npos)
      << missing.err;
  EXPECT_NE(missing.err.find("not found"), std::string::npos) << missing.err;
  const Output both = tilecheck({"gate", "--impl", "x.so", "--impl-cmd", "y"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
}

TEST(ImplCmd, SkippingWhatItClaimsFailsTheGate) {
  // Claims f32 and supports one f32 layout: every other claimed case skipped.
  const Output r = gate_cmd(std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " supports_one_f32");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  std::vector<std::string> m;
  ASSERT_TRUE(search(r.out, "\\nconformance: FAILED \\(([0-9]+) cases skipped although claimed\\)\\n", &m))
      << r.out;
  EXPECT_GT(std::stoi(m[1]), 20) << r.out;
  EXPECT_TRUE(search(r.out, "\\n  pack +f32 +1 +[1-9][0-9]* +0 +0 +0\\n")) << r.out;
}

TEST(ImplCmd, ArraysPastTheGateLimitAreNotSentAndNeverFailACorrectImplementation) {
  // One byte past the default --max-array-bytes (2M): pack, unpack and
  // relayout are the gate's own "not sent", not the implementation's skips.
  const std::string past = "u8[2097153]{0}";
  const Output r = tilecheck({"gate", "--impl-cmd", kExample, "--layout", past});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* op : {"pack", "unpack", "relayout"}) {
    EXPECT_NE(r.out.find("  " + std::string(op) + ":" + past +
                         "  (gate limit: a 2097153-byte buffer, over --max-array-bytes 2097152)\n"),
              std::string::npos)
        << op << r.out;
  }
  EXPECT_NE(r.out.find("\nconformance: passed (3 cases not sent: gate limits)\n"), std::string::npos) << r.out;
  EXPECT_TRUE(passed(r, "linear_index")) << r.out;

  const Output json = tilecheck({"gate", "--impl-cmd", kExample, "--layout", "u8[2049]{0}",
                                 "--max-array-bytes", "2K", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.out << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["not_sent"].size(), 3u) << json.out;
  EXPECT_EQ(j["not_sent"][0]["case"], "pack:u8[2049]{0}");
  EXPECT_EQ(j["skipped_although_claimed"].size(), 0u);

  // Raised, the limit sends the same array, and the C++ example answers it.
  const Output sent = tilecheck({"gate", "--impl-cmd", EXAMPLE_IMPL_CMD, "--limit", "memory=0", "--layout", past,
                                 "--max-array-bytes", "3M"});
  EXPECT_EQ(sent.exit_code, 0) << sent.out << sent.err;
  EXPECT_EQ(sent.out.find("not sent"), std::string::npos) << sent.out;
  for (const char* op : {"pack", "unpack", "relayout"}) EXPECT_TRUE(passed(sent, op)) << op << sent.out;

  const Output bad = tilecheck({"gate", "--impl-cmd", kExample, "--max-array-bytes", "2Q"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.err.find("--max-array-bytes: expected a positive byte count"), std::string::npos) << bad.err;
}

TEST(ImplCmd, KnownGapsAreWrittenReadAndMustStayGaps) {
  const std::string skips = testing::TempDir() + "impl_cmd_skips.txt";
  const std::string broken = kExample + " --bug nibble_order";
  // The 4-bit types only: where the bug shows, and quick.
  const std::vector<std::string> four_bit = {"--types", "s4,f4e2m1fn"};
  const auto with = [&](std::vector<std::string> more) {
    more.insert(more.end(), four_bit.begin(), four_bit.end());
    return more;
  };
  const Output first = gate_cmd(broken, with({"--write-skips", skips}));
  EXPECT_EQ(first.exit_code, 1) << first.out;
  const std::string written = read_file(skips);
  EXPECT_NE(written.find("\npack:s4[16,256]{1,0:T(8,128)(8,1)E(4)}  # failed\n"), std::string::npos)
      << written;
  // Today's failures listed: the gate passes, and says how the gaps went.
  const Output listed = gate_cmd(broken, with({"--skip-file", skips}));
  EXPECT_EQ(listed.exit_code, 0) << listed.out;
  EXPECT_TRUE(search(listed.out, "\\nknown gaps \\(--skip\\): ([0-9]+) cases matched, \\1 "
                                           "failed, 0 skipped, 0 passed\\n"))
      << listed.out;
  // Fixed: the listed cases pass, which --skips-must-fail reports as a failure.
  const Output fixed = gate_cmd(kExample, with({"--skip-file", skips}));
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out;
  const Output stale = gate_cmd(kExample, with({"--skip-file", skips, "--skips-must-fail"}));
  EXPECT_EQ(stale.exit_code, 1) << stale.out;
  EXPECT_TRUE(search(stale.out, "\\nconformance: FAILED \\([0-9]+ cases listed as known "
                                           "gaps that pass\\)\\n"))
      << stale.out;
  // Globs: every case of a 4-bit type, whatever the operation.
  const Output glob = gate_cmd(broken, with({"--skip", "*:s4*", "--skip", "*:f4e2m1fn*"}));
  EXPECT_EQ(glob.exit_code, 0) << glob.out;
  const Output missing = gate_cmd(kExample, {"--skip-file", "/nonexistent/skips"});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
}

TEST(ImplCmd, RequiredOperationsMustBeAnswered) {
  const std::string index_only = std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " index_only";
  EXPECT_EQ(gate_cmd(index_only).exit_code, 0);
  EXPECT_EQ(gate_cmd(index_only, {"--require", "linear_index"}).exit_code, 0);
  const Output r = gate_cmd(index_only, {"--require", "linear_index,pack"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("\nrequired (--require) but not offered: pack\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("conformance: FAILED (required pack not answered)"), std::string::npos)
      << r.out;
  EXPECT_EQ(gate_cmd(index_only, {"--require", "fly"}).exit_code, 2);
}

TEST(ImplCmd, PaddingAnyComparesOnlyTheElements) {
  const Output loose = gate_cmd(kExample + " --bug nonzero_padding", {"--padding", "any"});
  EXPECT_EQ(loose.exit_code, 0) << loose.out;
  EXPECT_NE(loose.out.find("\npadding: not compared (--padding any)\n"), std::string::npos)
      << loose.out;
  // Wrong elements are still wrong.
  const Output nibbles = gate_cmd(kExample + " --bug nibble_order", {"--padding", "any"});
  EXPECT_EQ(nibbles.exit_code, 1) << nibbles.out;
  EXPECT_NE(nibbles.out.find("\nFAILED pack: wrong packed bytes (padding not compared)\n"),
            std::string::npos)
      << nibbles.out;
}

TEST(ImplCmd, JunitAndJsonVerdictsForCi) {
  const std::string junit = testing::TempDir() + "impl_cmd_verdict.xml";
  const Output r = gate_cmd(kExample + " --bug nibble_order", {"--junit", junit, "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["report_version"], 1);
  EXPECT_FALSE(j["ok"].get<bool>());
  EXPECT_EQ(j["failures"], nlohmann::json::parse(R"j(["pack","unpack","relayout"])j"));
  const std::string xml = read_file(junit);
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0), 0u) << xml;
  EXPECT_TRUE(search(xml, "<testsuite name=\"pack\" tests=\"[0-9]+\" "
                                                "failures=\"[1-9][0-9]*\" errors=\"0\""))
      << xml;
  EXPECT_TRUE(search(xml, "<testsuite name=\"linear_index\" tests=\"[0-9]+\" "
                                                "failures=\"0\" errors=\"0\""))
      << xml;
  EXPECT_NE(xml.find("<testcase classname=\"pack\" name=\"s4[16,256]{1,0:T(8,128)(8,1)E(4)}\">\n"
                     "      <failure message=\"wrong packed bytes\">minimal case: s4[]\n"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("</testsuites>\n"), std::string::npos);
}

TEST(ImplCmd, ProfilesAndNarrowing) {
  const Output tpu = gate_cmd(kExample, {"--profile", "tpu"});
  EXPECT_EQ(tpu.exit_code, 0) << tpu.out << tpu.err;
  EXPECT_NE(tpu.out.find("then 5 generated (profile tpu, seed 1)\n"), std::string::npos) << tpu.out;
  const Output gpu = gate_cmd(kExample + " --bug nibble_order", {"--profile", "gpu"});
  EXPECT_EQ(gpu.exit_code, 1) << gpu.out;  // sub-byte types abound
  const Output narrow =
      gate_cmd(kExample, {"--profile", "tpu", "--types", "bf16,s4", "--max-rank", "2"});
  EXPECT_EQ(narrow.exit_code, 0) << narrow.out;
  EXPECT_TRUE(search(narrow.out, "layouts: [0-9]+ from the catalogue, [0-9]+ from the reach set \\([0-9]+ more left out by "
                             "--max-rank or --types\\), then 5 generated"))
      << narrow.out;
  EXPECT_EQ(gate_cmd(kExample, {"--profile", "cpu"}).exit_code, 2);
  EXPECT_EQ(gate_cmd(kExample, {"--types", "f33"}).exit_code, 2);
}

// The default run reaches every form of layout in both dim orders, for
// every width class and operation (tilecheck/gen/reach.h, conformance/coverage.h).
// Coverage counts layouts and operations, not positions: fewer positions
// one by one keep the sanitizer build quick (the whole default run is
// BothFrontEnds.TheExamplesPassEveryOperationTheyOffer/PythonCmd's).
TEST(ImplCmd, TheDefaultRunHasNoCoverageHoles) {
  const Output r = tilecheck(
      with_fewer_positions({"gate", "--impl-cmd", EXAMPLE_IMPL_CMD, "--limit", "memory=0", "--coverage", "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["coverage"]["holes"].size(), 0u) << j["coverage"]["holes"].dump();
  EXPECT_EQ(j["coverage"]["unclaimed"].size(), 0u);
  // Among what it reached: a '*' under another dim order, index past 2^32.
  int combined_other = 0, past_2_32 = 0;
  for (const auto& c : j["coverage"]["reached"]) {
    combined_other += c["form"] == "combined dim (*)" && c["order"] == "other" && c["function"] == "linear_index";
    past_2_32 += c["form"] == "past 2^32" && c["function"] == "linear_index";
  }
  EXPECT_EQ(combined_other, 5);  // the five width classes
  EXPECT_EQ(past_2_32, 10);      // and both dim orders
  for (const char* form : {"past 2^53", "dim past 2^32", "2^31+ tiles", "rank 7+"}) {
    int reached = 0;
    for (const auto& c : j["coverage"]["reached"]) reached += c["form"] == form && c["function"] == "linear_index";
    EXPECT_EQ(reached, 10) << form;
  }
  // Data movement past 2^16 elements in every width class, and past 2^20
  // where the default --max-array-bytes (2M) sends it: the sub-byte and
  // 8-bit classes, in both orders.
  int packed_past_2_16 = 0, packed_past_2_20 = 0;
  for (const auto& c : j["coverage"]["reached"]) {
    packed_past_2_16 += c["form"] == "2^16+ elements" && c["function"] == "pack";
    packed_past_2_20 += c["form"] == "2^20+ elements" && c["function"] == "pack";
  }
  EXPECT_EQ(packed_past_2_16, 10);
  EXPECT_EQ(packed_past_2_20, 4);
  EXPECT_EQ(j["layouts"]["size"], 34);
  EXPECT_EQ(j["layouts"]["size_over_limit"], 6);  // bf16, f32 and f64 past 2^20, both orders
  // Narrowed to f32, the other width classes are not holes but unclaimed;
  // the text form says so.
  const Output f32 = tilecheck(with_fewer_positions(
      {"gate", "--impl-cmd", EXAMPLE_IMPL_CMD, "--limit", "memory=0", "--coverage", "--types", "f32", "--cases", "5",
       "--no-size-set"}));
  ASSERT_EQ(f32.exit_code, 0) << f32.err;
  EXPECT_NE(f32.out.find("\nholes (required, not reached): none\nnot reached because no type of the width class "
                         "is claimed: "),
            std::string::npos)
      << f32.out;
}

// Shrinking bisects each dim, within --shrink-seconds: the 32-bit index
// on [65536,65536] ends just past 2^31 positions; with no time at all the
// report says it stopped.
TEST(ImplCmd, ShrinkingBisectsWithinItsTimeBudget) {
  const std::string bug = std::string(EXAMPLE_IMPL_CMD) + " --bug index_32bit";
  const Output r = tilecheck({"gate", "--impl-cmd", bug, "--limit", "memory=0", "--layout", "f32[65536,65536]{1,0}",
                              "--shrink-seconds", "120"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  // 32769 * 65535 = 2^31 + 32767 positions.
  EXPECT_EQ(after(r.out, "layout"), "f32[32769,65535]{1,0}") << r.out;
  EXPECT_EQ(r.out.find("maybe not minimal"), std::string::npos) << r.out;
  const Output none = tilecheck({"gate", "--impl-cmd", bug, "--limit", "memory=0", "--layout",
                                 "f32[65536,65536]{1,0}", "--shrink-seconds", "0"});
  ASSERT_EQ(none.exit_code, 1) << none.out;
  EXPECT_NE(none.out.find("(0 shrinking steps; stopped at --shrink-seconds, maybe not minimal)"), std::string::npos)
      << none.out;
  EXPECT_EQ(after(none.out, "layout"), "f32[65536,65536]{1,0}") << none.out;
}

// An implementation that moves values through float arithmetic (v + 0.0f)
// fails, and the report names the value class of the differing bytes.
TEST(ImplCmd, FloatArithmeticIsReportedByItsValueClass) {
  const Output r =
      gate_cmd(std::string(EXAMPLE_IMPL_CMD) + " --bug float_arithmetic", {"--limit", "memory=0", "--types", "f32,bf16"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(search(r.out, "\nFAILED pack: wrong packed bytes \\(values changed within their class: [0-9]+ "
                        "signalling NaNs? written quiet[^\n]*\\)\n"))
      << r.out;
  EXPECT_TRUE(search(r.out, "\n    value classes +only values differ, each within its class: [0-9]+ "
                        "signalling NaNs? written quiet.*float arithmetic instead of copying their bits"))
      << r.out;
}

TEST(ImplCmd, ResourceLimitsApply) {
  // One second of CPU time: the spinning implementation is killed by
  // SIGXCPU long before the 20-second timeout.
  const Output r = tilecheck({"gate", "--impl-cmd",
                              std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " spin_on_index",
                              "--layout", "f32[2]{0}", "--limit", "cpu=1", "--timeout", "20"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("\nFAILED linear_index: crashed: the process exited with status 152 in the "
                       "middle of a call (the shell's way of saying: killed by signal 24 (SIGXCPU))\n"),
            std::string::npos)
      << r.out;
  // Each limit as the implementation's process sees it.
  const Output limits = tilecheck(
      {"gate", "--impl-cmd", std::string(PYTHON3) + " " + FAULTY_IMPL_CMD + " report_limits",
       "--layout", "f32[2]{0}", "--limit", "cpu=100,memory=0,files=64,processes=512"});
  EXPECT_NE(limits.out.find("FAILED byte_size: errored: CPU=100 AS=-1 NOFILE=64 NPROC=512 CORE=0\n"),
            std::string::npos)
      << limits.out;
  EXPECT_EQ(gate_cmd(kExample, {"--limit", "memory=4G,files=64,cpu=0"}).exit_code, 0);
  EXPECT_EQ(gate_cmd(kExample, {"--limit", "gpu=1"}).exit_code, 2);
  EXPECT_EQ(gate_cmd(kExample, {"--limit", "cpu=-1"}).exit_code, 2);
}

}  // namespace
