// `tilecheck gate --impl`, run as a CI runs it, on the example
// implementations of examples/impl/: the correct one passes, the one with
// XLA's first-tile byte size fails with a minimal counterexample that
// reproduces, the one that aborts and hangs is reported as failing without
// tilecheck crashing, and what is not a usable library exits 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/run_tilecheck.h"
#include "tests/text_match.h"

namespace {

using tilecheck::cli_testing::Output;
using tilecheck::cli_testing::read_file;
using tilecheck::cli_testing::still_running;
using tilecheck::cli_testing::tilecheck;
using tilecheck::cli_testing::with_fewer_positions;
using tilecheck::cli_testing::full_match;
using tilecheck::cli_testing::replace_all;
using tilecheck::cli_testing::search;

// Sampling instead of every element on the larger catalogue layouts (every
// element of the generated ones): the runs stay at seconds under ASan.

// The value after `label` on the line that starts with it (after spaces).
std::string field(const std::string& text, const std::string& label) {
  std::vector<std::string> m;
  return search(text, "(^|\\n) *" + label + " +([^\\n]*)", &m) ? m[2] : "";
}

TEST(Conformance, TheCorrectExamplePassesEveryFunction) {
  const Output r = tilecheck(
      with_fewer_positions({"gate", "--impl", EXAMPLE_IMPL, "--cases", "60", "--max-array-bytes", "1M"}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  // The size set within 1M: its layouts past 2^16 elements, through the
  // plugin's buffers (the default run's, past 2^20 too, is docs/GATE.md's
  // example of a plugin, label docs).
  EXPECT_TRUE(search(r.out, "layouts: 40 from the catalogue, [1-9][0-9]* from the reach set, 20 at size "
                     "\\(20 more past --max-array-bytes\\), then 60 generated \\(seed 1\\)"))
      << r.out;
  for (const std::string f : {"linear_index", "pack", "byte_size"}) {
    // function, result, layouts checked, skipped, cases: nothing skipped.
    std::vector<std::string> m;
    ASSERT_TRUE(search(r.out, "\\n" + f + " +passed +([0-9]+) +0 +([0-9]+) ", &m)) << f << "\n" << r.out;
    EXPECT_GT(std::stoll(m[1]), 40 + 30) << f;  // the catalogue and most generated layouts
  }
  EXPECT_NE(r.out.find("\nconformance: passed\n"), std::string::npos) << r.out;
}

TEST(Conformance, JsonReportsCountsPerFunction) {
  const Output r = tilecheck(with_fewer_positions({"gate", "--impl", EXAMPLE_IMPL, "--cases", "5", "--no-size-set", "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["layouts"]["catalogue"], 40);
  EXPECT_EQ(j["layouts"]["generated"], 5);
  ASSERT_EQ(j["functions"].size(), 7u);
  for (const auto& f : j["functions"]) {
    // The C interface has no parse.
    if (f["function"] == "parse") {
      EXPECT_EQ(f["result"], "not exported") << f.dump();
      continue;
    }
    EXPECT_EQ(f["result"], "passed") << f.dump();
    EXPECT_GE(f["layouts_checked"].get<int>(), 40) << f.dump();
    EXPECT_EQ(f["layouts_skipped"], 0) << f.dump();
  }
}

TEST(Conformance, FirstTileByteSizeIsCaughtWithAMinimalCaseThatReproduces) {
  const Output r = tilecheck(
      with_fewer_positions({"gate", "--impl", FIRST_TILE_SIZE_IMPL, "--no-size-set"}));
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("\nFAILED byte_size: wrong byte size\n"), std::string::npos) << r.out;
  // It also declines the packs whose buffer size disagrees with its own: a
  // claimed case skipped, which fails the gate too.
  EXPECT_TRUE(search(r.out, "\\nconformance: FAILED \\(byte_size, [0-9]+ cases? skipped although "
                        "claimed\\)\\n"))
      << r.out;
  EXPECT_TRUE(search(r.out, "\\nlinear_index +passed ")) << r.out;

  // The minimal case: a scalar under two tiles, the second of which pads
  // (2 positions); the first tile alone covers 1.
  const std::string minimal = field(r.out, "layout");
  EXPECT_EQ(minimal, "f32[]{:T(1)(2)}") << r.out;
  const std::string expected = field(r.out, "expected"), actual = field(r.out, "actual");
  EXPECT_NE(expected, actual);

  // The spec command prints the expected size.
  const Output size = tilecheck({"size", "--json", minimal});
  ASSERT_EQ(size.exit_code, 0) << size.err;
  const std::string bytes = std::to_string(nlohmann::json::parse(size.out)["bytes"].get<int64_t>());
  EXPECT_EQ(bytes + " bytes", expected);
  EXPECT_EQ(field(r.out, "the spec says:"),
            "tilecheck size '" + minimal + "'   (bytes " + bytes + ")");

  // The reproduce line is a command that fails the same way, already minimal.
  const std::string reproduce = field(r.out, "reproduce:");
  EXPECT_EQ(reproduce, "tilecheck gate --impl " + std::string(FIRST_TILE_SIZE_IMPL) +
                           " --layout '" + minimal + "'");
  const Output again = tilecheck({"gate", "--impl", FIRST_TILE_SIZE_IMPL, "--layout", minimal});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.out.find("minimal case (0 shrinking steps)"), std::string::npos) << again.out;
  EXPECT_EQ(field(again.out, "actual"), actual);

  // Minimal: without its second tile the broken size is right.
  const std::string one_tile = replace_all(minimal, "\\)\\([0-9]+\\)\\}", ")}");
  const Output simpler = tilecheck({"gate", "--impl", FIRST_TILE_SIZE_IMPL, "--layout", one_tile});
  EXPECT_EQ(simpler.exit_code, 0) << one_tile << "\n" << simpler.out;
}

// With --size-model xla the byte size is checked against XLA's ArraySize,
// which counts the first tile only: the first-tile build agrees there, and
// fails only where XLA's figure is 0 (combined dims).
TEST(Conformance, SizeModelXlaChecksAgainstXlasArraySize) {
  // Its buffer operations decline a buffer sized by the exact model: known
  // gaps here.
  const Output two_tiles =
      tilecheck({"gate", "--impl", FIRST_TILE_SIZE_IMPL, "--size-model", "xla", "--layout",
                 "f32[]{:T(1)(2)}", "--skip", "pack:*", "--skip", "unpack:*", "--skip", "relayout:*"});
  EXPECT_EQ(two_tiles.exit_code, 0) << two_tiles.out << two_tiles.err;
  const Output combined = tilecheck({"gate", "--impl", FIRST_TILE_SIZE_IMPL, "--size-model",
                                     "xla", "--layout", "f32[8,3]{1,0:T(2,*,1)}"});
  ASSERT_EQ(combined.exit_code, 1) << combined.out << combined.err;
  EXPECT_NE(combined.out.find("\nFAILED byte_size: wrong byte size (XLA's ArraySize)\n"),
            std::string::npos)
      << combined.out;
  EXPECT_EQ(field(combined.out, "expected"), "0 bytes") << combined.out;
  EXPECT_NE(field(combined.out, "the spec says:").find("tilecheck size --model xla '"),
            std::string::npos)
      << combined.out;
  // The reproduce line keeps the size model, so it fails the same way.
  EXPECT_EQ(field(combined.out, "reproduce:"),
            "tilecheck gate --impl " + std::string(FIRST_TILE_SIZE_IMPL) +
                " --layout 'f32[]{:T(*,1)}' --size-model xla")
      << combined.out;
}

TEST(Conformance, AnImplementationThatAbortsIsAFailureNotACrashOfTilecheck) {
  const Output r = tilecheck(with_fewer_positions({"gate", "--impl", CRASHING_IMPL, "--cases", "20", "--no-size-set"}));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("\nFAILED linear_index: crashed: killed by signal 6 (SIGABRT)\n"),
            std::string::npos)
      << r.out;
  // Shrunk to two tile levels on the smallest shape, and the element named.
  EXPECT_TRUE(
      full_match(field(r.out, "layout"), "f32\\[\\]\\{:T\\(1\\)\\(1\\)\\}"))
      << r.out;
  EXPECT_EQ(field(r.out, "element"), "()") << r.out;
  // The functions that do not abort are still checked.
  EXPECT_TRUE(search(r.out, "\\nbyte_size +passed ")) << r.out;
  EXPECT_TRUE(search(r.out, "\\npack +passed ")) << r.out;
}

TEST(Conformance, AnImplementationThatHangsTimesOut) {
  const Output r =
      tilecheck({"gate", "--impl", CRASHING_IMPL, "--layout", "f32[2,999983]", "--timeout", "0.5"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("\nFAILED linear_index: hung: no answer within 0.5 s (killed)\n"),
            std::string::npos)
      << r.out;
}

TEST(Conformance, APluginThatForksInALoopIsStoppedWithAllItsProcesses) {
  const std::string pid_file = testing::TempDir() + "forking_plugin.pids";
  std::remove(pid_file.c_str());
  setenv("FORKING_PLUGIN_PIDS", pid_file.c_str(), 1);
  const Output r = tilecheck({"gate", "--impl", FORKING_IMPL, "--layout", "f32[3,5]", "--timeout", "2"});
  unsetenv("FORKING_PLUGIN_PIDS");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("\nFAILED linear_index: hung: no answer within 2 s (killed)\n"),
            std::string::npos)
      << r.out;
  std::istringstream pids(read_file(pid_file));
  int count = 0;
  for (std::string pid; std::getline(pids, pid); ++count) {
    EXPECT_FALSE(still_running(pid)) << "process " << pid << " outlived the gate";
  }
  EXPECT_EQ(count, 32);
}

// A plugin built against the first plugin header (tests/plugin_abi_v1)
// exports linear_index, pack and byte_size only, and passes on those.
TEST(Conformance, APluginBuiltAgainstTheFirstHeaderPassesUnchanged) {
  const Output r = tilecheck({"gate", "--impl", PLUGIN_ABI_V1, "--cases", "20", "--no-size-set"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* op : {"linear_index", "pack", "byte_size"}) {
    EXPECT_TRUE(search(r.out, std::string("\\n") + op + " +passed ")) << r.out;
  }
  for (const char* op : {"delinearize", "unpack", "relayout"}) {
    EXPECT_FALSE(search(r.out, std::string("\\n") + op + " +(passed|FAILED) "))
        << r.out;
  }
  EXPECT_NE(r.out.find("\nconformance: passed\n"), std::string::npos) << r.out;
}

TEST(Conformance, WhatIsNotAUsableLibraryExitsTwo) {
  const Output text = tilecheck({"gate", "--impl", TEXT_FILE});
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_EQ(text.out, "");
  EXPECT_EQ(text.err.rfind("error: cannot load '" + std::string(TEXT_FILE) + "'", 0), 0u)
      << text.err;

  const Output missing = tilecheck({"gate", "--impl", "/nonexistent/libimpl.so"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("error: cannot load '/nonexistent/libimpl.so'"), std::string::npos)
      << missing.err;

  const Output no_exports = tilecheck({"gate", "--impl", NO_EXPORTS_IMPL});
  EXPECT_EQ(no_exports.exit_code, 2);
  EXPECT_NE(no_exports.err.find(
                "exports nothing usable: tilecheck_impl_linear_index (required) is missing"),
            std::string::npos)
      << no_exports.err;

  const Output unsupported = tilecheck({"gate", "--impl", UNSUPPORTING_IMPL, "--cases", "3", "--no-size-set"});
  EXPECT_EQ(unsupported.exit_code, 2);
  // Every layout with elements skipped (the zero-size ones have no element to ask about).
  std::vector<std::string> skipped;
  ASSERT_TRUE(search(unsupported.out, "\\nlinear_index +skipped +0 +([0-9]+) ", &skipped))
      << unsupported.out;
  EXPECT_GE(std::stoi(skipped[1]), 38);
  EXPECT_NE(unsupported.out.find("\nconformance: nothing checked\n"), std::string::npos)
      << unsupported.out;
  EXPECT_NE(unsupported.err.find("supports none of the " + skipped[1] + " layouts"),
            std::string::npos)
      << unsupported.err;

  const Output bad_layout =
      tilecheck({"gate", "--impl", EXAMPLE_IMPL, "--layout", "f32[3,5]{1,0:T(0)}"});
  EXPECT_EQ(bad_layout.exit_code, 2);
  EXPECT_EQ(bad_layout.err.rfind("error: layout 'f32[3,5]{1,0:T(0)}'", 0), 0u) << bad_layout.err;
}

}  // namespace
