// The reach set: fixed layouts that put every element type and every form
// of layout in front of an implementation under test, where a seeded stream
// of generated layouts would reach them only by luck. The conformance
// engine sends them after the catalogue (docs/GATE.md, "What the default
// run reaches"):
//   - every element type at an odd count, untiled, and ragged under a tile,
//     in the default dim order and another (4-bit and smaller types: a
//     half-filled final byte);
//   - for one type of each width class (sub-byte, 8, 16, 32 and 64 bits):
//     untiled, sub-tiles, combined dims ('*'), E(n) (sub-byte), L(n), a
//     memory space, a scalar, zero-size arrays, ranks 4 and 6, each in the
//     default dim order and another;
//   - for the index operations only (the buffers are far past any send
//     limit), shapes whose positions pass 2^31, 2^32 and 2^53, with a dim
//     past 2^32 and more than 2^31 tiles, in both orders;
//   - ranks 8, in both orders.
// The size layouts follow (size_layouts below): data movement past 2^16
// and 2^20 elements (`tilecheck gate --no-size-set` leaves them out).
// conformance/coverage.h names these forms; `tilecheck gate --coverage`
// shows which of them a run reached.
// Every text here is a valid layout (gen_test, ReachSet.*, checks it).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::gen {

// Data movement at size: layout code breaks where work is split -- chunks
// of 64 Ki elements, a 16-bit counter, a share per thread, a staging buffer
// of 1 MiB -- and a split that falls inside a byte or a tile loses or
// repeats what lies across it. For every width class (1, 2 and 4 bits with
// and without E(n), 8, 16, 32 and 64 bits), its TPU format over
// [255,259] (66,045 elements, past 2^16) and [1031,1025] (1,056,775, past
// 2^20), in both dim orders. Both dims are ragged under every tile, and the
// dims are chosen so that every multiple of 2^16 elements in dense
// (row-major) order, and each quarter of the elements rounded up to 8,
// falls inside a tile and, for the sub-byte types, inside a byte of the
// physical buffer, in every one of these layouts (gen_test's
// ReachSet.EverySplitOfTheSizeLayoutsFallsInsideAByteAndATile checks it).
// A run sends those whose buffers are within --max-array-bytes: by
// default (2M) every type up to 8 bits wide past 2^20 and every type past
// 2^16; the largest, f64 past 2^20, is 9.1 MiB, so 16M sends them all.
// Each width class's TPU format, as the size set moves it: with E(n) for
// the sub-byte types that carry it. The recipe's make_size_layout
// (layout_recipe.h) draws from the same formats.
struct SizeFormat {
  const char* type;
  const char* tiles;
};
inline constexpr SizeFormat kSizeFormats[] = {
    {"u1", "T(32,128)(32,1)"}, {"pred", "T(32,128)(32,1)E(1)"},  // 1 bit
    {"u2", "T(16,128)(16,1)"}, {"s2", "T(16,128)(16,1)E(2)"},    // 2 bits
    {"u4", "T(8,128)(8,1)"},   {"s4", "T(8,128)(8,1)E(4)"},      // 4 bits
    {"s8", "T(32,128)(4,1)"},  {"bf16", "T(16,128)(2,1)"},       // 8, 16 bits
    {"f32", "T(8,128)"},       {"f64", "T(8,128)"},               // 32, 64 bits
};

// `format` over [rows,cols] in the default dim order or the other.
inline std::string size_layout_text(const SizeFormat& format, int64_t rows, int64_t cols, bool default_order) {
  return std::string(format.type) + "[" + std::to_string(rows) + "," + std::to_string(cols) + "]{" +
         (default_order ? "1,0" : "0,1") + ":" + format.tiles + "}";
}

inline std::vector<std::string> size_layouts() {
  std::vector<std::string> out;
  for (const auto& [rows, cols] : {std::pair<int64_t, int64_t>{255, 259}, {1031, 1025}}) {
    for (const SizeFormat& f : kSizeFormats) {
      for (const bool default_order : {true, false}) out.push_back(size_layout_text(f, rows, cols, default_order));
    }
  }
  return out;
}

