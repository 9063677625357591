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
      {"sub_tile_padding", "f32[5]{0:T(2)(4)}",
       "a second tile wider than the first: padding the first tile alone does not give"},
      {"odd_width", "u16[5,7]{1,0:T(2,4)E(12)}", "12-bit elements across bytes"},
      {"u2_tiled", "u2[6,10]{1,0:T(4,4)}", "2-bit elements"},
      {"c128_tiled", "c128[3,5]{1,0:T(2,2)}", "16-byte elements"},
      {"zero_size", "f32[0,130]{1,0:T(8,128)}", "a zero-size dim"},
  };
  return entries;
}

const std::vector<ParseCase>& parse_cases() {
  using enum ParseVerdict;
  static const std::vector<ParseCase> cases = {
      // Valid: XLA prints them, or reads them and prints them canonically.
      {"canonical", "f32[3,5]{1,0:T(2,2)}", kValid, "", "", "the canonical text of Figure 1"},
      {"case_and_spaces", "F32[3, 5]{1, 0:T(2, 2)}", kValid, "", "NonCanonicalText",
       "type names are case-insensitive; spaces between tokens"},
      {"comment", "f32[3,5] /*weights*/ {1,0:T(2,2)}", kValid, "", "NonCanonicalText",
       "a /*comment*/ between tokens"},
      {"no_braces", "f32[3,5]", kValid, "", "NonCanonicalText",
       "no braces: the default layout {1,0}"},
      {"xla_defaults", "f32[4]{0:D(D)T(2)L(1)S(0)M(0)}", kValid, "", "NonCanonicalText",
       "dense dim level types and XLA's defaults L(1), S(0), M(0) are read and not printed"},
      {"scalar", "f32[]", kValid, "", "", "a scalar without a layout"},
      {"scalar_tiled", "f32[]{:T(128)}", kValid, "", "",
       "a tile on a scalar: the shape is extended with dims of 1"},
      {"tile_rank_above", "f32[5]{0:T(2,2)}", kValid, "", "",
       "a tile of higher rank than the shape is valid: the shape is extended with leading "
       "dims of 1"},
      {"tile_rank_below", "f32[4,5,6]{2,1,0:T(2)}", kValid, "", "",
       "a tile of lower rank than the shape tiles the most minor dims only"},
      {"bounded_dynamic", "s32[<=4,8]{1,0}", kValid, "", "", "a bounded dynamic dim, sized at its bound"},
      {"sub_byte", "s4[9]{0}", kValid, "", "", "a 4-bit type without E(n): 4 bits per element"},
      {"sub_byte_wider", "s4[4]{0:E(8)}", kValid, "", "",
       "E(n) wider than a sub-byte type's width: one element per byte"},
      {"sub_byte_float", "f4e2m1fn[6]{0}", kValid, "", "", "a 4-bit float type"},
      {"combined_dims", "bf16[3,5,140]{2,1,0:T(2,*,128)(2,1)}", kValid, "", "",
       "'*' combines a dim with the next more minor one"},
      {"sub_tiles", "bf16[16,256]{1,0:T(8,128)(2,1)}", kValid, "", "",
       "repeated tiling as XLA prints it: one T and its tiles"},
      {"memory_space", "f32[4]{0:T(2)S(1)}", kValid, "", "", "S(n) is carried, no effect on sizes"},
      {"zero_size", "f32[0,130]{1,0:T(8,128)}", kValid, "", "", "a zero-size dim"},
      // Acceptable: XLA's layout validation takes them; some backends refuse.
      {"element_size_f32", "f32[3]{0:E(12)}", kAcceptable, "", "",
       "E(n) on a type that is not sub-byte: XLA's layout validation accepts it and tilecheck "
       "reads 12-bit elements; XLA's CPU and GPU backends reject custom element sizes on types "
       "that are not sub-byte"},
      {"element_size_s8", "s8[4]{0:E(8)}", kAcceptable, "", "",
       "E(n) equal to the natural width of a type that is not sub-byte: rejected by XLA's CPU "
       "and GPU backends like any E(n) there"},
      {"element_size_pred", "pred[10]{0:E(1)}", kAcceptable, "", "",
       "pred packed as bits: XLA's CPU and GPU backends reject an element size on pred, which "
       "is not a sub-byte type there"},
      // Invalid, with the kind of error.
      {"unclosed", "f32[3,5]{1,0:T(2,2)", kInvalid, "syntax", "", "the layout's brace is not closed"},
      {"trailing", "f32[3,5]{1,0:T(2,2)}x", kInvalid, "syntax", "", "text after the shape"},
      {"no_dims", "f32", kInvalid, "syntax", "", "a type without dims"},
      {"empty_text", "", kInvalid, "syntax", "", "nothing"},
      {"unknown_type", "f33[3]", kInvalid, "unknown_element_type", "", "no such type"},
      {"repeated_t", "f32[3,5]{1,0:T(2,2)T(2,1)}", kInvalid, "property_order", "",
       "XLA writes repeated tiling as T(..)(..), never T twice"},
      {"out_of_order", "f32[3]{0:E(4)T(2)}", kInvalid, "property_order", "",
       "properties come in XLA's order T L # * E S SC P M"},
      {"repeated_property", "f32[3]{0:S(1)S(2)}", kInvalid, "property_order", "",
       "a property given twice"},
      {"huge_number", "f32[99999999999999999999]", kInvalid, "number_too_large", "",
       "a dim that does not fit int64"},
      {"m2m_repeated", "f32[3,5]{0,0}", kInvalid, "minor_to_major_not_permutation", "",
       "minor-to-major lists a dim twice"},
      {"m2m_out_of_range", "f32[3,5]{1,2}", kInvalid, "minor_to_major_not_permutation", "",
       "minor-to-major names a dim the shape does not have"},
      {"m2m_short", "f32[3,5]{0}", kInvalid, "minor_to_major_length", "",
       "minor-to-major lists fewer dims than the rank"},
      {"m2m_on_scalar", "f32[]{0}", kInvalid, "minor_to_major_not_permutation", "",
       "minor-to-major on a scalar names a dim it does not have"},
      {"tile_zero", "f32[4]{0:T(0)}", kInvalid, "tile_entry_not_positive", "", "a tile entry 0"},
      {"tile_negative", "f32[4]{0:T(-2)}", kInvalid, "tile_entry_not_positive", "",
       "a negative tile entry"},
      {"sub_tile_zero", "f32[2]{0:T(2)(0)}", kInvalid, "tile_entry_not_positive", "",
       "a tile entry 0 in the second tile"},
      {"empty_tile", "f32[4]{0:T()}", kInvalid, "empty_tile", "", "a tile without entries"},
      {"combine_last", "f32[4,4]{1,0:T(2,*)}", kInvalid, "combine_last", "",
       "'*' as a tile's last entry combines with nothing"},
      {"combine_only", "f32[3]{0:T(*)}", kInvalid, "combine_last", "", "a tile of '*' only"},
      {"negative_dim", "f32[-1,4]", kInvalid, "negative_dim", "", "a dim below 0"},
      {"tail_padding_zero", "f32[4]{0:T(2)L(0)}", kInvalid, "tail_padding_below_one", "",
       "L(0) aligns to nothing"},
      {"element_size_zero", "s4[4]{0:E(0)}", kInvalid, "element_size_out_of_range", "",
       "E(0): elements of no bits"},
      {"element_size_129", "f32[4]{0:E(129)}", kInvalid, "element_size_out_of_range", "",
       "E(n) above 128 bits"},
      {"negative_memory_space", "f32[4]{0:S(-1)}", kInvalid, "negative_memory_space", "",
       "a memory space below 0"},
      {"negative_metadata", "f32[3]{0:T(2)M(-1)}", kInvalid, "negative_metadata", "",
       "M(n) below 0"},
      {"size_overflow", "f32[4611686018427387904,4]{1,0}", kInvalid, "size_overflow", "",
       "the element count overflows int64"},
      {"padding_overflow", "f32[9223372036854775807]{0:T(2)}", kInvalid, "size_overflow", "",
       "the padded count overflows int64 where the element count does not"},
      {"symbolic_dim", "f32[?,4]", kInvalid, "symbolic_dim", "",
       "an unbounded dynamic dim: no buffer size"},
      {"tuple", "(f32[2]{0}, f32[3]{0})", kInvalid, "not_an_array", "",
       "a tuple, not one array shape"},
      {"token", "token[]", kInvalid, "not_an_array", "", "a token, not an array"},
  };
  return cases;
}

}  // namespace tilecheck
