// The replay driver: what a fuzz target links when no fuzzing engine is used
// (the default g++ build). It runs LLVMFuzzerTestOneInput once on every file
// named on the command line or found in a directory named there, in a fixed
// order, so ctest replays a whole seed corpus and any crash input a fuzzer
// saved. A bug shows up as the target's own abort (or a sanitizer report).
//
// Arguments starting with '-' are ignored, so libFuzzer command lines work.
// Exits 1 when no input was found: an empty corpus must not pass silently.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::filesystem::path> inputs_named_by(const std::filesystem::path& arg) {
  std::vector<std::filesystem::path> found;
  if (std::filesystem::is_directory(arg)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
      if (entry.is_regular_file()) found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
  } else if (std::filesystem::is_regular_file(arg)) {
    found.push_back(arg);
  } else {
    std::fprintf(stderr, "error: %s is neither a file nor a directory\n", arg.c_str());
    std::exit(1);
  }
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    for (auto& path : inputs_named_by(argv[i])) inputs.push_back(std::move(path));
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "error: no inputs to replay (usage: %s FILE_OR_DIR...)\n", argv[0]);
    return 1;
  }
  for (const auto& path : inputs) {
    std::ifstream file(path, std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(file),
                                     std::istreambuf_iterator<char>()};
    // The fuzzer's own crash report names the input only if we say which one.
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::printf("replayed %zu inputs\n", inputs.size());
  return 0;
}
