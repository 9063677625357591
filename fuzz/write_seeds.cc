// fuzz_write_seeds: the generated part of the seed corpora.
//
// Every entry of the shared catalogue (tilecheck/spec/catalog.h: the document's
// examples, XLA's published values, the TPU formats) becomes a seed of every
// target, written in that target's input format (fuzz/layout_source.h), as
// fuzz/corpus/<target>/catalog_<name>; relayout_differential gets the pairs
// entry -> untiled and untiled -> entry (same dims and width). A few
// RECIPE-mode seeds (recipe_<k>, fixed pseudo-random bytes) start the
// recipe's side, and KERNEL-mode seeds of pack_roundtrip (kernel_<k>) its
// SIMD kernels; divisor_above_2_62 starts index_differential's divisions
// near INT64_MAX; parse_layout gets the golden vectors' parse cases
// (parse_<name>), and parse_layout and hlo_scan texts nested far past the
// parser's limit (hostile_*). Hand-written seeds live beside them under other names.
//
//   fuzz_write_seeds DIR          (re)write the generated seeds under DIR
//   fuzz_write_seeds --check DIR  exit 1 unless every generated seed under DIR
//                                 is present and current (a ctest test)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/layout_source.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>

namespace {

// path relative to the corpus root -> file contents
// The same dims and element width, untiled and row-major.
std::string untiled(std::string_view layout) {
  tilecheck::ShapeWithLayout shape = tilecheck::parse_shape(layout);
  const std::optional<int64_t> bits = shape.layout.element_size_bits;
  shape.layout = tilecheck::default_layout(shape.rank());
  shape.layout.element_size_bits = bits;
  return tilecheck::print_shape(shape);
}

std::map<std::string, std::string> catalogue_seeds() {
  using tilecheck::gen::text_input;
  std::map<std::string, std::string> seeds;
  for (const tilecheck::CatalogEntry& entry : tilecheck::catalog()) {
    const std::string file = "catalog_" + std::string(entry.name);
    const std::string plain = untiled(entry.layout);
    seeds["parse_layout/" + file] = std::string(entry.layout);
    seeds["index_differential/" + file] = text_input({entry.layout});
    seeds["pack_roundtrip/" + file] = text_input({entry.layout});
    seeds["relayout_differential/" + file + "_from_untiled"] = text_input({plain, entry.layout});
    seeds["relayout_differential/" + file + "_to_untiled"] = text_input({entry.layout, plain});
  }
  for (uint64_t k = 1; k <= 4; ++k) {
    std::vector<uint8_t> bytes = tilecheck::gen::random_bytes(k, 16 * k);
    bytes.back() &= 0xFC;  // RECIPE mode
    for (const char* target : {"index_differential", "pack_roundtrip", "relayout_differential"}) {
      seeds[std::string(target) + "/recipe_" + std::to_string(k)] =
          std::string(bytes.begin(), bytes.end());
    }
  }
  // XLA's syntax beyond the catalogue: tuples with their index comments,
  // dynamic dims, dense D(..), index and pointer types, split configs, a
  // physical shape, metadata, and sparse level types (rejected).
  const char* xla_texts[][2] = {
      {"tuple", "(f32[2]{0}, (s32[], f32[2,4]{1,0}), token[], opaque[], ())"},
      {"tuple_index", "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0})"},
      {"dynamic", "s32[<=4,?,8]{2,1,0:T(2,128)}"},
      {"dense_levels", "f32[3,4]{1,0:D(D,D)T(2,2)}"},
      {"sparse_levels", "f32[3,4]{1,0:D(D,C+~)}"},
      {"all_properties", "f32[4,6]{1,0:T(2,2)(1,2)L(8)#(u32)*(u16)E(32)S(1)SC(0:2)(1:1,3)P(f32[4,6]{1,0})M(64)}"},
      {"split", "f32[123,456]{1,0:T(2,128)S(3)SC(1:200)}"},
  };
  for (const auto& [name, text] : xla_texts) seeds["parse_layout/xla_" + std::string(name)] = text;
  // The golden vectors' parse cases: texts a parser must accept or reject,
  // each invalid one a single step from a valid text.
  for (const tilecheck::ParseCase& c : tilecheck::parse_cases()) {
    seeds["parse_layout/parse_" + std::string(c.name)] = std::string(c.text);
  }
  // Hostile depth and length (docs/LIMITS.md): shapes nested far past
  // kMaxShapeNesting in each way text can nest (tuples, b(..), P(..)), at
  // the limit and one past it, and a dim list of 10,000 entries. Each must
  // be a clear error or an answer; without the limit the deep ones overflow
  // the stack (under ASan from about 12,000 levels). They stay within the
  // targets' max_len (fuzz/<target>.options).
  const auto repeat = [](std::string_view piece, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) out += piece;
    return out;
  };
  const int limit = tilecheck::kMaxShapeNesting;
  const std::string deep_tuples = repeat("(", 30000) + "f32[2]{0}" + repeat(")", 30000);
  seeds["parse_layout/hostile_nested_tuples"] = deep_tuples;
  seeds["parse_layout/hostile_nested_buffers"] = repeat("b(", 20000) + "f32[]" + repeat(")", 20000);
  seeds["parse_layout/hostile_nested_physical"] =
      repeat("f32[2]{0:P(", 4000) + "f32[2]" + repeat(")}", 4000);
  seeds["parse_layout/nesting_at_limit"] =
      repeat("(", limit - 3) + "b(f32[2]{0:P(f32[2])})" + repeat(")", limit - 3);
  seeds["parse_layout/nesting_past_limit"] =
      repeat("(", limit - 2) + "b(f32[2]{0:P(f32[2])})" + repeat(")", limit - 2);
  seeds["parse_layout/hostile_long_dims"] = "f32[" + repeat("1,", 10000) + "1]";
  seeds["hlo_scan/hostile_nested_tuple"] = "HloModule m\nENTRY %e () -> f32[] {\n  ROOT %t = " +
                                           deep_tuples + " tuple()\n}\n";
  // A divisor above 2^62: index_differential delinearizes its last position
  // (the input's choices are used up), where a multiply-shift division that
  // is one bit short goes wrong.
  seeds["index_differential/divisor_above_2_62"] = tilecheck::gen::text_input({"u8[8149576159670356358]{0}"});
  // KERNEL mode (pack_roundtrip only): every layout kind of make_kernel_layout
  // is a few choices away from one of these.
  for (uint64_t k = 1; k <= 8; ++k) {
    std::vector<uint8_t> bytes = tilecheck::gen::random_bytes(100 + k, 24 + 8 * k);
    bytes.back() = static_cast<uint8_t>((bytes.back() & 0xFC) | 2);
    seeds["pack_roundtrip/kernel_" + std::to_string(k)] = std::string(bytes.begin(), bytes.end());
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
    std::fprintf(stderr, "%d generated seeds are stale; run fuzz_write_seeds %s\n", stale,
                 root.c_str());
    return 1;
  }
  std::printf("%zu generated seeds %s\n", catalogue_seeds().size(),
              check ? "are current" : "written");
  return 0;
}
