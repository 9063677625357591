// `tilecheck pack`, `unpack` and `relayout` run as a user runs them, on raw
// and .npy files: every catalogue layout round-trips, the bytes are the
// spec's, each bad input is exit 2 with one "error:" line and no output
// file (an existing one untouched), standard input and output work.
//
// The .npy files given to the command are built here, and its .npy files
// read here, with this file's own code and dtype table (docs/FILES.md), not
// with the command's: the two must agree on the format.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/model.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include "tests/run_tilecheck.h"

namespace {

using namespace tilecheck::cli_testing;
using tilecheck::cli_testing::tilecheck;  // the function, over the namespace
using tilecheck::ShapeWithLayout;
namespace spec = tilecheck::spec;
namespace fs = std::filesystem;

using Bytes = std::vector<uint8_t>;

const std::string kFigure1 = "f32[3,5]{1,0:T(2,2)}";
constexpr int64_t kLargestDense = int64_t{64} << 20;  // a larger catalogue entry would be left out

// The dtype of each element type's dense array at its natural width
// (docs/FILES.md, "The dtype of a dense array").
const std::map<std::string, std::string>& natural_dtypes() {
  static const std::map<std::string, std::string> table = {
      {"pred", "|b1"},     {"s1", "|i1"},       {"s2", "|i1"},          {"s4", "|i1"},
      {"s8", "|i1"},       {"s16", "<i2"},      {"s32", "<i4"},         {"s64", "<i8"},
      {"u1", "|u1"},       {"u2", "|u1"},       {"u4", "|u1"},          {"u8", "|u1"},
      {"u16", "<u2"},      {"u32", "<u4"},      {"u64", "<u8"},         {"f16", "<f2"},
      {"bf16", "<u2"},     {"f32", "<f4"},      {"f64", "<f8"},         {"c64", "<c8"},
      {"c128", "<c16"},    {"f8e5m2", "|u1"},   {"f8e4m3", "|u1"},      {"f8e4m3fn", "|u1"},
      {"f8e4m3b11fnuz", "|u1"}, {"f8e5m2fnuz", "|u1"}, {"f8e4m3fnuz", "|u1"}, {"f8e3m4", "|u1"},
      {"f8e8m0fnu", "|u1"}, {"f4e2m1fn", "|u1"},
  };
  return table;
}

// The table's rule: the natural dtype at the natural width (pred: in one
// byte), else an integer of the dense element's bytes, else raw bytes.
std::string expected_dtype(const ShapeWithLayout& shape) {
  const std::string name(tilecheck::element_type_name(shape.type));
  const int64_t bytes = shape.dense_element_bytes();
  if (shape.element_bits() == tilecheck::natural_bit_width(shape.type) ||
      (name == "pred" && bytes == 1)) {
    return natural_dtypes().at(name);
  }
  const std::string kind = name[0] == 's' ? "i" : "u";
  if (bytes == 1) return "|" + kind + "1";
  if (bytes == 2 || bytes == 4 || bytes == 8) return "<" + kind + std::to_string(bytes);
  return "|V" + std::to_string(bytes);
}

std::string shape_tuple(const std::vector<int64_t>& dims) {
  std::string text = "(";
  for (size_t i = 0; i < dims.size(); ++i) text += (i > 0 ? ", " : "") + std::to_string(dims[i]);
  if (dims.size() == 1) text += ",";
  return text + ")";
}

std::string header_dict(const std::string& descr, const std::vector<int64_t>& dims) {
  return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_tuple(dims) + ", }";
}

// A .npy file: `dict` padded with spaces to `align` bytes in all, format
// version `major`.0 (a 2-byte header length for 1.0, 4 bytes otherwise).
std::string npy(const std::string& dict, const Bytes& data, int major = 1, size_t align = 64) {
  const size_t length_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((8 + length_bytes + header.size() + 1) % align != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < length_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + std::string(data.begin(), data.end());
}

// What a .npy file written by tilecheck holds: version 1.0, the data
// 64-byte aligned, the dict exactly as numpy writes it.
struct NpyContents {
  std::string dict;  // without the padding and '\n'
  Bytes data;
};
NpyContents read_npy(const std::string& file) {
  NpyContents c;
  EXPECT_GE(file.size(), 10u);
  if (file.size() < 10) return c;
  EXPECT_EQ(file.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t length = static_cast<uint8_t>(file[8]) | static_cast<uint8_t>(file[9]) << 8;
  EXPECT_EQ((10 + length) % 64, 0u);
  EXPECT_LE(10 + length, file.size());
  const std::string header = file.substr(10, length);
  EXPECT_EQ(header.back(), '\n');
  c.dict = header.substr(0, header.find_last_not_of(" \n") + 1);
  c.data.assign(file.begin() + std::min(file.size(), 10 + length), file.end());
  return c;
}

Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }

// Random dense data in the canonical form unpack returns (pred 0 or 1).
Bytes random_dense(const ShapeWithLayout& shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Bytes dense(spec::dense_byte_size(shape));
  for (uint8_t& b : dense) b = static_cast<uint8_t>(rng());
  if (shape.type == tilecheck::ElementType::kPred) {
    for (uint8_t& b : dense) b &= 1;
  }
  return spec::canonical_dense(shape, std::move(dense));
}

// A fresh directory per test, removed afterwards.
class Files : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = testing::TempDir() + "tilecheck_buffers_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  std::string write(const std::string& name, const std::string& contents) const {
    std::ofstream(path(name), std::ios::binary) << contents;
    return path(name);
  }
  std::string write(const std::string& name, const Bytes& contents) const {
    return write(name, std::string(contents.begin(), contents.end()));
  }
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  // Runs a command that must fail on bad input: exit 2, one "error:" line
  // that contains `message`, and no file left in the directory but those
  // there before (an existing output unchanged).
  void expect_rejected(const std::vector<std::string>& args, const std::string& message,
                       const std::string& stdin_path = "") {
    const std::vector<std::string> before = listing();
    std::map<std::string, std::string> contents;
    for (const std::string& name : before) contents[name] = read_file(path(name));
    const Output r = run_binary(TILECHECK_BINARY, args, stdin_path);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << "expected '" << message << "' in " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(listing(), before) << "a file was left behind";
    for (const auto& [name, text] : contents) EXPECT_EQ(read_file(path(name)), text) << name;
  }

