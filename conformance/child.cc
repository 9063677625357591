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
  // Optional: a plugin built against an older header exports none of these.
  tilecheck_impl_unpack_fn unpack = nullptr;
  tilecheck_impl_delinearize_fn delinearize = nullptr;
  tilecheck_impl_relayout_fn relayout = nullptr;
};

// Calls `call(src, src_bytes, dst, dst_bytes)` on a copy of the source and a
// guarded destination pre-filled with a nonzero pattern (so bytes left
// unwritten show), and writes its status, whether it wrote outside dst or
// changed src, and dst.
template <class Call>
void buffer_call(MessageReader& in, MessageWriter& out, Call call) {
  const std::vector<uint8_t> src = in.bytes();
  const std::vector<uint8_t> src_copy = src;
  const size_t dst_bytes = static_cast<size_t>(in.i64());
  check::GuardedBuffer dst(dst_bytes, 0xA5);
  const int status = call(src_copy.data(), src_copy.size(), dst.span().data(), dst_bytes);
  const std::vector<uint8_t> after = dst.bytes();
  out.i32(status).u8(!dst.intact()).u8(src_copy != src).bytes(after.data(), after.size());
}

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
    case kPackOp:
      buffer_call(in, out, [&](const void* src, size_t n, void* dst, size_t m) {
        return impl.pack(layout.c_str(), src, n, dst, m);
      });
      break;
    case kUnpackOp:
      buffer_call(in, out, [&](const void* src, size_t n, void* dst, size_t m) {
        return impl.unpack(layout.c_str(), src, n, dst, m);
      });
      break;
    case kRelayoutOp: {
      const std::string to = in.str();
      buffer_call(in, out, [&](const void* src, size_t n, void* dst, size_t m) {
        return impl.relayout(layout.c_str(), to.c_str(), src, n, dst, m);
      });
      break;
    }
    case kDelinearizeOp: {
      const int64_t rank = in.i64(), count = in.i64();
      std::vector<int64_t> element(static_cast<size_t>(std::max<int64_t>(rank, 1)));
      for (int64_t k = 0; k < count; ++k) {
        const int64_t position = in.i64();
        std::fill(element.begin(), element.end(), 0);
        int is_padding = 0;
        const int status = impl.delinearize(layout.c_str(), position, rank, element.data(), &is_padding);
        out.i32(status).u8(is_padding != 0);
        for (int64_t i = 0; i < rank; ++i) out.i64(element[static_cast<size_t>(i)]);
      }
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
  impl.unpack = reinterpret_cast<tilecheck_impl_unpack_fn>(dlsym(library, "tilecheck_impl_unpack"));
  impl.delinearize = reinterpret_cast<tilecheck_impl_delinearize_fn>(
      dlsym(library, "tilecheck_impl_delinearize"));
  impl.relayout =
      reinterpret_cast<tilecheck_impl_relayout_fn>(dlsym(library, "tilecheck_impl_relayout"));
  hello.u8(1)
      .u8(impl.linear_index != nullptr)
      .u8(impl.pack != nullptr)
      .u8(impl.byte_size != nullptr)
      .u8(impl.unpack != nullptr)
      .u8(impl.delinearize != nullptr)
      .u8(impl.relayout != nullptr);
  if (!send_message(out_fd, hello.payload())) _exit(0);
  std::vector<uint8_t> request;
  while (read_message(in_fd, request, std::nullopt) == ReadStatus::kOk) {
    if (!send_message(out_fd, answer(impl, request))) break;
  }
  // _exit: no atexit handlers, no leak check, no flushing the parent's buffers.
  _exit(0);
}

}  // namespace tilecheck::conformance
