// Arrays as files: the dense array of a layout (docs/PROTOCOL.md, "Dense
// buffers") or its physical buffer, as raw bytes or in numpy's .npy format
// (docs/FILES.md); and pack, unpack and relayout from one file to another
// over the impl's plans. `tilecheck pack`, `unpack` and `relayout` are front
// ends over this.
//
// Every input is checked before anything is written: its size exactly (raw:
// the dense or physical byte size; .npy: the header's dtype and shape
// against the layout, then the data's size), with an Error naming the file,
// what was expected and what was found. An output file is written to a
// temporary file in its directory and renamed into place only when complete,
// so a failure leaves no partial file and an existing file unchanged
// (standard output and what is not a regular file, such as /dev/null, are
// written in place, after every check).
//
// Memory: the input and the output are held whole, once each (relayout frees
// its source after unpacking it, so it too peaks at about the larger pair of
// source, dense array and destination).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::impl {
class IndexPlan;
}

namespace tilecheck::files {

enum class Format { kRaw, kNpy };

// "raw" or "npy"; throws Error for another name.
Format format_from_name(std::string_view name);

// A file operand: a path ("-" for standard input or output) and its format.
struct FileArg {
  std::string path;
  Format format = Format::kRaw;
};

// `given` when set, else .npy for a path ending in ".npy", else raw (so
// standard input and output are raw unless a format is given).
FileArg file_arg(std::string path, std::optional<Format> given);

// What a file holds: the dense array of a layout, or its physical buffer
// (in a .npy file, a one-dimensional '|u1' array of its bytes).
enum class Content { kDense, kPhysical };

// Reads the dense array or physical buffer of `plan`'s layout from `in`,
// checked as above. Throws Error.
std::vector<uint8_t> read_array(const FileArg& in, Content content, const impl::IndexPlan& plan);

// Writes `bytes`, the dense array or physical buffer of `plan`'s layout
// (their exact size), to `out`: atomically for a file. Throws Error.
void write_array(const FileArg& out, Content content, const impl::IndexPlan& plan,
                 std::span<const uint8_t> bytes);

// Dense array in `in` -> physical buffer of `shape` in `out`, padding zero.
// Pack reads only the low element_bits of each dense element (so a pred
// given as 2 packs as 0 under E(1)).
void pack_file(const ShapeWithLayout& shape, const FileArg& in, const FileArg& out);
// Physical buffer in `in` -> dense array in `out`.
void unpack_file(const ShapeWithLayout& shape, const FileArg& in, const FileArg& out);
// Physical buffer of `from` in `in` -> physical buffer of `to` in `out`.
// `from` and `to` must have the same dims and element type, and the same
// dense element bytes (their widths may differ there: pred in bytes and
// pred E(1)); each value keeps its low bits.
void relayout_file(const ShapeWithLayout& from, const ShapeWithLayout& to, const FileArg& in,
                   const FileArg& out);

}  // namespace tilecheck::files