  std::string dir_;
};

TEST_F(Files, EveryCatalogueLayoutPacksLikeTheSpecAndRoundTripsThroughNpy) {
  uint64_t seed = 1;
  for (const tilecheck::CatalogEntry& entry : tilecheck::catalog()) {
    SCOPED_TRACE(entry.name);
    const std::string layout(entry.layout);
    const ShapeWithLayout shape = tilecheck::parse_shape(layout);
    // Every entry is small; one past 64 MiB of dense data would be left
    // out here rather than shrunk to other dims.
    if (spec::dense_byte_size(shape) > kLargestDense) {
      ADD_FAILURE() << layout << " has a dense array above 64 MiB: this test would need a change";
      continue;
    }
    const Bytes dense = random_dense(shape, seed++);
    const Bytes packed = spec::pack(shape, dense);
    const std::string dict = header_dict(expected_dtype(shape), shape.dims);

    const std::string dense_npy = write("dense.npy", npy(dict, dense));
    expect_ok(tilecheck({"pack", layout, "-i", dense_npy, "-o", path("packed.npy")}));
    const NpyContents physical = read_npy(read_file(path("packed.npy")));
    EXPECT_EQ(physical.dict, header_dict("|u1", {spec::byte_size(shape)}));
    EXPECT_EQ(physical.data, packed);

    expect_ok(tilecheck({"unpack", layout, "-i", path("packed.npy"), "-o", path("unpacked.npy")}));
    const NpyContents unpacked = read_npy(read_file(path("unpacked.npy")));
    EXPECT_EQ(unpacked.dict, dict);
    EXPECT_EQ(unpacked.data, dense);
    EXPECT_EQ(read_file(path("unpacked.npy")), read_file(dense_npy));

    // Raw files hold the same bytes as the .npy files' data.
    const std::string dense_raw = write("dense.bin", dense);
    expect_ok(tilecheck({"pack", layout, "-i", dense_raw, "-o", path("packed.bin")}));
    EXPECT_EQ(bytes_of(read_file(path("packed.bin"))), packed);
    expect_ok(tilecheck({"unpack", layout, "-i", path("packed.bin"), "-o", path("unpacked.bin")}));
    EXPECT_EQ(bytes_of(read_file(path("unpacked.bin"))), dense);
  }
}

