// tilecheck bitcast A B [--transpose PERM]: whether the buffer of A, read as
// B, holds every element where a reshape (or the transpose) puts it, with
// equal byte sizes (check/bitcast.h). Exit 0 a bitcast, 1 not, 2 bad input.
#include <iostream>
#include <memory>

#include "check/bitcast.h"
#include "cli/commands.h"
#include "cli/common.h"
#include <tilecheck/spec/syntax.h>

namespace tilecheck::cli {

void add_bitcast_command(CLI::App& app) {
  struct Args {
    std::string from, to, transpose;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "bitcast",
      "whether reading a buffer of layout A as layout B keeps every element where a reshape "
      "(or --transpose) puts it, with equal byte sizes; exit 1 when it does not");
  command->add_option("A", args->from, "the operand's shape with layout")->required();
  command->add_option("B", args->to, "the result's shape with layout")->required();
  command->add_option("--transpose", args->transpose,
                      "a transpose instead of a reshape: B's dim i is A's dim PERM[i], e.g. 1,0");
  add_json_flag(command, args->json);
  command->callback([args] {
    const ShapeWithLayout from = parse_layout_argument(args->from);
    const ShapeWithLayout to = parse_layout_argument(args->to);
    std::optional<std::vector<int64_t>> perm;
    if (!args->transpose.empty()) perm = parse_coordinates(args->transpose);
    const check::BitcastReport r = check::check_bitcast(from, to, perm);
    if (args->json) {
      nlohmann::json j{{"from", print_shape(from)},
                       {"to", print_shape(to)},
                       {"bitcast", r.is_bitcast},
                       {"from_bytes", r.from_bytes},
                       {"to_bytes", r.to_bytes},
                       {"elements_checked", r.elements_checked},
                       {"reasons", r.reasons}};
      if (r.first_moved) {
        j["first_moved"] = {{"from_element", r.first_moved->from_element},
                            {"to_element", r.first_moved->to_element},
                            {"from_position", r.first_moved->from_position},
                            {"to_position", r.first_moved->to_position}};
      }
      print_json(j);
    } else {
      std::cout << answers::bitcast_text(from, to, perm, r);
    }
    if (!r.is_bitcast) throw ChecksFailed{};
  });
}

}  // namespace tilecheck::cli
