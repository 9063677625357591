// The benchmark cases: the layouts runtimes pack most (TPU f32, bf16, s8, s4
// and pred formats, a ragged shape, a column-major one, a rank-4 one; a
// dense transpose and CNN activations blocked by channels), each
// with a smaller shape for the slow spec. Where oneDNN can express a
// layout, its blocked format comes from the layout (peers/onednn).
#pragma once

#include <cstdint>
#include <vector>

namespace tilecheck::bench {

struct Case {
  const char* name;
  const char* layout;
  const char* small_layout;  // for the spec
  // Whether the benchmark also runs it at 4x the last-level cache
  // (<name>_dram); off for the cases that exist to be measured in cache.
  bool dram_too = true;
};

inline const std::vector<Case>& cases() {
  static const std::vector<Case> v = {
      {"f32_8x128", "f32[4096,4096]{1,0:T(8,128)}", "f32[512,512]{1,0:T(8,128)}"},
      {"bf16_8x128_2x1", "bf16[4096,4096]{1,0:T(8,128)(2,1)}", "bf16[512,512]{1,0:T(8,128)(2,1)}"},
      {"s8_8x128_4x1", "s8[4096,4096]{1,0:T(8,128)(4,1)}", "s8[512,512]{1,0:T(8,128)(4,1)}"},
      {"s4_8x128_8x1", "s4[4096,4096]{1,0:T(8,128)(8,1)E(4)}", "s4[512,512]{1,0:T(8,128)(8,1)E(4)}"},
      {"pred_32x128_32x1", "pred[4096,4096]{1,0:T(32,128)(32,1)E(1)}",
       "pred[512,512]{1,0:T(32,128)(32,1)E(1)}"},
      {"f32_ragged", "f32[1000,1000]{1,0:T(8,128)}", "f32[500,500]{1,0:T(8,128)}"},
      {"f32_colmajor_8x128", "f32[4096,4096]{0,1:T(8,128)}", "f32[512,512]{0,1:T(8,128)}"},
      {"bf16_rank4", "bf16[8,64,96,200]{3,2,1,0:T(8,128)(2,1)}", "bf16[2,16,96,200]{3,2,1,0:T(8,128)(2,1)}"},
      // A dense transpose (libxsmm_otrans' task) and a CNN's blocked
      // activations, oneDNN's nChw16c and libxsmm's own format.
      {"f32_transpose", "f32[4096,4096]{0,1}", "f32[512,512]{0,1}"},
      // The same transpose for the other element widths (bf16 weights, s8
      // activations): on AVX-512 and AVX2, rows interleaved into 32-bit
      // lanes, then 16x16 32-bit transposes; elsewhere 8x8 and 16x16 blocks.
      {"bf16_transpose", "bf16[4096,4096]{0,1}", "bf16[512,512]{0,1}"},
      {"s8_transpose", "s8[4096,8192]{0,1}", "s8[512,512]{0,1}"},
      // and of 8-byte elements (f64, s64, c64): 8x8 64-bit transposes.
      {"f64_transpose", "f64[4096,2048]{0,1}", "f64[512,256]{0,1}"},
      {"f32_nchw16c", "f32[32,64,56,56]{3,2,1,0:T(16,1,1)}", "f32[2,32,14,14]{3,2,1,0:T(16,1,1)}"},
      // Where XLA's TransposePlan is strongest, so that the comparison with
      // it is not ours to choose: a plain transpose in the cache (4 MiB)
      // and two arrays of 64 KiB (in L2), one tiled, one transposed.
      {"f32_transpose_cache", "f32[1024,1024]{0,1}", "f32[256,256]{0,1}", false},
      {"f32_8x128_64k", "f32[128,128]{1,0:T(8,128)}", "f32[128,128]{1,0:T(8,128)}", false},
      {"f32_transpose_64k", "f32[128,128]{0,1}", "f32[128,128]{0,1}", false},
  };
  return v;
}

// The size sweep's cases (bench/tilecheck_bench.cc runs each from 16 KiB to
// 256 MiB): the layout's tiles, type and order; the dims are the sweep's.
struct SweepCase {
  const char* name;
  const char* layout;
};

inline const std::vector<SweepCase>& sweep_cases() {
  static const std::vector<SweepCase> v = {
      {"f32_8x128", "f32[8,512]{1,0:T(8,128)}"},
      {"bf16_8x128_2x1", "bf16[8,512]{1,0:T(8,128)(2,1)}"},
      {"s8_8x128_4x1", "s8[8,512]{1,0:T(8,128)(4,1)}"},
  };
  return v;
}

// Relayouts between two layouts of one array (bench/tilecheck_bench.cc,
// relayout/<name>): the TPU format changes a runtime makes, and changes of
// the physical-major dim (row-major tiles to column-major tiles, with and
// without sub-tiles; an untiled transposed array to tiles), which go block
// by block.
struct RelayoutCase {
  const char* name;
  const char* from;
  const char* to;
};

inline const std::vector<RelayoutCase>& relayout_cases() {
  static const std::vector<RelayoutCase> v = {
      {"bf16_8x128_to_2x1", "bf16[4096,4096]{1,0:T(8,128)}", "bf16[4096,4096]{1,0:T(8,128)(2,1)}"},
      {"s8_4x1_to_8x128", "s8[4096,4096]{1,0:T(8,128)(4,1)}", "s8[4096,4096]{1,0:T(8,128)}"},
      {"s4_8x1_to_8x128", "s4[4096,4096]{1,0:T(8,128)(8,1)E(4)}", "s4[4096,4096]{1,0:T(8,128)E(4)}"},
      {"f32_8x128_to_rowmajor", "f32[4096,4096]{1,0:T(8,128)}", "f32[4096,4096]{1,0}"},
      {"f32_8x128_to_colmajor", "f32[4096,4096]{1,0:T(8,128)}", "f32[4096,4096]{0,1:T(8,128)}"},
      {"bf16_2x1_to_colmajor", "bf16[4096,4096]{1,0:T(8,128)(2,1)}", "bf16[4096,4096]{0,1:T(8,128)(2,1)}"},
      {"s8_transposed_to_4x1", "s8[4096,8192]{0,1}", "s8[4096,8192]{1,0:T(8,128)(4,1)}"},
  };
  return v;
}

}  // namespace tilecheck::bench
