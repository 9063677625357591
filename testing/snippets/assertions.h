// What docs/TESTING.md's "assertions" program leaves to the user: a dense
// bf16 array counting from 1 and an index function, correct. The page
// defines my_pack_bf16 after the test that calls it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

std::vector<uint16_t> my_pack_bf16(const std::vector<uint16_t>& dense, int rows, int cols);

inline std::vector<uint16_t> counting_bf16(int n) {
  std::vector<uint16_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<uint16_t>(i + 1);
  return v;
}

// f32[3,5]{1,0:T(2,2)}: 2x2 tiles in row-major order, three per row of tiles.
inline int64_t my_index(int r, int c) { return ((r / 2) * 3 + c / 2) * 4 + (r % 2) * 2 + c % 2; }
