// A reproducer for XLA, in XLA's own API: the overload of PackIntN that
// returns a new buffer, PackIntN(bits_per_element, data, size), allocates
// size * bits_per_element / 8 bytes, rounded down, and then packs into them
// all `size` values: for a count whose bits are not a whole number of bytes
// (an odd count of 4-bit values, say), it writes one byte past the end of
// the buffer it allocated, and the buffer it returns lacks the last values.
//
// It counts the bytes each allocation gets and puts a guard byte after
// them, then packs s4[7] and s4[1], each in a child process. It exits 1
// while the finding holds (a guard byte is overwritten, or the write is
// stopped by a check: Abseil's bounds assertion in Span::operator[] when
// built without NDEBUG, AddressSanitizer's heap-buffer-overflow), 0 once it
// is fixed. Build beside xla/util.h.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "xla/util.h"

namespace {

constexpr unsigned char kGuard = 0xa5;
size_t last_size = 0;               // the size of the last new[]
unsigned char* last_block = nullptr;

}  // namespace

// Every new[] gets one guard byte after the bytes asked for.
void* operator new[](size_t size) {
  auto* block = static_cast<unsigned char*>(std::malloc(size + 1));
  if (block == nullptr) throw std::bad_alloc();
  block[size] = kGuard;
  last_size = size;
  last_block = block;
  return block;
}
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace {

// s4[7] = {1, ..., 7} and s4[1] = {1}, with the bytes they pack into,
// ceil(count * 4 / 8) of them, from tilecheck's spec (`tilecheck pack
// 's4[7]{0:E(4)}'` of the bytes 01 .. 07 gives 21 43 65 07; of 01 alone,
// `'s4[1]{0:E(4)}'` gives 01).
const char kValues[7] = {1, 2, 3, 4, 5, 6, 7};
struct Case {
  size_t count;
  size_t packed_size;
  unsigned char packed[4];
};
constexpr Case kCases[] = {{7, 4, {0x21, 0x43, 0x65, 0x07}}, {1, 1, {0x01}}};

// True if the finding holds for `c`: the overload's buffer is not the
// packed size, or a byte past it was written, or the bytes differ.
bool holds_for(const Case& c) {
  std::unique_ptr<char[]> packed = xla::PackIntN(4, kValues, c.count);
  const size_t size = last_size;
  const bool overrun = last_block[size] != kGuard;
  std::printf("PackIntN(4, s4[%zu]): a buffer of %zu bytes for %zu%s\n", c.count, size, c.packed_size,
              overrun ? "; the byte after it is overwritten" : "");
  if (overrun || size != c.packed_size) return true;
  if (std::memcmp(packed.get(), c.packed, size) != 0) {
    std::printf("  and the packed bytes differ\n");
    return true;
  }
  return false;
}

// holds_for(c) in a child: true if the finding holds.
bool holds(const Case& c) {
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    const bool held = holds_for(c);
    std::fflush(stdout);
    _exit(held ? 1 : 0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFSIGNALED(status)) {
    std::printf("PackIntN(4, s4[%zu]): killed by signal %d, a check caught the write past the buffer\n", c.count,
                WTERMSIG(status));
    return true;
  }
  return WEXITSTATUS(status) != 0;
}

}  // namespace

int main() {
  bool held = false;
  for (const Case& c : kCases) held = holds(c) || held;
  return held ? 1 : 0;
}
