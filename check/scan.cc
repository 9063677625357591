#include "check/scan.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::check {
namespace {

// a + b, or INT64_MAX with `overflow` set.
int64_t saturating_add(int64_t a, int64_t b, bool& overflow) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    overflow = true;
    return INT64_MAX;
  }
  return r;
}

ScanLayout describe(const ShapeWithLayout& shape) {
  ScanLayout row;
  row.layout = print_shape(shape);
  try {
    spec::validate(shape);
    row.elements = spec::element_count(shape);
    row.bytes = spec::byte_size(shape);
    const int64_t bits = shape.element_bits();
    // ceil(elements * bits / 8) without forming the product (D6).
    row.data_bytes = row.elements / 8 * bits + (row.elements % 8 * bits + 7) / 8;
    row.padding_bytes = *row.bytes - row.data_bytes;
    row.padding_share = *row.bytes ? static_cast<double>(row.padding_bytes) / *row.bytes : 0;
  } catch (const Error& e) {
    row.bytes_error = e.what();
  }
  try {
    row.xla_bytes = xla::array_size(shape);
  } catch (const Error&) {
  }
  row.problems = xla::validity_problems(shape);
  return row;
}

}  // namespace

int64_t ScanReport::bad_bitcasts() const {
  return std::count_if(bitcasts.begin(), bitcasts.end(),
                       [](const ScanBitcast& b) { return b.report && !b.report->is_bitcast; });
}

int64_t ScanReport::invalid_layouts() const {
  return std::count_if(layouts.begin(), layouts.end(), [](const ScanLayout& l) {
    return std::any_of(l.problems.begin(), l.problems.end(), [](const xla::Problem& p) {
      return p.severity == xla::Problem::Severity::kError;
    });
  });
}

ScanReport scan_module(
    const hlo::Module& module, const ScanOptions& options,
    const std::function<void(int64_t done, int64_t total, const std::string& what)>& progress) {
  ScanReport report;
  report.module = module.name;
  report.lines = module.lines;
  report.instructions = static_cast<int64_t>(module.instructions.size());
  report.warnings = module.warnings;

  // Every array of every instruction's shape, each distinct layout once.
  std::map<std::string, size_t> index;
  std::map<std::string, const hlo::Instruction*> by_name;
  for (const hlo::Instruction& in : module.instructions) {
    by_name.emplace(in.name, &in);
    for (const Leaf& leaf : array_leaves(in.shape)) {
      ++report.arrays;
      const std::string text = print_shape(*leaf.array);
      auto [it, added] = index.emplace(text, report.layouts.size());
      if (added) {
        ScanLayout row = describe(*leaf.array);
        row.first_instruction = in.name;
        row.first_line = in.line;
        report.layouts.push_back(std::move(row));
      }
      ScanLayout& row = report.layouts[it->second];
      ++row.count;
      if (row.bytes) {
        report.total_bytes = saturating_add(report.total_bytes, *row.bytes, report.totals_overflow);
        report.total_padding_bytes = saturating_add(report.total_padding_bytes, row.padding_bytes,
                                                    report.totals_overflow);
        bool ignored = false;
        row.wasted_bytes = saturating_add(row.wasted_bytes, row.padding_bytes, ignored);
      }
    }
  }

  if (options.prove) {
    int64_t done = 0;
    for (ScanLayout& row : report.layouts) {
      if (progress) progress(done++, static_cast<int64_t>(report.layouts.size()), "proofs");
      row.proof = options.prove(parse_shape(row.layout));
    }
  }

  // Bitcasts whose operand is an array we know.
  for (const hlo::Instruction& in : module.instructions) {
    if (in.opcode != "bitcast") continue;
    ScanBitcast b{in.name, in.computation, in.line, "", print_any_shape(in.shape), std::nullopt, ""};
    const auto operand = in.operands.size() == 1 ? by_name.find(in.operands[0]) : by_name.end();
    if (operand == by_name.end()) {
      b.not_checked = "its operand is not an instruction of the module";
    } else if (!in.shape.is_array() || !operand->second->shape.is_array()) {
      b.not_checked = "a bitcast of a tuple";
    } else {
      b.from = print_shape(operand->second->shape.array);
      const ShapeWithLayout& from = operand->second->shape.array;
      const ShapeWithLayout& to = in.shape.array;
      try {
        spec::validate(from);
        spec::validate(to);
        if (spec::element_count(from) > options.bitcast_element_limit) {
          b.not_checked = std::to_string(spec::element_count(from)) +
                          " elements, above the limit of " +
                          std::to_string(options.bitcast_element_limit);
        } else {
          b.report = check_bitcast(from, to);
        }
      } catch (const Error& e) {
        b.not_checked = e.what();
      }
    }
    if (b.from.empty() && operand != by_name.end()) b.from = print_any_shape(operand->second->shape);
    report.bitcasts.push_back(std::move(b));
  }

  std::stable_sort(report.layouts.begin(), report.layouts.end(),
                   [](const ScanLayout& a, const ScanLayout& b) {
                     return a.wasted_bytes > b.wasted_bytes;
                   });
  return report;
}

}  // namespace tilecheck::check
