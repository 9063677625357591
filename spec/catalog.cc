#include <tilecheck/spec/catalog.h>

namespace tilecheck {

const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> entries = {
      // The document.
      {"doc_figure1", "f32[3,5]{1,0:T(2,2)}", "Figure 1: 2x2 tiles with padding"},
      {"doc_figure2", "f32[4,8]{1,0:T(2,4)(2,1)}", "Figure 2: two levels"},
      {"doc_combined", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "combined dims"},
      {"doc_merged", "f32[112,110]{1,0:T(2,3)}", "what doc_combined equals"},
      // Values XLA's tests publish.
      {"xla_bf16_three_levels", "bf16[2048]{0:T(1024)(128)(2,1)}", "three levels, rank 1"},
      {"xla_bf16_rank3", "bf16[2,8,128]{2,1,0:T(8,128)(2,1)}", "TPU bf16, rank 3"},
      {"xla_cross_tile", "f32[8,8]{1,0:T(2,4)(2,1,1,1)}", "second tile reaches cross-tile dims"},
      {"xla_small_dims", "f32[28,1,1]{2,1,0:T(2,128)}", "tile longer than the dims"},
      // Untiled.
      {"row_major", "f32[3,5]{1,0}", "untiled, row-major"},
      {"column_major", "f32[3,5]{0,1}", "untiled, column-major"},
      {"scalar_tiled", "f32[]{:T(128)}", "a scalar padded to a tile (D3)"},
      {"rank1_extended", "f32[3]{0:T(2,128)}", "rank 1 under a rank-2 tile (D3)"},
      // TPU: 32-bit (8,128).
      {"tpu_f32", "f32[16,256]{1,0:T(8,128)}", "TPU 32-bit tile"},
      {"tpu_f32_ragged", "f32[13,300]{1,0:T(8,128)}", "ragged in both dims"},
      {"tpu_f32_rank3", "f32[3,9,130]{2,1,0:T(8,128)}", "rank 3, ragged"},
      {"tpu_f32_rank4", "f32[2,3,17,129]{3,2,1,0:T(8,128)}", "rank 4, ragged"},
      {"tpu_f32_rank6", "f32[2,3,1,2,9,130]{5,4,3,2,1,0:T(8,128)}", "rank 6"},
      {"tpu_f32_colmajor", "f32[130,9]{0,1:T(8,128)}", "tiles over a transposed order"},
      {"tpu_f32_permuted", "f32[3,4,5,6]{1,3,0,2:T(4,8)}", "non-monotone minor_to_major"},
      // TPU: small second-minor dims.
      {"tpu_small_2x128", "f32[2,200]{1,0:T(2,128)}", "second-minor 2"},
      {"tpu_small_1x128", "f32[1,5]{1,0:T(2,128)}", "second-minor 1"},
      {"tpu_small_4x128", "f32[3,130]{1,0:T(4,128)}", "second-minor 3"},
      // TPU: 16-bit (8,128)(2,1).
      {"tpu_bf16", "bf16[16,256]{1,0:T(8,128)(2,1)}", "16-bit row pairs"},
      {"tpu_bf16_ragged", "bf16[17,333]{1,0:T(8,128)(2,1)}", "16-bit, ragged"},
      {"tpu_bf16_rank4", "bf16[2,3,9,129]{3,2,1,0:T(8,128)(2,1)}", "16-bit, rank 4"},
      {"tpu_bf16_combined", "bf16[3,5,140]{2,1,0:T(2,*,128)(2,1)}", "combined dims, two levels"},
      // TPU: 8-bit (8,128)(4,1), 4-bit (8,128)(8,1), 1-bit (32,128)(32,1).
      {"tpu_s8", "s8[32,256]{1,0:T(8,128)(4,1)}", "8-bit row quads"},
      {"tpu_s8_ragged", "s8[19,129]{1,0:T(8,128)(4,1)}", "8-bit, ragged"},
      {"tpu_s4", "s4[16,256]{1,0:T(8,128)(8,1)E(4)}", "4-bit, packed two per byte"},
      {"tpu_s4_ragged", "s4[20,200]{1,0:T(8,128)(8,1)E(4)}", "4-bit, ragged"},
      {"tpu_pred_bits", "pred[64,256]{1,0:T(32,128)(32,1)E(1)}", "1-bit, compact"},
      {"tpu_pred_bits_ragged", "pred[33,130]{1,0:T(32,128)(32,1)E(1)}", "1-bit, ragged"},
      {"tpu_pred_bytes", "pred[5,7]{1,0:T(8,128)}", "pred stored in bytes"},
      // Other shapes of the semantics.
      {"combined_rank5", "s8[2,3,4,5,6]{4,3,2,1,0:T(*,4,*,8)}", "two combined groups"},
      {"tail_padding", "f32[3,5]{1,0:T(2,2)L(32)}", "L(n) rounds the count up"},
      {"odd_width", "u16[5,7]{1,0:T(2,4)E(12)}", "12-bit elements across bytes"},
      {"u2_tiled", "u2[6,10]{1,0:T(4,4)}", "2-bit elements"},
      {"c128_tiled", "c128[3,5]{1,0:T(2,2)}", "16-byte elements"},
      {"zero_size", "f32[0,130]{1,0:T(8,128)}", "a zero-size dim"},
  };
  return entries;
}

}  // namespace tilecheck