TEST_F(Files, EveryElementTypeHasItsDtype) {
  for (const tilecheck::ElementType type : tilecheck::all_element_types()) {
    const std::string name(tilecheck::element_type_name(type));
    SCOPED_TRACE(name);
    ASSERT_EQ(natural_dtypes().count(name), 1u) << "docs/FILES.md and this table lack " << name;
    const std::string layout = name + "[2,3]{0,1}";
    const ShapeWithLayout shape = tilecheck::parse_shape(layout);
    const Bytes dense = random_dense(shape, 7);
    const std::string dict = header_dict(natural_dtypes().at(name), {2, 3});
    write("in.npy", npy(dict, dense));
    expect_ok(tilecheck({"pack", layout, "-i", path("in.npy"), "-o", path("packed.bin")}));
    EXPECT_EQ(bytes_of(read_file(path("packed.bin"))), spec::pack(shape, dense));
    expect_ok(tilecheck({"unpack", layout, "-i", path("packed.bin"), "-o", path("out.npy")}));
    const NpyContents out = read_npy(read_file(path("out.npy")));
    EXPECT_EQ(out.dict, dict);
    EXPECT_EQ(out.data, dense);
  }
}

TEST_F(Files, WidthsOtherThanTheNaturalOneHaveIntegerOrVoidDtypes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"f32[4]{0:E(16)}", "<u2"},   {"s32[4]{0:E(12)}", "<i2"},  {"f32[4]{0:E(24)}", "|V3"},
      {"pred[4]{0:E(1)}", "|b1"},   {"s8[4]{0:E(4)}", "|i1"},    {"u16[4]{0:E(12)}", "<u2"},
      {"f64[4]{0:E(128)}", "|V16"}, {"c64[4]{0:E(32)}", "<u4"},  {"s64[4]{0:E(40)}", "|V5"},
      {"bf16[4]{0:E(8)}", "|u1"},   {"s4[4]{0:E(2)}", "|i1"},    {"u8[4]{0:E(64)}", "<u8"},
  };
  for (const auto& [layout, descr] : cases) {
    SCOPED_TRACE(layout);
    const ShapeWithLayout shape = tilecheck::parse_shape(layout);
    EXPECT_EQ(expected_dtype(shape), descr);
    const Bytes dense = random_dense(shape, 3);
    write("in.npy", npy(header_dict(descr, {4}), dense));
    expect_ok(tilecheck({"pack", layout, "-i", path("in.npy"), "-o", path("p.bin")}));
    EXPECT_EQ(bytes_of(read_file(path("p.bin"))), spec::pack(shape, dense));
    expect_ok(tilecheck({"unpack", layout, "-i", path("p.bin"), "-o", path("out.npy")}));
    EXPECT_EQ(read_npy(read_file(path("out.npy"))).dict, header_dict(descr, {4}));
  }
}

