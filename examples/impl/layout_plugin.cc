// The example implementation (example_impl.h) behind the C interface of
// tilecheck/conformance_plugin.h, for `tilecheck gate --impl PATH.so`.
//
// Built once correct and once per deliberate bug (examples/impl/CMakeLists.txt),
// from one compiled copy of this file: each library adds plugin_bug.cc,
// which names its bug.
#include <cstring>
#include <exception>

#include <tilecheck/conformance_plugin.h>
#include <tilecheck/spec/syntax.h>

#include "example_impl.h"

#define TILECHECK_EXPORT extern "C" __attribute__((visibility("default")))

namespace tilecheck_example {
// The library's deliberate bug, by its `--bug` name ("" for none): plugin_bug.cc.
extern const char kPluginBug[];
}  // namespace tilecheck_example

namespace {

using tilecheck::ShapeWithLayout;
using tilecheck_example::ExampleImpl;

ExampleImpl& impl() {
  using tilecheck_example::kPluginBug;
  static ExampleImpl instance(*kPluginBug ? tilecheck_example::bug_names().at(kPluginBug)
                                          : tilecheck_example::Bug::kNone);
  return instance;
}

// Runs `body` and maps every failure to a nonzero return: nothing may leave
// a C function as an exception.
template <class Body>
int guarded(Body body) {
  try {
    return body();
  } catch (...) {
    return 1;
  }
}

// A buffer the example computed, copied out when its size is the one asked.
int copy_out(const std::vector<uint8_t>& bytes, void* dst, size_t dst_bytes) {
  if (bytes.size() != dst_bytes) return 2;
  if (!bytes.empty()) std::memcpy(dst, bytes.data(), dst_bytes);
  return 0;
}

}  // namespace

TILECHECK_EXPORT int tilecheck_impl_linear_index(const char* shape_with_layout, int64_t rank,
                                                 const int64_t* element, int64_t* linear_index) {
  return guarded([&] {
    const ShapeWithLayout s = tilecheck::parse_shape(shape_with_layout);
    if (rank != s.rank()) return 2;
    *linear_index = impl().linear_index(s, element);
    return 0;
  });
}

TILECHECK_EXPORT int tilecheck_impl_byte_size(const char* shape_with_layout, int64_t* bytes) {
  return guarded([&] {
    *bytes = impl().byte_size(tilecheck::parse_shape(shape_with_layout));
    return 0;
  });
}

TILECHECK_EXPORT int tilecheck_impl_pack(const char* shape_with_layout, const void* src,
                                         size_t src_bytes, void* dst, size_t dst_bytes) {
  return guarded([&] {
    return copy_out(impl().pack(tilecheck::parse_shape(shape_with_layout),
                                static_cast<const uint8_t*>(src), src_bytes),
                    dst, dst_bytes);
  });
}

// What a plugin built against an older header (without the macro) does not
// export; tests/plugin_abi_v1 builds this file so, as a plugin of that time.
#ifdef TILECHECK_CONFORMANCE_PLUGIN_VERSION

TILECHECK_EXPORT int tilecheck_impl_unpack(const char* shape_with_layout, const void* src,
                                           size_t src_bytes, void* dst, size_t dst_bytes) {
  return guarded([&] {
    return copy_out(impl().unpack(tilecheck::parse_shape(shape_with_layout),
                                  static_cast<const uint8_t*>(src), src_bytes),
                    dst, dst_bytes);
  });
}

TILECHECK_EXPORT int tilecheck_impl_relayout(const char* from, const char* to, const void* src,
                                             size_t src_bytes, void* dst, size_t dst_bytes) {
  return guarded([&] {
    return copy_out(impl().relayout(tilecheck::parse_shape(from), tilecheck::parse_shape(to),
                                    static_cast<const uint8_t*>(src), src_bytes),
                    dst, dst_bytes);
  });
}

TILECHECK_EXPORT int tilecheck_impl_delinearize(const char* shape_with_layout, int64_t position,
                                                int64_t rank, int64_t* element, int* is_padding) {
  return guarded([&] {
    const ShapeWithLayout s = tilecheck::parse_shape(shape_with_layout);
    if (rank != s.rank()) return 2;
    const auto e = impl().delinearize(s, position);
    *is_padding = e ? 0 : 1;
    if (e && !e->empty()) std::memcpy(element, e->data(), e->size() * sizeof(int64_t));
    return 0;
  });
}

#endif  // TILECHECK_CONFORMANCE_PLUGIN_VERSION
