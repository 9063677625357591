// Reading an HLO module as XLA dumps it (HloModule::ToString): the
// computations, and for every instruction its name, result shape (with its
// layout), opcode and operands. Only what tilecheck needs is read; a line
// it does not understand becomes a warning naming the line, never an error.
//
//   HloModule m, entry_computation_layout={(f32[8]{0})->f32[8]{0}}
//
//   %fused (p: f32[8]) -> f32[8] {
//     %p = f32[8]{0:T(256)} parameter(0)
//     ROOT %b = f32[2,4]{1,0} bitcast(%p)
//   }
//
//   ENTRY %main (x: f32[8]) -> f32[8] {
//     ...
//   }
//
// Operands are written `%name` or, in newer dumps, `f32[8]{0} %name`; names
// may go without the '%'.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::hlo {

struct Instruction {
  std::string name;         // without the '%'
  std::string computation;  // the computation it belongs to
  std::string opcode;
  Shape shape;              // its result shape, layouts included
  std::vector<std::string> operands;  // operand names (or literal text, e.g. "0")
  int64_t line = 0;         // 1-based
  bool root = false;
};

struct Warning {
  int64_t line = 0;
  std::string message;
};

struct Module {
  std::string name;
  std::vector<std::string> computations;
  std::vector<Instruction> instructions;
  std::vector<Warning> warnings;
  int64_t lines = 0;
};

// `progress(lines)` is called every 10,000 lines when given.
Module read_module(std::istream& in, const std::function<void(int64_t lines)>& progress = {});
Module read_module_text(std::string_view text);

}  // namespace tilecheck::hlo
