#include "cli/common.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <iostream>

#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {

ShapeWithLayout parse_layout_argument(std::string_view text) { return spec::parse_layout(text); }

Shape parse_shape_argument(std::string_view text) { return answers::parse_shape_text(text); }

ShapeWithLayout parse_layout_argument(const LayoutArgument& argument) {
  const Shape whole = parse_shape_argument(argument.text);
  if (argument.leaf.empty() && whole.is_array()) return parse_layout_argument(argument.text);
  if (argument.leaf.empty()) {
    throw Error("layout '" + shown_text(argument.text) + "' is " +
                (whole.kind == Shape::Kind::kTuple ? "a tuple" : "not an array") +
                "; choose one of its arrays with --leaf (its index path, e.g. --leaf 1,0)");
  }
  const std::vector<int64_t> path = parse_coordinates(argument.leaf);
  for (const Leaf& leaf : array_leaves(whole)) {
    if (leaf.path == path) return parse_layout_argument(print_shape(*leaf.array));
  }
  std::string paths;
  for (const Leaf& leaf : array_leaves(whole)) {
    paths += ' ';
    paths += join(leaf.path);
  }
  throw Error("layout '" + shown_text(argument.text) + "' has no array at --leaf " + shown_text(argument.leaf) +
              (paths.empty() ? "; it has no arrays" : "; its arrays are at" + paths));
}

// Invalid UTF-8 (from an HLO module's names, say) is replaced, never thrown.
void print_json(const nlohmann::json& value) {
  std::cout << value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

CLI::Option* add_layout_argument(CLI::App* command, std::string& layout) {
  return command->add_option("LAYOUT", layout, "shape with layout, e.g. 'f32[3,5]{1,0:T(2,2)}'")
      ->required();
}

CLI::Option* add_layout_argument(CLI::App* command, LayoutArgument& layout) {
  command->add_option("--leaf", layout.leaf,
                      "in a tuple, the index path of the array to use, e.g. 1,0");
  return add_layout_argument(command, layout.text);
}

CLI::Option* add_element_argument(CLI::App* command, std::string& element) {
  return command->add_option("E", element, "the element, comma-separated, e.g. 2,3 ('' for a scalar)")
      ->required();
}

CLI::Option* add_json_flag(CLI::App* command, bool& json) {
  return command->add_flag("--json", json, "print the result as JSON");
}

int run_main(int argc, char** argv, const std::function<void(CLI::App&)>& register_commands) {
  CLI::App app{
      "tilecheck: the reference and proving ground for XLA-style tiled memory layouts.\n"
      "Exit codes: 0 ok, 1 a check failed, 2 bad input or usage.",
      "tilecheck"};
  app.require_subcommand(1);
  // The package version, the same as the CMake package's, the pkg-config
  // file's and the C API's tilecheck_version() (ctest: version_agrees).
  app.set_version_flag("--version", std::string("tilecheck ") + TILECHECK_VERSION_STRING,
                       "Print the version and exit");
  register_commands(app);
  // CLI11 would call an unknown command word "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    const auto commands = app.get_subcommands({});
    const bool known = std::any_of(commands.begin(), commands.end(),
                                   [&](const CLI::App* c) { return c->get_name() == argv[1]; });
    if (!known) {
      std::cerr << "error: unknown command '" << argv[1] << "'; run 'tilecheck --help'\n";
      return kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
    return kExitOk;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << "\n"
              << "run 'tilecheck --help' for usage\n";
    return kExitBadInput;
  } catch (const ChecksFailed&) {
    return kExitCheckFailed;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "error: internal: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace tilecheck::cli