// Relayout A -> B is pack(B, unpack(A)), with garbage in A's padding.
TEST_F(Files, RelayoutEqualsPackOfUnpack) {
  std::mt19937_64 rng(5);
  for (const tilecheck::CatalogEntry& entry : tilecheck::catalog()) {
    SCOPED_TRACE(entry.name);
    const ShapeWithLayout from = tilecheck::parse_shape(entry.layout);
    // Two targets: untiled row-major, and the catalogue's own layout again.
    ShapeWithLayout untiled = from;
    untiled.layout = tilecheck::default_layout(from.rank());
    untiled.layout.element_size_bits = from.layout.element_size_bits;
    for (const ShapeWithLayout& to : {untiled, from}) {
      Bytes source(spec::byte_size(from));
      for (uint8_t& b : source) b = static_cast<uint8_t>(rng());
      const Bytes expected = spec::pack(to, spec::unpack(from, source));
      write("a.bin", source);
      expect_ok(tilecheck({"relayout", std::string(entry.layout), tilecheck::print_shape(to), "-i",
                           path("a.bin"), "-o", path("b.npy")}));
      const NpyContents b = read_npy(read_file(path("b.npy")));
      EXPECT_EQ(b.dict, header_dict("|u1", {spec::byte_size(to)}));
      EXPECT_EQ(b.data, expected);
    }
  }
  // Between two tiled layouts of the catalogue, and pred in bytes to bits.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"f32[112,110]{1,0:T(2,3)}", "f32[112,110]{0,1:T(8,128)}"},
      {"pred[33,130]{1,0:T(8,128)}", "pred[33,130]{1,0:T(32,128)(32,1)E(1)}"},
      {"pred[33,130]{1,0:T(32,128)(32,1)E(1)}", "pred[33,130]{1,0:T(8,128)}"},
  };
  for (const auto& [a, b] : pairs) {
    SCOPED_TRACE(a + " -> " + b);
    const ShapeWithLayout from = tilecheck::parse_shape(a), to = tilecheck::parse_shape(b);
    const Bytes source = spec::pack(from, random_dense(from, 11));
    write("a.npy", npy(header_dict("|u1", {spec::byte_size(from)}), source));
    expect_ok(tilecheck({"relayout", a, b, "-i", path("a.npy"), "-o", path("b.bin")}));
    EXPECT_EQ(bytes_of(read_file(path("b.bin"))), spec::pack(to, spec::unpack(from, source)));
  }
}

TEST_F(Files, StandardInputAndOutput) {
  const ShapeWithLayout shape = tilecheck::parse_shape(kFigure1);
  const Bytes dense = random_dense(shape, 2), packed = spec::pack(shape, dense);
  write("dense.bin", dense);
  Output r = run_binary(TILECHECK_BINARY, {"pack", kFigure1}, path("dense.bin"));
  expect_ok(r);
  EXPECT_EQ(bytes_of(r.out), packed);
  r = run_binary(TILECHECK_BINARY, {"pack", kFigure1, "-i", "-", "-o", "-", "--out-format", "npy"},
                 path("dense.bin"));
  expect_ok(r);
  EXPECT_EQ(read_npy(r.out).data, packed);
  write("packed.npy", npy(header_dict("|u1", {96}), packed));
  r = run_binary(TILECHECK_BINARY, {"unpack", kFigure1, "--format", "npy"}, path("packed.npy"));
  expect_ok(r);
  EXPECT_EQ(read_npy(r.out).dict, header_dict("<f4", {3, 5}));
  EXPECT_EQ(read_npy(r.out).data, dense);
  r = run_binary(TILECHECK_BINARY, {"relayout", kFigure1, "f32[3,5]{0,1}", "--in-format", "npy"},
                 path("packed.npy"));
  expect_ok(r);
  EXPECT_EQ(bytes_of(r.out), spec::pack(tilecheck::parse_shape("f32[3,5]{0,1}"), dense));
}

