// fuzz_write_seeds: the catalogue part of the seed corpora.
//
// Every entry of the shared catalogue (spec/catalog.h: the document's
// examples, XLA's published values, the TPU formats) becomes a seed of every
// target, written in that target's input format, as fuzz/corpus/<target>/
// catalog_<name>. Hand-written seeds live beside them under other names.
//
//   fuzz_write_seeds DIR          (re)write the catalogue seeds under DIR
//   fuzz_write_seeds --check DIR  exit 1 unless every catalogue seed under DIR
//                                 is present and current (a ctest test)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "spec/catalog.h"

namespace {

// path relative to the corpus root -> file contents
std::map<std::string, std::string> catalogue_seeds() {
  std::map<std::string, std::string> seeds;
  for (const tilecheck::CatalogEntry& entry : tilecheck::catalog()) {
    const std::string file = "catalog_" + std::string(entry.name);
    seeds["parse_layout/" + file] = std::string(entry.layout);
  }
  return seeds;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (argc != 2 && !check) {
    std::fprintf(stderr, "usage: %s [--check] CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root = argv[argc - 1];
  int stale = 0;
  for (const auto& [relative, contents] : catalogue_seeds()) {
    const std::filesystem::path path = root / relative;
    if (check) {
      if (!std::filesystem::exists(path) || read_file(path) != contents) {
        std::fprintf(stderr, "stale or missing seed: %s\n", path.c_str());
        ++stale;
      }
      continue;
    }
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << contents;
  }
  if (stale) {
    std::fprintf(stderr, "%d catalogue seeds are stale; run fuzz_write_seeds %s\n", stale,
                 root.c_str());
    return 1;
  }
  std::printf("%zu catalogue seeds %s\n", catalogue_seeds().size(),
              check ? "are current" : "written");
  return 0;
}
