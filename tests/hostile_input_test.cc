// The hostile-input table (tests/hostile/inputs.json) through every entry
// point of the C++ side: the spec library, the C API, the command's
// arguments (every command that takes a layout), an HLO file and standard
// input (`scan`). Each input must give a clear error (exit 2 and an
// "error: " line; an Error; a status and a message) or an answer, in bounded
// time, never a crash, a hang or a sanitizer report. The Python package
// runs the same table (python/tests/test_hostile.py); the protocol's
// hostile replies are in impl_cmd_test.cc. docs/LIMITS.md names the limits.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tests/run_tilecheck.h"
#include <tilecheck/spec/model.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>
#include <tilecheck/tilecheck.h>

namespace tilecheck {
namespace {

using cli_testing::Output;
using cli_testing::run_binary;

// A command that runs longer than this is stuck: every input here is
// answered in well under a second by a Release build.
constexpr unsigned kAlarmSeconds = 120;
// Linux refuses a single argument past 128 KiB (MAX_ARG_STRLEN) before
// tilecheck starts; longer texts go through files and standard input.
constexpr size_t kMaxArgumentBytes = 100000;

struct Hostile {
  std::string name, expect, message;
  std::vector<std::pair<std::string, int64_t>> parts;  // a piece and how many times
  std::string text;  // built for the one entry a test runs (Hostile_::input)
};

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

std::vector<Hostile> load_table() {
  std::ifstream in(std::string(TILECHECK_SOURCE_DIR) + "/tests/hostile/inputs.json");
  const nlohmann::json table = nlohmann::json::parse(in);
  std::vector<Hostile> out;
  for (const nlohmann::json& entry : table.at("inputs")) {
    Hostile h{entry.at("name"), entry.at("expect"), entry.value("message", ""), {}, ""};
    for (const nlohmann::json& part : entry.at("parts")) {
      h.parts.emplace_back(part.contains("hex") ? from_hex(part.at("hex")) : std::string(part.at("text")),
                           part.value("times", int64_t{1}));
    }
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<Hostile>& table() {
  static std::vector<Hostile> t = load_table();
  return t;
}

std::string temp_path(const std::string& name) { return ::testing::TempDir() + "hostile_" + name; }

void write_file(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary) << contents;
}

// What one entry point made of an input.
struct Verdict {
  bool error = false;
  std::string message;
};

void expect_verdict(const Hostile& h, const Verdict& v, const std::string& where) {
  if (h.expect == "error") {
    EXPECT_TRUE(v.error) << h.name << " through " << where << " was answered";
    if (v.error) {
      EXPECT_NE(v.message.find(h.message), std::string::npos)
          << h.name << " through " << where << ": '" << h.message << "' not in: " << v.message;
    }
  } else if (h.expect == "answer") {
    EXPECT_FALSE(v.error) << h.name << " through " << where << ": " << v.message;
  }
  // Every message is short and printable, whatever the input held.
  EXPECT_LT(v.message.size(), 4096u) << h.name << " through " << where;
  for (const char c : v.message) {
    const auto u = static_cast<unsigned char>(c);
    ASSERT_TRUE(u == '\n' || (u >= 0x20 && u < 0x7f))
        << h.name << " through " << where << ": a byte 0x" << std::hex << int{u} << " in the message";
  }
}

// A command run: exit 0 (an answer) or 2 with an "error: " line (a clear
// error); nothing else, and within the alarm.
Verdict command_verdict(const Hostile& h, const Output& r, const std::string& what) {
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2)
      << h.name << ": " << what << " exited " << r.exit_code
      << (r.exit_code == 128 + 14 ? " (killed after " + std::to_string(kAlarmSeconds) + " s)" : "")
      << "\n" << r.err.substr(0, 2000);
  if (r.exit_code == 2) {
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << h.name << ": " << what << ": " << r.err.substr(0, 2000);
    EXPECT_LT(r.err.size(), 4096u) << h.name << ": " << what << " echoes its input: " << r.err.substr(0, 2000);
  }
  return {r.exit_code != 0, r.err};
}

class Hostile_ : public ::testing::TestWithParam<size_t> {
 protected:
  // The entry with its text, built on first use: the table's texts add up
  // to 140 MiB, and each test (a process of its own under ctest) needs one.
  const Hostile& input() const {
    Hostile& h = table()[GetParam()];
    if (h.text.empty()) {
      size_t size = 0;
      for (const auto& [piece, times] : h.parts) size += piece.size() * static_cast<size_t>(times);
      h.text.reserve(size);
      for (const auto& [piece, times] : h.parts) {
        for (int64_t i = 0; i < times; ++i) h.text.append(piece);
      }
    }
    return h;
  }
};

// The spec library: parse, validate, every size, XLA's size model.
TEST_P(Hostile_, SpecLibrary) {
  const Hostile& h = input();
  const auto start = std::chrono::steady_clock::now();
  Verdict v;
  try {
    const Shape shape = parse_any_shape(h.text);
    for (const Leaf& leaf : array_leaves(shape)) {
      spec::validate(*leaf.array);
      spec::byte_size(*leaf.array);
      spec::padded_element_count(*leaf.array);
      xla::compare_sizes(*leaf.array);
    }
  } catch (const Error& e) {
    v = {true, e.what()};
  }
  expect_verdict(h, v, "the spec library");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(kAlarmSeconds)) << h.name;
}

// The C API: parse (which validates as both engines do), then the sizes.
TEST_P(Hostile_, CApi) {
  const Hostile& h = input();
  if (h.text.find('\0') != std::string::npos) GTEST_SKIP() << "a C string cannot hold a NUL";
  tilecheck_layout* layout = nullptr;
  tilecheck_error error{};
  Verdict v;
  if (tilecheck_layout_parse(h.text.c_str(), &layout, &error) != TILECHECK_OK) {
    v = {true, error.message};
  } else {
    int64_t bytes = 0;
    for (const int engine : {TILECHECK_SPEC, TILECHECK_IMPL}) {
      if (tilecheck_byte_size(layout, engine, &bytes, &error) != TILECHECK_OK) v = {true, error.message};
    }
    tilecheck_layout_free(layout);
  }
  expect_verdict(h, v, "the C API");
}

// Every command that takes a layout as an argument.
TEST_P(Hostile_, CommandArguments) {
  const Hostile& h = input();
  if (h.text.size() > kMaxArgumentBytes || h.text.find('\0') != std::string::npos) {
    GTEST_SKIP() << "too long, or holding a NUL, for an argument: the file and standard input tests take it";
  }
  // An element of the right rank where the text is an array, for index and explain.
  std::string zeros = "0";
  try {
    const ShapeWithLayout shape = parse_shape(h.text);
    zeros.clear();
    for (int64_t d = 0; d < shape.rank(); ++d) zeros += d ? ",0" : "0";
  } catch (const Error&) {
  }
  const std::string empty = temp_path(h.name + ".empty"), out = temp_path(h.name + ".out");
  write_file(empty, "");
  const std::vector<std::vector<std::string>> commands = {
      {"size", h.text},
      {"size", "--json", h.text},
      {"explain", h.text, zeros},
      {"index", h.text, zeros},
      {"delinearize", h.text, "0"},
      {"draw", h.text},
      {"draw", h.text, "--svg", out},
      {"vectors", h.text, "--count", "4"},
      {"bitcast", h.text, h.text},
      {"pack", h.text, "-i", empty, "-o", out},
      {"unpack", h.text, "-i", empty, "-o", out},
      {"relayout", h.text, h.text, "-i", empty, "-o", out},
      // The gate's checks of one layout (its suites draw their own layouts).
      {"gate", "--layout", h.text, "--exhaustive-limit", "64", "--samples", "16", "--check", "formulas_agree",
       "--check", "bijection", "--check", "pack_round_trip", "--check", "impl_index", "--check",
       "impl_delinearize", "--check", "impl_pack"},
  };
  for (const std::vector<std::string>& args : commands) {
    const Output r = run_binary(TILECHECK_BINARY, args, "", kAlarmSeconds);
    const Verdict v = command_verdict(h, r, "tilecheck " + args[0]);
    // The layout's own verdict is size's; the rest may also refuse an
    // element, a position or a file that does not fit, clearly.
    if (args[0] == "size" && args[1] != "--json") expect_verdict(h, v, "tilecheck size");
  }
  std::remove(empty.c_str());
  std::remove(out.c_str());
}

// As the shape of an instruction in an HLO module, from a file and from
// standard input: a text that does not parse is a warning naming the
// problem, and the scan goes on.
TEST_P(Hostile_, HloFileAndStandardInput) {
  const Hostile& h = input();
  const std::string path = temp_path(h.name + ".hlo");
  write_file(path, "HloModule hostile\n\nENTRY %main () -> f32[] {\n  ROOT %p = " + h.text +
                       " parameter(0)\n}\n");
  for (const bool from_stdin : {false, true}) {
    const Output r = run_binary(TILECHECK_BINARY, {"scan", from_stdin ? "-" : path},
                                from_stdin ? path : "", kAlarmSeconds);
    const std::string where = from_stdin ? "scan -" : "scan FILE";
    command_verdict(h, r, where);
    EXPECT_EQ(r.exit_code, 0) << h.name << ": " << where << ": " << r.err.substr(0, 2000);
    // The module reader takes the shape at the front of the text and the
    // opcode after it, so a text that is refused may be refused as a shape
    // or as an instruction: either way a warning names line 4.
    // (A text that parses but is invalid is a row of the report instead.)
    bool parses = true;
    try {
      parse_any_shape(h.text);
    } catch (const Error&) {
      parses = false;
    }
    if (!parses) {
      EXPECT_NE(r.out.find("  line 4: "), std::string::npos)
          << h.name << ": " << where << ": no warning on line 4 in\n" << r.out.substr(0, 4000);
    }
    // A report may print a layout it read (a long one, in full), never the
    // refused text at length.
    EXPECT_LT(r.out.size() + r.err.size(), (h.expect == "error" ? 0 : 4 * h.text.size()) + 65536)
        << h.name << ": " << where << " echoes its input";
  }
  std::remove(path.c_str());
}

std::string entry_name(const ::testing::TestParamInfo<size_t>& info) { return table()[info.param].name; }

INSTANTIATE_TEST_SUITE_P(Table, Hostile_, ::testing::Range(size_t{0}, table().size()), entry_name);

// .npy headers as `pack -i` reads them: hostile shapes and lengths.
TEST(HostileNpy, HeadersGiveAClearError) {
  const auto npy = [](const std::string& dict, uint16_t declared) {
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\0';
    out += static_cast<char>(declared & 0xff);
    out += static_cast<char>(declared >> 8);
    return out + dict;
  };
  std::string many_dims = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (int i = 0; i < 10000; ++i) many_dims += "1, ";
  many_dims += "), }\n";
  std::string nested = "{'descr': '<f4', 'fortran_order': False, 'shape': ";
  for (int i = 0; i < 30000; ++i) nested += "(";
  nested += "\n";
  const std::string plain = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"many_dims", npy(many_dims.substr(0, 60000), 60000)},
      {"nested", npy(nested, static_cast<uint16_t>(nested.size()))},
      {"length_past_the_file", npy(plain, 0xffff)},
      {"nul_in_header", npy(std::string("{'descr': '<f\0', ") + plain.substr(17), static_cast<uint16_t>(plain.size()))},
      {"dims_past_int64", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }\n", 77)},
  };
  const std::string out = temp_path("npy.out");
  for (const auto& [name, contents] : cases) {
    const std::string path = temp_path(name + ".npy");
    write_file(path, contents);
    const Output r = run_binary(TILECHECK_BINARY, {"pack", "f32[2]{0}", "-i", path, "-o", out}, "", kAlarmSeconds);
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << name << ": " << r.err;
    EXPECT_LT(r.err.size(), 4096u) << name;
    std::remove(path.c_str());
  }
  std::remove(out.c_str());
}

// A layout whose one element pads to 2^62 bytes: pack, unpack and relayout
// refuse to build a buffer larger than the machine's memory, clearly.
TEST(HostileFiles, BufferLargerThanMemory) {
  const std::string layout = "u8[1,1]{1,0:T(2147483648,2147483648)}";
  const std::string one = temp_path("one_byte"), out = temp_path("huge.out");
  write_file(one, "x");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"pack", layout, "-i", one, "-o", out},
        std::vector<std::string>{"relayout", "u8[1,1]{1,0}", layout, "-i", one, "-o", out}}) {
    const Output r = run_binary(TILECHECK_BINARY, args, "", kAlarmSeconds);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("takes 4611686018427387904 bytes, more than this machine's memory"), std::string::npos)
        << args[0] << ": " << r.err;
  }
  // From a device, whose size is not known before reading: refused before a
  // byte is read.
  const Output r = run_binary(TILECHECK_BINARY, {"unpack", layout, "-i", "/dev/zero", "-o", out}, "", kAlarmSeconds);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("more than this machine's memory"), std::string::npos) << r.err;
  std::remove(one.c_str());
  std::remove(out.c_str());
}

}  // namespace
}  // namespace tilecheck
