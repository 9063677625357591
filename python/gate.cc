// tilecheck._tilecheck._gate: the gate over another implementation, from
// Python (tilecheck.gate in python/tilecheck/__init__.py wraps it). The run
// is the one `tilecheck gate --impl-cmd | --impl` makes (conformance/
// gate_run.h) and the report its renderings (conformance/report.h): the JSON
// of --json and the text the command prints.
//
// Bad input (a layout, a flag's value, a skip or replay file) raises
// tilecheck.GateInputError, a ValueError. An implementation that cannot be
// checked at all (a library that does not load, a command that does not
// answer `start`, one that crashes or hangs before that) is a report that
// failed, with the error, as the command's exit 2 is: a crash, hang or wrong
// answer during the run is a failure in the report. The GIL is released
// while the gate runs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sstream>
#include <string>
#include <vector>

#include "conformance/gate_run.h"
#include "conformance/report.h"

namespace py = pybind11;

namespace tilecheck::python {
namespace {

using check::GateOptions;

GateOptions::Padding padding_named(const std::string& name) {
  if (name == "zero") return GateOptions::Padding::kZero;
  if (name == "any") return GateOptions::Padding::kAny;
  throw conformance::GateInputError("padding: expected 'zero' or 'any', got '" + name + "'");
}

GateOptions::SizeModel size_model_named(const std::string& name) {
  if (name == "exact") return GateOptions::SizeModel::kExact;
  if (name == "xla") return GateOptions::SizeModel::kXla;
  throw conformance::GateInputError("size_model: expected 'exact' or 'xla', got '" + name + "'");
}

// (the JSON report's text or None, the text report, ok, the error or None).
py::tuple gate(const conformance::GateRun& run, const GateOptions& options, bool coverage) {
  std::string json, text, error;
  bool ok = false;
  {
    py::gil_scoped_release release;
    try {
      const conformance::ConformanceReport report = conformance::run_gate(run, options);
      std::ostringstream json_out, text_out;
      conformance::print_json_report(json_out, report, coverage);
      conformance::print_text_report(text_out, report, coverage);
      json = json_out.str();
      text = text_out.str();
      ok = report.ok() && report.checked_anything();
      if (const std::optional<std::string> why = conformance::nothing_checked(report)) error = *why;
    } catch (const conformance::GateInputError&) {
      throw;
    } catch (const Error& e) {
      error = e.what();
    }
  }
  if (!error.empty()) text += "error: " + error + "\n";
  return py::make_tuple(json.empty() ? py::object(py::none()) : py::object(py::str(json)), text, ok,
                        error.empty() ? py::object(py::none()) : py::object(py::str(error)));
}

}  // namespace

void add_gate(py::module_& m) {
  py::register_exception<conformance::GateInputError>(m, "GateInputError", PyExc_ValueError);
  m.def(
      "_gate",
      [](const std::string& impl_path, const std::string& impl_command, const std::vector<std::string>& layouts,
         const std::string& profile, int64_t cases, uint64_t seed, const std::vector<std::string>& skip,
         const std::vector<std::string>& require, const std::string& padding, const std::string& size_model,
         int64_t max_rank, const std::vector<std::string>& types, const std::vector<std::string>& limits,
         const std::string& max_array_bytes, double timeout, double shrink_seconds, bool reach_set,
         bool size_set, bool coverage) {
        conformance::GateRun run;
        run.impl_path = impl_path;
        run.impl_command = impl_command;
        run.layouts = layouts;
        run.profile = profile;
        run.skip_patterns = skip;
        run.required = require;
        run.padding = padding_named(padding);
        run.max_rank = max_rank;
        run.types = types;
        run.limits = limits;
        run.max_array_bytes = max_array_bytes;
        run.timeout_seconds = timeout;
        run.shrink_seconds = shrink_seconds;
        run.no_reach_set = !reach_set;
        run.no_size_set = !size_set;
        GateOptions options;
        options.property_cases = cases;
        options.seed = seed;
        options.size_model = size_model_named(size_model);
        return gate(run, options, coverage);
      },
      py::arg("impl_path"), py::arg("impl_command"), py::arg("layouts"), py::arg("profile"), py::arg("cases"),
      py::arg("seed"), py::arg("skip"), py::arg("require"), py::arg("padding"), py::arg("size_model"),
      py::arg("max_rank"), py::arg("types"), py::arg("limits"), py::arg("max_array_bytes"), py::arg("timeout"),
      py::arg("shrink_seconds"), py::arg("reach_set"), py::arg("size_set"), py::arg("coverage"),
      "The gate over an implementation, as `tilecheck gate` runs it: (the JSON report's text or None, the "
      "text report, ok, the error that stopped it or None). tilecheck.gate wraps it.");
}

}  // namespace tilecheck::python
