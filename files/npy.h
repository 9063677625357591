// numpy's .npy format, as far as arrays of fixed-size little-endian elements
// need it: the preamble (magic, format version, header length) and the
// header, a Python dict literal with 'descr', 'fortran_order' and 'shape';
// and the dtype a dense array of each layout has in such a file
// (docs/FILES.md, "The dtype of a dense array").
//
// Reading is strict: format versions 1.0, 2.0 and 3.0, exactly the three
// keys, each once, a string descr (no structured dtypes), a tuple of
// integers as the shape. Every problem is an Error whose message says what
// was expected and what was found (the caller adds the file's name).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::files {

struct NpyHeader {
  std::string descr;  // '<f4', '|u1', '|V3', ...
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// The bytes in front of the data: magic, version 1.0 (2.0 when the header
// does not fit 1.0's 16-bit length), header length, and the dict as numpy
// writes it, padded with spaces and ended by '\n' so that the data starts at
// a multiple of 64 bytes.
std::string npy_preamble(const NpyHeader& header);

// Reads the preamble through `read` (which fills up to n bytes at `to` and
// returns how many it filled, fewer only at the end of the input) and
// returns the header; `preamble_bytes` is set to the preamble's length.
NpyHeader read_npy_preamble(const std::function<size_t(uint8_t* to, size_t n)>& read,
                            int64_t& preamble_bytes);

// Parses the header dict alone (the text between the length field and the
// data, trailing spaces and '\n' included).
NpyHeader parse_npy_header(std::string_view text);

// "(3, 5)", "(7,)", "()": a shape as Python prints a tuple.
std::string python_tuple(const std::vector<int64_t>& shape);

// The dtype of the dense array of `shape` (docs/FILES.md): the element
// type's own dtype when the layout keeps its natural width ('<f4', '|b1',
// '|i1' for s4), else an integer of the dense element's bytes ('<u2',
// signed for a signed type) or '|V<k>' when no numpy integer has k bytes.
std::string dense_dtype(const ShapeWithLayout& shape);

// The dtype of a physical buffer in a .npy file: one-dimensional, bytes.
inline constexpr std::string_view kPhysicalDtype = "|u1";

// Whether `found` (a descr read from a file) is `expected` (as dense_dtype
// writes it), the byte-order mark aside where it makes no difference: '<',
// '=' (this host is little-endian) and '|' are accepted; '>' only for
// one-byte items. Throws Error saying what differs, naming `what`
// ("the dense array of f32[3,5]{1,0}") as the owner of `expected`.
void check_dtype(std::string_view found, std::string_view expected, std::string_view what);

}  // namespace tilecheck::files
