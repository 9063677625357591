#include "conformance/child.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <tilecheck/conformance_plugin.h>
#include "check/buffers.h"
#include "conformance/protocol.h"

namespace tilecheck::conformance {
namespace {

// The child: load the library, say what it exports, answer until EOF.

struct LoadedImpl {
  tilecheck_impl_linear_index_fn linear_index = nullptr;
  tilecheck_impl_pack_fn pack = nullptr;
  tilecheck_impl_byte_size_fn byte_size = nullptr;
};

std::vector<uint8_t> answer(const LoadedImpl& impl, const std::vector<uint8_t>& request) {
  MessageReader in(request);
  const uint8_t op = in.u8();
  const std::string layout = in.str();
  MessageWriter out;
  switch (op) {
    case kIndexOp: {
      const int64_t rank = in.i64(), count = in.i64();
      const uint8_t* coords = in.take(static_cast<size_t>(rank * count) * sizeof(int64_t));
      // Never a null pointer, even for a scalar's empty element.
      std::vector<int64_t> element(static_cast<size_t>(std::max<int64_t>(rank, 1)));
      for (int64_t k = 0; k < count; ++k) {
        if (rank > 0)
          std::memcpy(element.data(), coords + k * rank * sizeof(int64_t), rank * sizeof(int64_t));
        int64_t index = 0;
        const int status = impl.linear_index(layout.c_str(), rank, element.data(), &index);
        out.i32(status).i64(index);
      }
      break;
    }
    case kSizeOp: {
      int64_t bytes = 0;
      const int status = impl.byte_size(layout.c_str(), &bytes);
      out.i32(status).i64(bytes);
      break;
    }
    case kPackOp: {
      const std::vector<uint8_t> src = in.bytes();
      const std::vector<uint8_t> src_copy = src;
      const size_t dst_bytes = static_cast<size_t>(in.i64());
      // Pre-filled with a nonzero pattern, so padding left unwritten shows.
      check::GuardedBuffer dst(dst_bytes, 0xA5);
      const int status =
          impl.pack(layout.c_str(), src_copy.data(), src_copy.size(), dst.span().data(), dst_bytes);
      const std::vector<uint8_t> after = dst.bytes();
      out.i32(status).u8(!dst.intact()).u8(src_copy != src).bytes(after.data(), after.size());
      break;
    }
    default:
      break;
  }
  return out.payload();
}

}  // namespace

[[noreturn]] void serve(const std::string& path, int in_fd, int out_fd) {
  MessageWriter hello;
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    send_message(out_fd, MessageWriter().u8(0).str(why ? why : "dlopen failed").payload());
    _exit(0);
  }
  LoadedImpl impl;
  impl.linear_index = reinterpret_cast<tilecheck_impl_linear_index_fn>(
      dlsym(library, "tilecheck_impl_linear_index"));
  impl.pack = reinterpret_cast<tilecheck_impl_pack_fn>(dlsym(library, "tilecheck_impl_pack"));
  impl.byte_size =
      reinterpret_cast<tilecheck_impl_byte_size_fn>(dlsym(library, "tilecheck_impl_byte_size"));
  hello.u8(1)
      .u8(impl.linear_index != nullptr)
      .u8(impl.pack != nullptr)
      .u8(impl.byte_size != nullptr);
  if (!send_message(out_fd, hello.payload())) _exit(0);
  std::vector<uint8_t> request;
  while (read_message(in_fd, request, std::nullopt) == ReadStatus::kOk) {
    if (!send_message(out_fd, answer(impl, request))) break;
  }
  // _exit: no atexit handlers, no leak check, no flushing the parent's buffers.
  _exit(0);
}

}  // namespace tilecheck::conformance
