// What every tilecheck subcommand shares: exit codes, parsing of command-line
// values (layouts, elements like `2,3`, positions), printing of tuples, JSON
// output, and the main loop that turns errors into `error:` lines.
//
// Exit codes (the contract scripts and CI rely on):
//   0  success
//   1  a check failed (a gate check, a proof, an equivalence)
//   2  bad input or usage; one message on stderr starting with "error:"
//
// A subcommand lives in its own file, cli/<name>.cc, and registers itself with
// one function `void add_<name>_command(CLI::App&)` (declared in
// cli/commands.h, called from cli/main.cc). Its callback throws
// tilecheck::Error (or CLI::ParseError) for bad input and ChecksFailed when a
// check fails; run_main maps both to exit codes.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "answers/answers.h"
#include "check/gate.h"
#include <tilecheck/spec/model.h>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tilecheck::cli {

enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitBadInput = 2 };

// Thrown by a subcommand whose checks ran and at least one failed (exit 1);
// the subcommand has already printed what failed.
struct ChecksFailed {};

// Parses and validates a layout with the spec's oracle (sizes must fit int64,
// no symbolic dims, nothing tilecheck does not model). Throws Error whose
// message names the layout.
ShapeWithLayout parse_layout_argument(std::string_view text);

// Parses any shape (an array, a tuple, ...) without the oracle's checks.
// Throws Error whose message names the text.
Shape parse_shape_argument(std::string_view text);

// The LAYOUT of a command that maps one array, with its --leaf option: the
// index path of the array within a tuple ("1,0": element 0 of element 1).
struct LayoutArgument {
  std::string text;
  std::string leaf;
};
// parse_layout_argument of the array `argument.leaf` chooses (the whole
// shape when it is an array and no leaf is given).
ShapeWithLayout parse_layout_argument(const LayoutArgument& argument);

// Elements ("2,3", "(2,3)", " 2, 3 "; "" for a scalar's) and whole int64s,
// read as answers/answers.h reads them for every front end.
using answers::parse_coordinates;
using answers::parse_int64;

// "2,3" (no parentheses), the form the commands print and accept, and
// "(2,3)", the form the document writes tuples in (check/gate.h).

// Prints `value` on stdout on one line.
void print_json(const nlohmann::json& value);

// Where the element at linear index `index` sits in the physical buffer (D7).
using answers::BufferPlace;
using answers::buffer_place;

// The arguments and flags several subcommands share, described once.
CLI::Option* add_layout_argument(CLI::App* command, std::string& layout);   // LAYOUT
CLI::Option* add_layout_argument(CLI::App* command, LayoutArgument& layout); // LAYOUT [--leaf P]
CLI::Option* add_element_argument(CLI::App* command, std::string& element); // E
CLI::Option* add_json_flag(CLI::App* command, bool& json);                  // --json

// Runs the command-line app that `register_commands` fills in: parses argv,
// runs the chosen subcommand and returns the exit code. Help exits 0; CLI11
// usage errors, tilecheck::Error and any other exception print "error: ..."
// on stderr and exit 2; ChecksFailed exits 1.
int run_main(int argc, char** argv, const std::function<void(CLI::App&)>& register_commands);

}  // namespace tilecheck::cli
