// One registration function per tilecheck subcommand, each defined in its own
// file cli/<name>.cc and called from cli/main.cc.
#pragma once

#include <CLI/CLI.hpp>  // every subcommand file uses CLI11
#include <nlohmann/json.hpp>

namespace tilecheck::cli {

void add_index_command(CLI::App& app);        // cli/index.cc
void add_delinearize_command(CLI::App& app);  // cli/delinearize.cc
void add_size_command(CLI::App& app);         // cli/size.cc
void add_check_command(CLI::App& app);        // cli/check.cc
void add_scan_command(CLI::App& app);         // cli/scan.cc (HLO modules)
void add_bitcast_command(CLI::App& app);      // cli/bitcast.cc
void add_explain_command(CLI::App& app);      // cli/explain.cc
void add_draw_command(CLI::App& app);         // cli/draw.cc
void add_gate_command(CLI::App& app);         // cli/gate.cc, the checks in check/
void add_prove_command(CLI::App& app);        // cli/prove.cc (Z3 proofs, proofs/)
void add_equiv_command(CLI::App& app);        // cli/prove.cc
void add_vectors_command(CLI::App& app);      // cli/vectors.cc (golden vectors)
void add_pack_command(CLI::App& app);         // cli/pack.cc (files: raw, .npy)
void add_unpack_command(CLI::App& app);       // cli/pack.cc
void add_relayout_command(CLI::App& app);     // cli/pack.cc

}  // namespace tilecheck::cli