TEST_F(Files, FormatFlagsOverrideTheFileName) {
  const ShapeWithLayout shape = tilecheck::parse_shape(kFigure1);
  const Bytes dense = random_dense(shape, 4);
  write("dense.npy", dense);  // raw bytes under a .npy name
  expect_ok(tilecheck({"pack", kFigure1, "-i", path("dense.npy"), "--in-format", "raw", "-o",
                       path("packed.dat"), "--out-format", "npy"}));
  EXPECT_EQ(read_npy(read_file(path("packed.dat"))).data, spec::pack(shape, dense));
  expect_ok(tilecheck({"unpack", kFigure1, "--format", "raw", "-i", path("packed.dat"),
                       "--in-format", "npy", "-o", path("dense.out")}));
  EXPECT_EQ(bytes_of(read_file(path("dense.out"))), dense);
}

// The header forms numpy and other writers produce: versions 2.0 and 3.0,
// 16-byte alignment (older numpy), keys in any order and double quotes,
// '=' and '|' byte-order marks, a scalar and a one-dim shape.
TEST_F(Files, ReadsEveryHeaderFormNumpyWrites) {
  const ShapeWithLayout shape = tilecheck::parse_shape(kFigure1);
  const Bytes dense = random_dense(shape, 6), packed = spec::pack(shape, dense);
  const std::vector<std::string> inputs = {
      npy(header_dict("<f4", {3, 5}), dense, 2),
      npy(header_dict("<f4", {3, 5}), dense, 3),
      npy(header_dict("<f4", {3, 5}), dense, 1, 16),
      npy("{\"shape\": (3,5), \"descr\": \"=f4\", \"fortran_order\": False}", dense),
      npy("{'descr':'<f4','fortran_order':False,'shape':(3,5)}", dense),
  };
  for (const std::string& input : inputs) {
    write("in.npy", input);
    expect_ok(tilecheck({"pack", kFigure1, "-i", path("in.npy"), "-o", path("out.bin")}));
    EXPECT_EQ(bytes_of(read_file(path("out.bin"))), packed);
  }
  // A scalar, and fortran_order True where it changes nothing (one dim).
  write("s.npy", npy("{'descr': '|i1', 'fortran_order': False, 'shape': (), }", {0xfe}));
  expect_ok(tilecheck({"pack", "s4[]", "-i", path("s.npy"), "-o", path("s.bin")}));
  EXPECT_EQ(bytes_of(read_file(path("s.bin"))), Bytes{0x0e});
  write("v.npy", npy("{'descr': '|u1', 'fortran_order': True, 'shape': (3,), }", {1, 2, 3}));
  expect_ok(tilecheck({"pack", "u8[3]{0:T(4)}", "-i", path("v.npy"), "-o", path("v.bin")}));
  EXPECT_EQ(bytes_of(read_file(path("v.bin"))), (Bytes{1, 2, 3, 0}));
}

TEST_F(Files, WrongSizesAreRejected) {
  write("short.bin", Bytes(59));
  expect_rejected({"pack", kFigure1, "-i", path("short.bin"), "-o", path("out.bin")},
                  "input '" + path("short.bin") + "': 59 bytes, but the dense array of " + kFigure1 +
                      " (15 elements of 4 bytes) takes 60 bytes");
  write("long.bin", Bytes(61));
  expect_rejected({"pack", kFigure1, "-i", path("long.bin"), "-o", path("out.bin")}, "61 bytes");
  expect_rejected({"unpack", kFigure1, "-i", path("long.bin"), "-o", path("out.bin")},
                  "61 bytes, but the physical buffer of " + kFigure1 +
                      " (24 positions of 32 bits) takes 96 bytes");
  expect_rejected({"relayout", kFigure1, "f32[3,5]{1,0}", "-i", path("long.bin"), "-o", path("o.bin")},
                  "takes 96 bytes");
  // On standard input the size is known only once everything is read.
  expect_rejected({"pack", kFigure1}, "standard input: 61 bytes", path("long.bin"));
  expect_rejected({"pack", kFigure1, "-o", path("out.bin")}, "standard input: 59 bytes",
                  path("short.bin"));
  // A .npy file given as raw says so.
  write("a.npy", npy(header_dict("<f4", {3, 5}), Bytes(60)));
  expect_rejected({"pack", kFigure1, "-i", path("a.npy"), "--format", "raw", "-o", path("out.bin")},
                  "it starts like a .npy file: --in-format npy reads it as one");
}

