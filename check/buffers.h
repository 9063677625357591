// What every check of an implementation runs it in: buffers with guard bytes
// that catch writes outside a span even when the code under test is not
// instrumented (the mutant libraries and other implementations are built
// without sanitizers), and a scope that pins the impl's SIMD dispatch to one
// Highway target.
#pragma once

#include <hwy/targets.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <vector>


namespace tilecheck::check {

// A byte buffer of `size` bytes pre-filled with `fill`, between two guard
// zones of kGuard bytes; intact() says whether the guards still hold their
// pattern. The span starts on a 64-byte boundary, as a tensor runtime
// allocates: the impl streams (non-temporal stores) only into such buffers.
class GuardedBuffer {
 public:
  static constexpr size_t kGuard = 64;
  static constexpr uint8_t kGuardByte = 0xC3;

  // `after`: the guard zone's size after the span (a source buffer gets a
  // large one, so that a kernel reading past its end reads guard bytes,
  // which then show in its output, rather than crashing).
  GuardedBuffer(size_t size, uint8_t fill, size_t after = kGuard)
      : storage_(static_cast<uint8_t*>(::operator new(kGuard + size + after, std::align_val_t(64)))),
        size_(size),
        after_(after) {
    std::fill_n(storage_.get(), kGuard + size + after, kGuardByte);
    std::fill_n(storage_.get() + kGuard, size, fill);
  }
  std::span<uint8_t> span() { return {storage_.get() + kGuard, size_}; }
  std::vector<uint8_t> bytes() const { return {storage_.get() + kGuard, storage_.get() + kGuard + size_}; }
  bool intact() const {
    auto guard = [](uint8_t b) { return b == kGuardByte; };
    const uint8_t* end = storage_.get() + kGuard + size_ + after_;
    return std::all_of(storage_.get(), storage_.get() + kGuard, guard) && std::all_of(end - after_, end, guard);
  }

 private:
  struct AlignedDelete {
    void operator()(uint8_t* p) const { ::operator delete(p, std::align_val_t(64)); }
  };
  std::unique_ptr<uint8_t, AlignedDelete> storage_;
  size_t size_, after_;
};

// Dispatches the impl's SIMD kernels to one Highway target until destroyed
// (also when an RC_ASSERT or a check throws), then to the best one again.
class ScopedTarget {
 public:
  explicit ScopedTarget(int64_t target) { hwy::SetSupportedTargetsForTest(target); }
  ~ScopedTarget() { hwy::SetSupportedTargetsForTest(0); }
  ScopedTarget(const ScopedTarget&) = delete;
  ScopedTarget& operator=(const ScopedTarget&) = delete;
};

}  // namespace tilecheck::check
