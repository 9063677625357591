// A tilecheck built only for tests: the shipped gate plus one extra check run
// against a deliberately broken index mapping, so cli_test can see the gate
// fail (exit 1) exactly as it would on a real bug. The shipped binary has no
// way to inject this.
#include <CLI/CLI.hpp>

#include "cli/common.h"
#include "cli/gate.h"
#include "check/checks.h"
#include <tilecheck/spec/semantics.h>

namespace {

using namespace tilecheck;
using namespace tilecheck::cli;
using namespace tilecheck::check;

// The spec's mapping, except that an element whose most minor coordinate is
// 1 is placed where its neighbour with coordinate 0 sits: a collision.
IndexMapping broken_mapping(const ShapeWithLayout& shape) {
  IndexMapping mapping = spec_mapping(shape);
  mapping.linear_index = [shape](const Element& e) {
    Element moved = e;
    if (!moved.empty() && moved.back() == 1) moved.back() = 0;
    return spec::linear_index(shape, moved);
  };
  return mapping;
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv, [](CLI::App& app) {
    GateRegistry registry = standard_gate();
    registry.add_layout_check(
        "broken_index_bijection", "a bijection check of a deliberately broken index",
        [](const ShapeWithLayout& shape, const GateOptions& options) {
          return check_bijection(shape, broken_mapping(shape), options);
        });
    add_gate_command(app, std::move(registry));
  });
}