TEST_F(Files, BadNpyInputsAreRejected) {
  const Bytes dense(60);
  const auto rejects = [&](const std::string& contents, const std::string& message) {
    write("in.npy", contents);
    expect_rejected({"pack", kFigure1, "-i", path("in.npy"), "-o", path("out.npy")}, message);
  };
  rejects(npy(header_dict("<f8", {3, 5}), Bytes(120)),
          "dtype '<f8', but the dense array of " + kFigure1 + " (15 elements of 4 bytes) has dtype '<f4'");
  rejects(npy(header_dict(">f4", {3, 5}), dense), "dtype '>f4' is big-endian");
  rejects(npy(header_dict("<i4", {3, 5}), dense), "has dtype '<f4'");
  rejects(npy(header_dict("<f4", {5, 3}), dense), "shape (5, 3), but the dense array of");
  rejects(npy(header_dict("<f4", {15}), dense), "has shape (3, 5)");
  rejects(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 5), }", dense),
          "fortran_order is True");
  rejects(npy(header_dict("<f4", {3, 5}), Bytes(59)),
          "59 bytes after its 128-byte .npy header, but the dense array of");
  rejects(npy(header_dict("<f4", {3, 5}), Bytes(61)), "61 bytes after its 128-byte .npy header");
  rejects(npy(header_dict("<f4", {3, 5}), dense).substr(0, 40), "the .npy header is truncated");
  rejects("\x93NUMPY", "the .npy file ends inside its format version");
  rejects("PK\x03\x04 not an npy file", "not a .npy file");
  rejects(std::string("\x93NUMPY\x04\x00", 8) + std::string(60, ' '), ".npy format version 4.0");
  rejects(npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3, 5), }", dense),
          "a structured dtype");
  rejects(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), 'x': 1, }", dense),
          "unknown key 'x'");
  rejects(npy("{'descr': '<f4', 'shape': (3, 5), }", dense), "the key 'fortran_order' is missing");
  rejects(npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }", dense),
          "the key 'descr' appears twice");
  rejects(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5L), }", dense),
          "expected ',' or ')' in the shape");
  rejects(npy("{'descr': '<f4', 'fortran_order': false, 'shape': (3, 5), }", dense),
          "expected True or False");
  // A physical buffer in a .npy file is 1-D bytes of exactly its size.
  const auto rejects_physical = [&](const std::string& contents, const std::string& message) {
    write("p.npy", contents);
    expect_rejected({"unpack", kFigure1, "-i", path("p.npy"), "-o", path("out.npy")}, message);
  };
  rejects_physical(npy(header_dict("<f4", {24}), Bytes(96)), "has dtype '|u1'");
  rejects_physical(npy(header_dict("|u1", {95}), Bytes(95)),
                   "shape (95,), but the physical buffer of " + kFigure1 +
                       " (24 positions of 32 bits) has shape (96,)");
  rejects_physical(npy(header_dict("|u1", {96}), Bytes(90)), "90 bytes after its");
}

