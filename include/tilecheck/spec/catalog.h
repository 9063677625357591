// The built-in catalogue of layouts that `tilecheck gate`, the tests, the
// proofs (`prove --catalog`) and the golden vectors share: the document's
// examples, values XLA's tests publish, and the TPU formats of DESIGN.md at
// several ranks and ragged sizes, with combined dims, permuted
// minor_to_major, tail padding, odd widths and zero-size dims.
//
// Every entry is small enough to check exhaustively (at most a few tens of
// thousands of elements).
#pragma once

#include <string_view>
#include <vector>

namespace tilecheck {

struct CatalogEntry {
  std::string_view name;    // short identifier, [a-z0-9_]
  std::string_view layout;  // canonical text (print_shape(parse_shape(layout)) == layout)
  std::string_view why;     // what the entry exercises
};

const std::vector<CatalogEntry>& catalog();

}  // namespace tilecheck
