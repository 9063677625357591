// tilecheck-fuzz-seeds: a seed corpus and a dictionary for a harness of
// <tilecheck/testing/fuzz.h> (docs/TESTING.md, "Seeds and a dictionary").
//
//   tilecheck-fuzz-seeds [--profile NAME] [--layout TEXT]... [--no-catalog]
//                        [--recipe N] [--dict FILE] DIR
//
// A thin front end over tilecheck::testing::fuzz_seeds: it parses its
// arguments by hand, so that it builds wherever the testing kit does.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/spec/model.h>
#include <tilecheck/testing/fuzz_seeds.h>

namespace {

constexpr const char* kUsage =
    "usage: tilecheck-fuzz-seeds [--profile general|tpu|gpu] [--layout TEXT]... [--no-catalog]\n"
    "                            [--recipe N] [--dict FILE] DIR\n"
    "\n"
    "Writes a seed corpus into DIR for a harness of <tilecheck/testing/fuzz.h> with that profile\n"
    "(default general): each layout of tilecheck's catalogue (unless --no-catalog) and each\n"
    "--layout as text, and N pseudo-random recipe inputs (default 16). --dict FILE writes the\n"
    "dictionary of XLA's layout syntax for libFuzzer's -dict=FILE.\n";

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "tilecheck-fuzz-seeds: %s\n", message.c_str());
  std::exit(2);
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "tilecheck-fuzz-seeds: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "tilecheck-fuzz-seeds: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  tilecheck::testing::FuzzSeedOptions options;
  std::string dictionary;
  std::string dir;
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) usage_error(arg + " needs a value");
      return args[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--profile") {
      options.profile = value();
    } else if (arg == "--layout") {
      options.layouts.push_back(value());
    } else if (arg == "--no-catalog") {
      options.catalog = false;
    } else if (arg == "--recipe") {
      const std::string& n = value();
      char* end = nullptr;
      const long count = std::strtol(n.c_str(), &end, 10);
      if (n.empty() || *end != '\0' || count < 0 || count > 100000) {
        usage_error("--recipe needs a count from 0 to 100000, not '" + n + "'");
      }
      options.recipe_seeds = static_cast<int>(count);
    } else if (arg == "--dict") {
      dictionary = value();
    } else if (arg.starts_with("-")) {
      usage_error("unknown option " + arg);
    } else if (dir.empty()) {
      dir = arg;
    } else {
      usage_error("one directory only (" + dir + ", then " + arg + ")");
    }
  }
  if (dir.empty()) usage_error("no directory");

  std::vector<tilecheck::testing::FuzzSeed> seeds;
  try {
    seeds = tilecheck::testing::fuzz_seeds(options);
  } catch (const tilecheck::Error& e) {
    fail(e.what());
  }
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    std::fprintf(stderr, "tilecheck-fuzz-seeds: cannot create %s: %s\n", dir.c_str(), error.message().c_str());
    return 1;
  }
  int text = 0;
  for (const auto& seed : seeds) {
    write_file(std::filesystem::path(dir) / seed.name, seed.bytes);
    if (!seed.layout.empty()) ++text;
  }
  if (!dictionary.empty()) write_file(dictionary, tilecheck::testing::layout_dictionary());
  size_t largest = 0;
  for (const tilecheck::testing::FuzzSeed& seed : seeds) largest = std::max(largest, seed.bytes.size());
  std::printf("tilecheck-fuzz-seeds: wrote %zu seeds to %s (%d layouts as text, %zu recipe inputs; profile %s)%s%s\n",
              seeds.size(), dir.c_str(), text, seeds.size() - static_cast<size_t>(text), options.profile.c_str(),
              dictionary.empty() ? "" : "; dictionary ", dictionary.c_str());
  // libFuzzer cuts an input longer than -max_len, and a TEXT seed's mode is
  // its last byte.
  std::printf("tilecheck-fuzz-seeds: the largest seed is %zu bytes: give the harness -max_len=%zu or more\n", largest,
              largest);
  return 0;
}
