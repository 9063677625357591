// oneDNN as an implementation of tiled layouts: the blocked memory
// descriptor that stores an XLA layout's bytes exactly as the layout does,
// derived from the layout itself, and oneDNN's reorders between it and the
// dense array (pack, unpack) or another such descriptor (relayout).
//
// What oneDNN can express (docs/PEERS.md): an element type oneDNN has (f32,
// s32, bf16, f16, s8, u8) at its natural width; outer dims in any order over
// dims padded to the tile; the tile and its sub-tiles as inner blocks, each
// sub-tile entry dividing the entry it splits (oneDNN pads a dim only to its
// whole block, never inside it). Not: sub-byte or E(n) widths, L(n), combined
// dims '*', a sub-tile wider than its tile or reaching past the tile's dims,
// a tile entry above one on a dim the array lacks, rank 0 or above oneDNN's
// 12 dims.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include <tilecheck/testing/value_class.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::peers {

// One inner block of a oneDNN blocked format: `size` elements of logical
// dim `dim`. A format lists them outermost first (oneDNN's inner_blks).
struct Block {
  int64_t size;
  int dim;
  bool operator==(const Block&) const = default;
};

struct OneDnnFormat {
  dnnl::memory::desc plain;    // the dense array: logical dims row-major
  dnnl::memory::desc blocked;  // the layout's physical buffer
  std::vector<Block> blocks;   // the blocked one's inner blocks, outermost first
};

// The oneDNN format of `shape`'s layout, or why oneDNN cannot express it
// (one sentence).
std::variant<OneDnnFormat, std::string> onednn_format(const ShapeWithLayout& shape);

// oneDNN's reorders on the calling process's CPU engine. Buffer sizes are
// the caller's to check (plain.get_size(), blocked.get_size()). The first
// is any reorder between two descriptors; pack, unpack and relayout are it
// between the plain and blocked ones, or two blocked ones.
void onednn_reorder(const dnnl::memory::desc& from, const dnnl::memory::desc& to, std::span<const uint8_t> in,
                    std::span<uint8_t> out);
void onednn_pack(const OneDnnFormat& format, std::span<const uint8_t> dense, std::span<uint8_t> physical);
void onednn_unpack(const OneDnnFormat& format, std::span<const uint8_t> physical, std::span<uint8_t> dense);
void onednn_relayout(const OneDnnFormat& from, const OneDnnFormat& to, std::span<const uint8_t> physical,
                     std::span<uint8_t> out);

// The implementation oneDNN picks for a reorder between these descriptors,
// as ONEDNN_VERBOSE prints it: "jit:uni", "simple:any", ...
std::string onednn_reorder_impl(const dnnl::memory::desc& from, const dnnl::memory::desc& to);

// The classes of value that oneDNN 2.6's same-type reorder changes for
// `type` when it runs the implementation `impl` on oneDNN's effective ISA
// (docs/PEERS.md, "What oneDNN changes"); none where it copies bits. Any
// other difference from the spec is a real disagreement.
std::vector<check::ValueClass> onednn_value_changes(ElementType type, std::string_view impl);

// Whether oneDNN's effective ISA (the CPU's, or less under
// ONEDNN_MAX_CPU_ISA) has every instruction set of `isa`
// (dnnl::cpu_isa::avx512_core, avx512_core_bf16, ...).
bool onednn_isa_has(dnnl::cpu_isa isa);

// Limits oneDNN's OpenMP runtime to one thread. OMP_NUM_THREADS set in main
// is too late (libgomp reads it when it is loaded, before main), so this
// calls OpenMP's own function, found at run time so the program need not
// link libgomp. False when that failed.
bool limit_onednn_to_one_thread();

}  // namespace tilecheck::peers