inline std::vector<std::string> reach_layouts() {
  std::vector<std::string> out;
  for (ElementType type : all_element_types()) {
    const std::string t(element_type_name(type));
    out.push_back(t + "[7]{0}");
    out.push_back(t + "[5,3]{1,0:T(4,2)}");
    out.push_back(t + "[3,5]{0,1:T(2,4)}");
  }
  // One type per width class (the sub-byte ones with their E(n)), every
  // form in the default dim order and in another.
  struct Class {
    const char* type;
    const char* e;  // E(n) for a sub-byte type, else ""
  };
  for (const Class& c : {Class{"s4", "E(4)"}, Class{"pred", "E(1)"}, Class{"s8", ""}, Class{"bf16", ""},
                         Class{"f32", ""}, Class{"f64", ""}}) {
    const std::string t = c.type, e = c.e;
    const std::string scalar_e = e.empty() ? std::string() : ":" + e;
    const std::vector<std::string> forms = {
        "[3,5]{1,0" + scalar_e + "}", "[3,5]{0,1" + scalar_e + "}",  // untiled, odd count
        "[9,5]{1,0:T(8,4)(2,1)" + e + "}", "[5,9]{0,1:T(4,8)(2,1)" + e + "}",  // sub-tiles
        "[10,6]{1,0:T(8,4)(2,1)(1,2)" + e + "}", "[6,10]{0,1:T(4,8)(2,1)(1,2)" + e + "}",
        "[3,5,7]{2,1,0:T(*,4)" + e + "}", "[3,5,7]{0,2,1:T(*,4)" + e + "}",  // '*'
        "[2,3,5]{2,1,0:T(*,2)(2)" + e + "}", "[2,3,5]{1,0,2:T(*,2)(2)" + e + "}",
        "[3,4,5]{2,1,0:T(*,*,4)" + e + "}", "[3,4,5]{2,0,1:T(*,*,4)" + e + "}",
        "[5,3]{1,0:T(4,2)L(8)" + e + "}", "[3,5]{0,1:T(2,4)L(8)" + e + "}",
        "[5,3]{1,0:T(4,2)" + e + "S(1)}", "[3,5]{0,1:T(2,4)" + e + "S(1)}",
        "[]{" + scalar_e + "}", "[]{:T(1)" + e + "}",
        "[0,3]{1,0" + scalar_e + "}", "[0,3]{0,1" + scalar_e + "}",
        "[3,0]{1,0:T(2,2)" + e + "}", "[3,0]{0,1:T(2,2)" + e + "}",
        "[2,3,5,7]{3,2,1,0:T(2,4)" + e + "}", "[2,3,5,7]{2,0,3,1:T(2,4)" + e + "}",
        "[2,3,1,2,3,5]{5,4,3,2,1,0:T(2,4)" + e + "}", "[2,3,1,2,3,5]{3,1,5,0,2,4:T(2,4)" + e + "}",
        // Ranks past 6 (kernels and runtimes often stop at 6 or fold the
        // leading dims as if in the default order).
        "[2,1,3,2,1,2,3,5]{7,6,5,4,3,2,1,0:T(2,4)" + e + "}",
        "[2,1,3,2,1,2,3,5]{3,6,0,7,2,5,1,4:T(2,4)" + e + "}",
        // Positions past 2^31 (not 2^32), and past 2^32: the index operations only.
        "[32769,65536]{1,0" + scalar_e + "}", "[65536,32769]{0,1" + scalar_e + "}",
        "[3,32768,65536]{2,1,0" + scalar_e + "}", "[3,65536,32768]{2,0,1" + scalar_e + "}",
        // Past what narrower arithmetic holds, each at once: a dim past 2^32
        // (a dim or coordinate in 32 bits), more than 2^31 tiles (a tile's
        // number in 32 bits), positions past 2^53 (an index in a double);
        // and for 64-bit types, bits past 2^63 (a size counted in bits).
        "[134217728,4294967311]{1,0:T(1,2)" + e + "}", "[4294967311,134217728]{0,1:T(2,1)" + e + "}",
    };
    for (const std::string& f : forms) out.push_back(t + f);
  }
  // The TPU formats past 2^31 positions.
  for (const char* big : {"s4[65537,65536]{1,0:T(8,128)(8,1)E(4)}", "bf16[3,32768,65536]{1,2,0:T(8,128)(2,1)}"}) {
    out.push_back(big);
  }
  return out;
}

}  // namespace tilecheck::gen
