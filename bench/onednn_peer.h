// oneDNN as a peer implementation: the blocked memory descriptor that stores
// a layout's bytes the way the layout does, and oneDNN's reorder into it.
// Used by the benchmark (oneDNN's speed beside PackPlan's) and by
// onednn_crosscheck_test (oneDNN's bytes equal PackPlan's).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "bench/cases.h"
#include <tilecheck/spec/model.h>

namespace tilecheck::bench {

struct OneDnnFormat {
  dnnl::memory::desc plain;    // the dense array: logical dims row-major
  dnnl::memory::desc blocked;  // the layout's physical buffer
};

// The oneDNN descriptors of `shape` with the given inner blocks (outermost
// first): inner blocks as listed, outer dims in the layout's physical order
// over padded dims. nullopt for an element type oneDNN lacks or a descriptor
// it rejects.
std::optional<OneDnnFormat> onednn_format(const ShapeWithLayout& shape, const std::vector<Block>& blocks);

// oneDNN's reorder of `dense` (plain) into `physical` (blocked), on one
// thread of the calling process's oneDNN CPU engine.
void onednn_reorder(const OneDnnFormat& format, std::span<const uint8_t> dense, std::span<uint8_t> physical);

// Limits oneDNN's OpenMP runtime to one thread, as pack/ and unpack/ use.
// OMP_NUM_THREADS set in main is too late (libgomp reads it when it is
// loaded, before main), so this calls OpenMP's own function, found at run
// time so the program need not link libgomp. False when that failed.
bool limit_onednn_to_one_thread();

}  // namespace tilecheck::bench
