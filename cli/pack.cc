// tilecheck pack LAYOUT, unpack LAYOUT, relayout FROM TO: a dense array or a
// physical buffer from a file (or standard input) to a file (or standard
// output), raw bytes or .npy, over files/buffer_files.h. Nothing is printed
// on success; an output file appears only complete.
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/common.h"
#include "files/buffer_files.h"

namespace tilecheck::cli {
namespace {

// -i, -o and the format flags the three commands share.
struct FileOptions {
  std::string in = "-", out = "-";
  std::string format, in_format, out_format;

  files::FileArg input() const { return files::file_arg(in, chosen(in_format)); }
  files::FileArg output() const { return files::file_arg(out, chosen(out_format)); }

 private:
  // --in-format/--out-format, else --format, else the file's name decides.
  std::optional<files::Format> chosen(const std::string& specific) const {
    if (!specific.empty()) return files::format_from_name(specific);
    if (!format.empty()) return files::format_from_name(format);
    return std::nullopt;
  }
};

void add_file_options(CLI::App* command, FileOptions& o, const char* in_holds, const char* out_holds) {
  command->add_option("-i,--input", o.in, std::string("the file holding ") + in_holds +
                                              " ('-', the default: standard input)");
  command->add_option("-o,--output", o.out, std::string("the file to write ") + out_holds +
                                                " to ('-', the default: standard output)");
  const auto formats = CLI::IsMember({"raw", "npy"});
  command
      ->add_option("--format", o.format,
                   "raw or npy, for input and output; without it a file name ending in .npy "
                   "means npy, anything else raw (docs/FILES.md)")
      ->check(formats);
  command->add_option("--in-format", o.in_format, "raw or npy, for the input only")->check(formats);
  command->add_option("--out-format", o.out_format, "raw or npy, for the output only")->check(formats);
}

// pack or unpack: LAYOUT [--leaf P] and the file options; `run` gets the
// array's layout and the two files.
using Convert = void (*)(const ShapeWithLayout&, const files::FileArg&, const files::FileArg&);
void add_convert_command(CLI::App& app, const char* name, const std::string& description,
                         const char* in_holds, const char* out_holds, Convert run) {
  struct Args {
    LayoutArgument layout;
    FileOptions files;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(name, description);
  add_layout_argument(command, args->layout);
  add_file_options(command, args->files, in_holds, out_holds);
  command->callback([args, run] {
    run(parse_layout_argument(args->layout), args->files.input(), args->files.output());
  });
}

const std::string kDenseMeaning = "(row-major, docs/PROTOCOL.md \"Dense buffers\")";

}  // namespace

void add_pack_command(CLI::App& app) {
  add_convert_command(app, "pack",
                      "a dense array " + kDenseMeaning + " -> the layout's physical buffer, padding zero",
                      "the dense array", "the physical buffer", files::pack_file);
}

void add_unpack_command(CLI::App& app) {
  add_convert_command(app, "unpack", "the layout's physical buffer -> the dense array " + kDenseMeaning,
                      "the physical buffer", "the dense array", files::unpack_file);
}

void add_relayout_command(CLI::App& app) {
  struct Args {
    std::string from, to;
    FileOptions files;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(
      "relayout", "the physical buffer of FROM -> the physical buffer of TO (same dims and element "
                  "type), padding zero");
  command->add_option("FROM", args->from, "the input's shape with layout")->required();
  command->add_option("TO", args->to, "the output's shape with layout")->required();
  add_file_options(command, args->files, "FROM's physical buffer", "TO's physical buffer");
  command->callback([args] {
    files::relayout_file(parse_layout_argument(args->from), parse_layout_argument(args->to),
                         args->files.input(), args->files.output());
  });
}

}  // namespace tilecheck::cli
