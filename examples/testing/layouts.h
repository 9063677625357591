// A small library of hand-written layout code, as a runtime team has it:
// the detile (unpack) of TPU bf16 weights and the pack of TPU s4 weights.
// Built twice by this project: as written, and with
// TESTING_EXAMPLE_BROKEN defined, with the bug each would have if written
// in a hurry (the bf16 sub-tile forgotten, the s4 nibbles swapped).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace layouts {

// bf16[rows,cols]{1,0:T(8,128)(2,1)}: the physical buffer (tiles of 8x128
// over the dims padded to whole tiles, each tile's row pairs interleaved)
// to the dense row-major array.
std::vector<uint16_t> detile_bf16(std::span<const uint16_t> packed, int rows, int cols);

// s4[rows,cols]{1,0:T(8,128)(8,1)E(4)}: the dense array (one value per
// byte, -8..7) to the physical buffer (tiles of 8x128, each column's 8 rows
// in 4 bytes, the first value in the low nibble), padding zero.
std::vector<uint8_t> pack_s4(std::span<const int8_t> dense, int rows, int cols);

}  // namespace layouts
