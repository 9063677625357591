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

// Texts a parser of layouts must accept or reject, for the parse tests of the
// golden vectors (docs/VECTORS.md, "Parse tests"). A text is valid when
// tilecheck's parser and validation accept it as one array shape with its
// layout; `acceptable` marks the texts XLA's layout validation accepts and
// some of its backends reject, which tilecheck accepts.
enum class ParseVerdict { kValid, kInvalid, kAcceptable };

struct ParseCase {
  std::string_view name;     // short identifier, [a-z0-9_], stable
  std::string_view text;     // the text as given to the parser
  ParseVerdict verdict;
  std::string_view error;    // kInvalid: the kind of error (docs/VECTORS.md lists them)
  std::string_view flags;    // space-separated flags of docs/VECTORS.md, "Flags"
  std::string_view why;      // what the case exercises
};

const std::vector<ParseCase>& parse_cases();

}  // namespace tilecheck
