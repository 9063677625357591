// tilecheck check LAYOUT: the problems of a layout that parses, as XLA sees
// them (xla::validity_problems): errors XLA rejects, warnings XLA accepts
// with a meaning a user is unlikely to want. Exit 1 when there is an error.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/syntax.h>
#include <tilecheck/spec/xla_model.h>

namespace tilecheck::cli {

void add_check_command(CLI::App& app) {
  struct Args {
    std::string layout;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "check",
      "what XLA would reject in a layout that parses (E(n) on a type that is not sub-byte, "
      "split configs out of range, sparse properties, ...), and warnings; exit 1 on an error");
  add_layout_argument(command, args->layout);
  add_json_flag(command, args->json);
  command->callback([args] {
    const Shape shape = parse_shape_argument(args->layout);
    const std::vector<xla::Problem> problems = xla::validity_problems(shape);
    int errors = 0;
    for (const xla::Problem& p : problems) errors += p.severity == xla::Problem::Severity::kError;
    const int warnings = static_cast<int>(problems.size()) - errors;
    if (args->json) {
      nlohmann::json list = nlohmann::json::array();
      for (const xla::Problem& p : problems) {
        list.push_back({{"severity", p.severity == xla::Problem::Severity::kError ? "error"
                                                                                  : "warning"},
                        {"property", p.property},
                        {"message", p.message},
                        {"xla_check", p.xla_check}});
      }
      print_json({{"layout", print_any_shape(shape)},
                  {"valid", errors == 0},
                  {"errors", errors},
                  {"warnings", warnings},
                  {"problems", list}});
    } else {
      for (const xla::Problem& p : problems) {
        const bool error = p.severity == xla::Problem::Severity::kError;
        std::cout << (error ? "error   " : "warning ") << p.property << ": " << p.message;
        if (!p.xla_check.empty()) std::cout << " [" << p.xla_check << "]";
        std::cout << "\n";
      }
      std::cout << print_any_shape(shape) << ": "
                << (errors ? "invalid for XLA" : "valid for XLA") << " (" << errors << " error"
                << (errors == 1 ? "" : "s") << ", " << warnings << " warning"
                << (warnings == 1 ? "" : "s") << ")\n";
    }
    if (errors) throw ChecksFailed{};
  });
}

}  // namespace tilecheck::cli
