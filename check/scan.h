// What `tilecheck scan` reports about an HLO module: every distinct layout
// once (how often it appears, where first, its sizes and padding in both
// size models, what XLA would reject, optionally its proof), the totals, and
// the bitcasts whose buffer does not hold the result where it should.
//
// Totals count every occurrence of a layout as one buffer. That is an upper
// bound on what a program allocates (instructions inside a fusion share or
// skip buffers), and the right weight for "which layouts waste the most".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "check/bitcast.h"
#include "hlo/module.h"
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::check {

struct ScanOptions {
  // When set, each distinct layout's proof result ("proved", "refuted: ...",
  // ...): the command passes the Z3 proofs (proofs/), which this library
  // does not link.
  std::function<std::string(const ShapeWithLayout&)> prove;
  // Bitcasts of more elements than this are not walked (reported as such).
  int64_t bitcast_element_limit = int64_t{1} << 27;
};

struct ScanLayout {
  std::string layout;  // canonical text
  int64_t count = 0;
  std::string first_instruction;
  int64_t first_line = 0;
  int64_t elements = 0;
  std::optional<int64_t> bytes;      // exact; nullopt when not computable
  std::string bytes_error;           // why not
  std::optional<int64_t> xla_bytes;  // XLA's ArraySize
  int64_t data_bytes = 0;            // the elements alone: ceil(elements * bits / 8)
  int64_t padding_bytes = 0;         // bytes - data_bytes (0 without an exact size)
  double padding_share = 0;          // padding_bytes / bytes
  std::vector<xla::Problem> problems;
  std::string proof;                 // "proved", "refuted: ...", "unknown", or "" (not run)
  int64_t wasted_bytes = 0;          // padding_bytes * count (INT64_MAX if that overflows)
};

struct ScanBitcast {
  std::string instruction, computation;
  int64_t line = 0;
  std::string from, to;
  std::optional<BitcastReport> report;  // nullopt when not checked
  std::string not_checked;              // why not
};

struct ScanReport {
  std::string module;
  int64_t lines = 0, instructions = 0, arrays = 0;
  std::vector<ScanLayout> layouts;  // by wasted bytes, most first
  std::vector<ScanBitcast> bitcasts;
  std::vector<hlo::Warning> warnings;
  // Sums over every occurrence; INT64_MAX, and `totals_overflow`, when a sum
  // does not fit int64.
  int64_t total_bytes = 0, total_padding_bytes = 0;
  bool totals_overflow = false;
  double padding_share() const {
    return total_bytes ? static_cast<double>(total_padding_bytes) / total_bytes : 0;
  }
  int64_t bad_bitcasts() const;
  int64_t invalid_layouts() const;
};

// `progress(done, total, what)` is called now and then on long runs.
ScanReport scan_module(
    const hlo::Module& module, const ScanOptions& options = {},
    const std::function<void(int64_t done, int64_t total, const std::string& what)>& progress = {});

}  // namespace tilecheck::check