TEST_F(Files, UnreadableInputsAndUnwritableOutputsAreRejected) {
  expect_rejected({"pack", kFigure1, "-i", path("missing.bin"), "-o", path("out.bin")},
                  "cannot open input '" + path("missing.bin") + "': No such file or directory");
  fs::create_directory(path("subdir"));
  expect_rejected({"pack", kFigure1, "-i", path("subdir"), "-o", path("out.bin")},
                  "it is a directory");
  write("dense.bin", Bytes(60));
  expect_rejected({"pack", kFigure1, "-i", path("dense.bin"), "-o", path("subdir")},
                  "cannot write output '" + path("subdir") + "': it is a directory");
  expect_rejected({"pack", kFigure1, "-i", path("dense.bin"), "-o", path("nowhere/out.bin")},
                  "cannot write output '" + path("nowhere/out.bin") + "': cannot create a file in");
  expect_rejected({"pack", "f32[3,5]{1,0:T(2,0)}", "-i", path("dense.bin"), "-o", path("out.bin")},
                  "tile entry 0 must be >= 1");
  // A usage error adds CLI11's pointer to --help.
  const Output r = tilecheck({"pack", kFigure1, "-i", path("dense.bin"), "--format", "csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("error: --format: csv not in {raw,npy}", 0), 0u) << r.err;
}

TEST_F(Files, RelayoutNeedsTheSameDimsAndElementType) {
  write("a.bin", Bytes(96));
  expect_rejected({"relayout", kFigure1, "f32[5,3]{1,0}", "-i", path("a.bin"), "-o", path("b.bin")},
                  "the dims differ, (3,5) and (5,3)");
  expect_rejected({"relayout", kFigure1, "s32[3,5]{1,0}", "-i", path("a.bin"), "-o", path("b.bin")},
                  "the element types differ, f32 and s32");
  expect_rejected({"relayout", kFigure1, "f32[3,5]{1,0:E(16)}", "-i", path("a.bin"), "-o",
                   path("b.bin")},
                  "the element widths, 32 and 16 bits, give dense elements of different sizes");
}

TEST_F(Files, AFailureKeepsAnExistingOutputAndASuccessReplacesIt) {
  write("out.bin", std::string("keep me"));
  chmod(path("out.bin").c_str(), 0640);
  write("short.bin", Bytes(10));
  expect_rejected({"pack", kFigure1, "-i", path("short.bin"), "-o", path("out.bin")}, "10 bytes");
  EXPECT_EQ(read_file(path("out.bin")), "keep me");
  write("dense.bin", Bytes(60, 1));
  expect_ok(tilecheck({"pack", kFigure1, "-i", path("dense.bin"), "-o", path("out.bin")}));
  EXPECT_EQ(read_file(path("out.bin")).size(), 96u);
  struct stat st {};
  ASSERT_EQ(stat(path("out.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "the replaced file keeps its permissions";
  EXPECT_EQ(listing(), (std::vector<std::string>{"dense.bin", "out.bin", "short.bin"}));
  // The output may be the input.
  expect_ok(tilecheck({"unpack", kFigure1, "-i", path("out.bin"), "-o", path("out.bin")}));
  EXPECT_EQ(bytes_of(read_file(path("out.bin"))), Bytes(60, 1));
}

// What is not a regular file is written in place: /dev/null stays a
// device; a symbolic link stays a link, its target replaced.
TEST_F(Files, DevicesAndSymbolicLinksAreWrittenThrough) {
  write("dense.bin", Bytes(60, 2));
  expect_ok(tilecheck({"pack", kFigure1, "-i", path("dense.bin"), "-o", "/dev/null"}));
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  write("target.bin", std::string("old"));
  fs::create_symlink(path("target.bin"), path("link.bin"));
  expect_ok(tilecheck({"pack", kFigure1, "-i", path("dense.bin"), "-o", path("link.bin")}));
  EXPECT_TRUE(fs::is_symlink(path("link.bin")));
  EXPECT_EQ(read_file(path("target.bin")).size(), 96u);
  EXPECT_EQ(listing(), (std::vector<std::string>{"dense.bin", "link.bin", "target.bin"}));
}

TEST_F(Files, PredPacksItsLowBits) {
  // pred E(1) keeps bit 0 of each dense byte: 2 packs as 0, 3 as 1.
  write("p.bin", Bytes{1, 2, 3, 0, 1, 0, 0, 1});
  expect_ok(tilecheck({"pack", "pred[8]{0:E(1)}", "-i", path("p.bin"), "-o", path("bits.bin")}));
  EXPECT_EQ(bytes_of(read_file(path("bits.bin"))), Bytes{0b10010101});
}

}  // namespace
