// The conformance runner: `tilecheck gate --impl PATH.so` checks another
// implementation of tiled layouts against the spec.
//
// The library exports the functions of tilecheck/conformance_plugin.h; it runs in
// a child process (cli/conformance_worker.h). Every exported function is
// checked on each layout, in this order:
//   1. the catalogue (tilecheck/spec/catalog.h: the document's and the TPU layouts),
//   2. --cases layouts from the properties' generator (properties/
//      layout_recipe.h, make_layout with the exhaustive budget), drawn from a
//      stream seeded by --seed, so a run is deterministic;
// or only the layouts given with --layout. Per function and layout:
//   linear_index  every element (sampled above --exhaustive-limit) against
//                 spec::linear_index; the answer for the first element
//                 decides whether the layout is supported, and a later
//                 element answered differently is a failure;
//   byte_size     against spec::byte_size;
//   pack          seeded random dense data against spec::pack, every byte
//                 (padding must be zero), no write outside dst, src unchanged.
// A nonzero return is "not supported": the layout counts as skipped for that
// function. A crash, abort, exit or hang (--timeout) is a failure.
//
// The first failure of a function is shrunk: smaller dims, fewer dims, fewer
// tile levels and entries, no L/E/S, the default minor_to_major, smaller tile
// entries, f32 -- each candidate re-checked in the child and kept while it
// still fails -- and the minimal case is printed with the element or buffer,
// expected vs actual, and a command reproducing it. Other functions go on.
//
// Exit: 0 when every checked case passed (the table gives checked and
// skipped counts per function), 1 on a failure, 2 when the library cannot be
// loaded, does not export tilecheck_impl_linear_index, or supports none of
// the layouts.
#pragma once

#include <string>
#include <vector>

#include "cli/gate.h"

namespace CLI {
class App;
}  // namespace CLI

namespace tilecheck::cli {

struct ConformanceOptions {
  std::string impl_path;        // --impl; empty: the ordinary gate
  double timeout_seconds = 10;  // --timeout: longest wait for one answer of the child
                                // (loading the library: at least 30 s)
};

// Adds --impl and --timeout to the gate subcommand.
void add_conformance_options(CLI::App* gate, ConformanceOptions& options);

// Runs the conformance check and prints its report (table, or JSON with
// `json`). `layouts` replaces the catalogue and generated layouts when not
// empty. Throws ChecksFailed after a failure, Error for exit 2.
void run_conformance(const ConformanceOptions& conformance, const std::vector<std::string>& layouts,
                     const GateOptions& options, bool json);

}  // namespace tilecheck::cli
