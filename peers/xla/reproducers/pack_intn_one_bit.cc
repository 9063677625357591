// A reproducer for XLA, in XLA's own API: XLA has 1-bit integer types (S1,
// U1), which primitive_util::IsSubByteNonPredType counts as sub-byte, so the
// transfer managers pack and unpack them for the device with
// primitive_util::PackIntN / UnpackIntN(type, ...), that is with
// xla::PackIntN / UnpackIntN(primitive_util::BitWidth(type) = 1, ...). That
// overload takes 2 or 4 bits only and aborts ("Invalid bits_per_element:
// 1"), though the templates it dispatches to take 1 to 7.
//
// Packs and unpacks s1[3] = {1, 0, 1} in a child process. It exits 1 while
// the finding holds (a call aborts), 0 once it is fixed (both give the
// expected bytes), 2 if it cannot tell. Build beside xla/util.h.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "xla/util.h"

namespace {

// The packed byte of s1[3]{0:E(1)} = {1, 0, 1}: element i in bit i, from
// tilecheck's spec (`tilecheck pack 's1[3]{0:E(1)}'` of the bytes 01 00 01
// gives 05), as XLA packs narrower types (PackIntN<1>).
constexpr char kPacked = 0x05;
const char kUnpacked[3] = {1, 0, 1};

// Runs `call` in a child; true if it returned, false if it was killed.
template <typename F>
bool returns(const char* what, F call) {
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    _exit(call() ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFSIGNALED(status)) {
    std::printf("%s: killed by signal %d\n", what, WTERMSIG(status));
    return false;
  }
  std::printf("%s: %s\n", what, WEXITSTATUS(status) == 0 ? "the expected bytes" : "WRONG bytes");
  return WEXITSTATUS(status) == 0;
}

}  // namespace

int main() {
  const bool pack = returns("PackIntN(1, s1[3] = {1, 0, 1})", [] {
    char out[1] = {0};
    xla::PackIntN(1, absl::MakeConstSpan(kUnpacked, 3), absl::MakeSpan(out, 1));
    return out[0] == kPacked;
  });
  const bool unpack = returns("UnpackIntN(1, 0x05)", [] {
    char out[3] = {9, 9, 9};
    xla::UnpackIntN(1, absl::MakeConstSpan(&kPacked, 1), absl::MakeSpan(out, 3));
    return out[0] == kUnpacked[0] && out[1] == kUnpacked[1] && out[2] == kUnpacked[2];
  });
  return pack && unpack ? 0 : 1;
}
