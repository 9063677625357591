// `tilecheck scan` on the HLO fixtures of tests/hlo/, and `tilecheck
// bitcast`, run as a user runs them. Every expected figure is worked out by
// hand in the comment beside it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/run_tilecheck.h"

namespace {

using tilecheck::cli_testing::Output;
using tilecheck::cli_testing::tilecheck;

std::string fixture(const std::string& name) {
  return std::string(TILECHECK_SOURCE_DIR) + "/tests/hlo/" + name;
}

nlohmann::json scan(const std::string& name, int exit_code) {
  const Output r = tilecheck({"scan", "--json", fixture(name)});
  EXPECT_EQ(r.exit_code, exit_code) << name << "\n" << r.err;
  return nlohmann::json::parse(r.out);
}

const nlohmann::json& layout(const nlohmann::json& report, const std::string& text) {
  for (const nlohmann::json& l : report["layouts"]) {
    if (l["layout"] == text) return l;
  }
  ADD_FAILURE() << text << " not in the report";
  static const nlohmann::json none;
  return none;
}

TEST(Scan, TpuMatmulEveryLayoutOnceSortedByWaste) {
  const nlohmann::json r = scan("tpu_matmul_bf16.hlo", 0);
  EXPECT_EQ(r["module"], "jit_dense_layer");
  EXPECT_EQ(r["instructions"], 12);
  ASSERT_EQ(r["layouts"].size(), 6u);
  // f32[100,1000] under (8,128): 100 -> 104 rows, 1000 -> 1024 columns:
  // 104*1024*4 = 425984 bytes, 400000 of data; the convolution, the
  // broadcast and the add: 3 times, 3*25984 wasted, the most.
  const nlohmann::json& f32 = r["layouts"][0];
  EXPECT_EQ(f32["layout"], "f32[100,1000]{1,0:T(8,128)}");
  EXPECT_EQ(f32["count"], 3);
  EXPECT_EQ(f32["first_instruction"], "convolution.1");
  EXPECT_EQ(f32["elements"], 100000);
  EXPECT_EQ(f32["bytes"], 425984);
  EXPECT_EQ(f32["xla_array_size"], 425984);
  EXPECT_EQ(f32["padding_bytes"], 25984);
  EXPECT_EQ(f32["wasted_bytes"], 77952);
  // bf16 (8,128)(2,1): the pairs of rows fit in the 8-row tile, no padding of
  // their own: 104*1024*2 = 212992.
  EXPECT_EQ(layout(r, "bf16[100,1000]{1,0:T(8,128)(2,1)}")["bytes"], 212992);
  EXPECT_EQ(layout(r, "bf16[100,1000]{1,0:T(8,128)(2,1)}")["count"], 2);
  // 256 rows fit; 1000 -> 1024: 256*1024*2 = 524288, 12288 of padding.
  EXPECT_EQ(layout(r, "bf16[256,1000]{1,0:T(8,128)(2,1)}")["padding_bytes"], 12288);
  // 100 -> 104 rows of 256: 104*256*2 = 53248.
  EXPECT_EQ(layout(r, "bf16[100,256]{1,0:T(8,128)(2,1)}")["bytes"], 53248);
  // 1000 -> 1024 elements: 4096 bytes, 96 of padding.
  EXPECT_EQ(layout(r, "f32[1000]{0:T(1024)}")["padding_bytes"], 96);
  EXPECT_EQ(layout(r, "f32[1000]{0:T(1024)}")["count"], 2);
  // 3*425984 + 2*212992 + 2*524288 + 524288 + 2*53248 + 2*4096.
  EXPECT_EQ(r["total_bytes"], 3391488);
  EXPECT_EQ(r["total_padding_bytes"], 145088);
  // Splitting the major dim 256 into 2*128 keeps every (8,128) tile whole.
  ASSERT_EQ(r["bitcasts"].size(), 1u);
  EXPECT_EQ(r["bitcasts"][0]["instruction"], "weights.split");
  EXPECT_EQ(r["bitcasts"][0]["bitcast"], true);
  EXPECT_EQ(r["warnings"].size(), 0u);
  for (size_t i = 1; i < r["layouts"].size(); ++i) {
    EXPECT_GE(r["layouts"][i - 1]["wasted_bytes"], r["layouts"][i]["wasted_bytes"]);
  }
}

TEST(Scan, Int4WeightAndItsBitcasts) {
  const nlohmann::json r = scan("int4_weight.hlo", 1);
  // 4096*1024 4-bit elements, whole tiles: 2097152 bytes, none of padding.
  const nlohmann::json& w = layout(r, "s4[4096,1024]{1,0:T(8,128)(8,1)E(4)}");
  EXPECT_EQ(w["bytes"], 2097152);
  EXPECT_EQ(w["padding_bytes"], 0);
  EXPECT_EQ(w["count"], 2);
  EXPECT_EQ(w["problems"].size(), 0u);
  ASSERT_EQ(r["bitcasts"].size(), 2u);
  // 4096 rows = 4 * 1024: a true bitcast. Flattening is not: element
  // (0,128) starts the second (8,128) tile, at 8*128 = 1024; flat, element
  // 128 is row 1 of the 8x128 block that (8,1) interleaves: position 1.
  EXPECT_EQ(r["bitcasts"][0]["bitcast"], true);
  EXPECT_EQ(r["bitcasts"][1]["instruction"], "w.flat");
  EXPECT_EQ(r["bitcasts"][1]["bitcast"], false);
  EXPECT_EQ(r["bad_bitcasts"], 1);
}

TEST(Scan, WhileLoopTuplesAndThePaddedBitcastBug) {
  const nlohmann::json r = scan("while_tuple.hlo", 1);
  // Every tuple leaf counts: the loop state's f32[28,1,1] appears in 8 shapes.
  const nlohmann::json& state = layout(r, "f32[28,1,1]{2,1,0:T(2,128)}");
  EXPECT_EQ(state["count"], 8);
  // The (2,128) tile on the two minor dims of size 1: 28*2*128*4 bytes.
  EXPECT_EQ(state["bytes"], 28672);
  EXPECT_EQ(state["padding_bytes"], 28672 - 112);
  EXPECT_EQ(layout(r, "s32[]{:T(128)}")["count"], 11);
  EXPECT_EQ(layout(r, "s32[]{:T(128)}")["bytes"], 512);
  // All three bitcasts of the padded array are not bitcasts.
  ASSERT_EQ(r["bitcasts"].size(), 3u);
  EXPECT_EQ(r["bad_bitcasts"], 3);
  EXPECT_EQ(r["bitcasts"][1]["instruction"], "unpadded");
  EXPECT_EQ(r["bitcasts"][1]["reasons"][0], "the byte sizes differ: 28672 bytes and 112 bytes");
}

TEST(Scan, DynamicDimsAtTheirBound) {
  const nlohmann::json r = scan("dynamic_shapes.hlo", 0);
  // <=64 rows under (8,128): 64*512*4 bytes, at the bound.
  EXPECT_EQ(layout(r, "f32[<=64,512]{1,0:T(8,128)}")["bytes"], 131072);
  EXPECT_EQ(layout(r, "f32[<=64,512]{1,0:T(8,128)}")["count"], 3);
  // M(64) is kept in the text and changes no size.
  EXPECT_EQ(layout(r, "f32[<=64,512]{1,0:T(8,128)M(64)}")["bytes"], 131072);
  // 64 -> 256 elements: 768 bytes of padding.
  EXPECT_EQ(layout(r, "f32[<=64]{0:T(256)}")["padding_bytes"], 768);
}

TEST(Scan, MemorySpacesInvalidLayoutsAndSkippedLines) {
  const nlohmann::json r = scan("memory_spaces.hlo", 1);
  // S(n) makes a layout of its own; the same sizes.
  EXPECT_EQ(layout(r, "f32[1024,1024]{1,0:T(8,128)S(5)}")["bytes"], 4194304);
  EXPECT_EQ(layout(r, "f32[1024,1024]{1,0:T(8,128)S(1)}")["count"], 2);
  // 3 -> 4 rows, 1000 -> 1024: 16384 bytes for 12000 of data.
  EXPECT_EQ(layout(r, "f32[3,1000]{1,0:T(2,128)S(1)}")["padding_bytes"], 4384);
  // E(4) leaked onto bf16: XLA rejects it.
  const nlohmann::json& odd = layout(r, "bf16[1024]{0:T(1024)E(4)}");
  ASSERT_EQ(odd["problems"].size(), 1u);
  EXPECT_EQ(odd["problems"][0]["severity"], "error");
  EXPECT_EQ(r["invalid_layouts"], 1);
  ASSERT_EQ(r["warnings"].size(), 1u);
  EXPECT_EQ(r["warnings"][0]["line"], 11);
}

TEST(Scan, TextReport) {
  const Output r = tilecheck({"scan", fixture("tpu_matmul_bf16.hlo")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("total: 3391488 bytes, 145088 of them padding (4.3%)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("weights.split (line 17): bf16[256,1000]{1,0:T(8,128)(2,1)} -> "
                       "bf16[2,128,1000]{2,1,0:T(8,128)(2,1)}: ok"),
            std::string::npos)
      << r.out;
}

TEST(Scan, BadInputIsAWarningOrExitTwo) {
  const Output missing = tilecheck({"scan", "/nonexistent.hlo"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot read '/nonexistent.hlo'"), std::string::npos) << missing.err;
}

TEST(Bitcast, TheBugOfAPaddedArrayIsCaught) {
  const Output r = tilecheck({"bitcast", "f32[28,1,1]{2,1,0:T(2,128)}", "f32[28]{0}"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("NOT a bitcast"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the byte sizes differ: 28672 bytes and 112 bytes"), std::string::npos)
      << r.out;
  // Element (1,0,0) sits at 1*2*128 = 256 in the tiled array, at 1 in the flat one.
  EXPECT_NE(r.out.find("element (1,0,0) of the first is at position 256, but the element (1) it "
                       "becomes is at position 1 of the second"),
            std::string::npos)
      << r.out;
}

TEST(Bitcast, MergingMajorDimsAboveATileIsABitcast) {
  const Output r = tilecheck({"bitcast", "f32[4,16,256]{2,1,0:T(8,128)}", "f32[64,256]{1,0:T(8,128)}"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(": a bitcast\n"), std::string::npos) << r.out;
  // 12 rows are not a multiple of 8: each of the 4 blocks is padded to 16
  // rows, which moves every element after the first block.
  const Output moved = tilecheck({"bitcast", "--json", "f32[4,12,256]{2,1,0:T(8,128)}",
                                  "f32[48,256]{1,0:T(8,128)}"});
  EXPECT_EQ(moved.exit_code, 1);
  const nlohmann::json j = nlohmann::json::parse(moved.out);
  EXPECT_EQ(j["bitcast"], false);
  // Element (1,0,0) starts block 1 at 16 rows * 256 = 4096; flat, it is row
  // 12: tile (1,0) of a 6x2 grid of tiles, row 4 in it: 2*1024 + 4*128 = 2560.
  EXPECT_EQ(j["first_moved"]["from_element"], nlohmann::json::parse("[1,0,0]"));
  EXPECT_EQ(j["first_moved"]["to_element"], nlohmann::json::parse("[12,0]"));
  EXPECT_EQ(j["first_moved"]["from_position"], 4096);
  EXPECT_EQ(j["first_moved"]["to_position"], 2560);
}

TEST(Bitcast, TransposeByTheLayout) {
  // A transpose that only swaps minor_to_major is a bitcast.
  const Output r = tilecheck({"bitcast", "--transpose", "1,0", "f32[8,128]{1,0}", "f32[128,8]{0,1}"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const Output wrong = tilecheck({"bitcast", "--transpose", "1,0", "f32[8,128]{1,0}", "f32[128,8]{1,0}"});
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out << wrong.err;
  const Output bad = tilecheck({"bitcast", "--transpose", "0,0", "f32[8,128]{1,0}", "f32[128,8]{0,1}"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("is not a permutation"), std::string::npos) << bad.err;
}

}  // namespace
