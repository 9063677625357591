// The conformance engine: checks another implementation of tiled layouts
// against the spec (`tilecheck gate --impl PATH.so`, `tilecheck gate
// --impl-cmd COMMAND` and Python's tilecheck.gate are its front ends,
// through conformance/gate_run.h; the report is conformance/report.h).
//
// The implementation (conformance/impl_under_test.h) is a shared library
// with the functions of tilecheck/conformance_plugin.h or a program speaking
// docs/PROTOCOL.md; either runs in a process of its own. Every operation it
// offers is checked on each layout it claims, in this order (the phases,
// one file each: conformance/phases.h; run() in runner.cc orders them):
//   1. the catalogue (tilecheck/spec/catalog.h: the document's and the TPU layouts),
//   2. the reach set (tilecheck/gen/reach.h): every element type and form of layout,
//      and index-only shapes past 2^31 and 2^32 positions, then the size set,
//   3. options.property_cases layouts of the chosen profile (tilecheck/gen/profiles.h;
//      the layout recipe's make_layout with the exhaustive budget for
//      "general"), drawn from a stream seeded by options.seed, so a run is
//      deterministic;
// or only the given layouts. Per function and layout:
//   linear_index  every element (sampled above options.exhaustive_limit)
//                 against spec::linear_index; the answer for the first
//                 element decides whether the layout is supported, and a
//                 later element answered differently is a failure;
//   byte_size     against spec::byte_size;
//   delinearize   every position (sampled above options.exhaustive_limit)
//                 against spec::delinearize: the element, or padding;
//   pack          seeded random dense data against spec::pack, every byte
//                 (padding must be zero), no write outside dst, src unchanged.
// "Not supported" (a plugin's nonzero return, a command's `skipped` reply):
// the layout counts as skipped for that function. A crash, abort, exit, hang
// (the timeout) or an answer that breaks the protocol is a failure.
//
// The first failure of a function is asked again of a new process; if it
// passes there, it depends on earlier requests: it is not shrunk, and the
// report gives the shortest sequence of the cases asked before it (in the
// same process) after which it fails again in a new one. Otherwise it is
// shrunk: smaller dims, fewer dims, fewer
// tile levels and entries, no L/E/S, the default minor_to_major, smaller tile
// entries, f32 -- each candidate re-checked in the child and kept while it
// still fails -- and the report holds the minimal case with the element or
// buffer, expected vs actual, and a command reproducing it. Other functions
// go on.
#pragma once

#include <cstdint>
#include <vector>

#include "check/gate.h"
#include "conformance/impl_under_test.h"
#include "conformance/report.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::conformance {

// The size set's layouts (gen::size_layouts, tilecheck/gen/reach.h) whose
// dense and physical buffers are all within `max_array_bytes`: the ones a
// run sends. `over_limit`, when given, counts the others.
std::vector<ShapeWithLayout> size_set_within(int64_t max_array_bytes, int64_t* over_limit = nullptr);


// Runs the check of `impl`.
ConformanceReport run(ImplUnderTest& impl, const std::vector<ShapeWithLayout>& given,
                      const check::GateOptions& options, const RunRules& rules = {});

// Asks each sequence's cases in order of one new process (`tilecheck gate
// --replay FILE`), checking every answer as run() does; a failure is
// reported as found, with the cases asked before it in its sequence, and is
// neither asked alone nor shrunk.
ConformanceReport replay(ImplUnderTest& impl, const std::vector<std::vector<RequestCase>>& sequences,
                         const check::GateOptions& options, const RunRules& rules = {});

}  // namespace tilecheck::conformance
