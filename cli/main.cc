// The tilecheck command: one registration call per subcommand. Each
// subcommand lives in its own file (cli/commands.h lists them); what they
// share is in cli/common.h, the gate's checks are registered in
// cli/gate_registry.cc.
#include "cli/commands.h"
#include "cli/common.h"

int main(int argc, char** argv) {
  using namespace tilecheck::cli;
  return run_main(argc, argv, [](CLI::App& app) {
    add_index_command(app);
    add_delinearize_command(app);
    add_size_command(app);
    add_explain_command(app);
    add_draw_command(app);
    add_gate_command(app);
    add_prove_command(app);
    add_equiv_command(app);
    add_vectors_command(app);
    add_check_command(app);
    add_scan_command(app);
    add_bitcast_command(app);
    add_pack_command(app);
    add_unpack_command(app);
    add_relayout_command(app);
  });
}
