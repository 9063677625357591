#include "bench/onednn_peer.h"

#include <dlfcn.h>

namespace tilecheck::bench {

std::optional<OneDnnFormat> onednn_format(const ShapeWithLayout& s, const std::vector<Block>& blocks) {
  if (blocks.empty()) return std::nullopt;
  dnnl_data_type_t dt;
  switch (s.type) {
    case ElementType::kF32: dt = dnnl_f32; break;
    case ElementType::kBF16: dt = dnnl_bf16; break;
    case ElementType::kS8: dt = dnnl_s8; break;
    default: return std::nullopt;
  }
  const int n = static_cast<int>(s.rank());
  if (n > DNNL_MAX_NDIMS || blocks.size() > DNNL_MAX_NDIMS) return std::nullopt;
  dnnl_memory_desc_t plain;
  dnnl_dims_t dims = {};
  for (int i = 0; i < n; ++i) dims[i] = s.dims[i];
  if (dnnl_memory_desc_init_by_strides(&plain, n, dims, dt, nullptr) != dnnl_success) return std::nullopt;
  dnnl_memory_desc_t md = plain;
  auto& b = md.format_desc.blocking;
  std::vector<int64_t> block(n, 1);
  b.inner_nblks = static_cast<int>(blocks.size());
  int64_t inner = 1;
  for (size_t i = 0; i < blocks.size(); ++i) {
    b.inner_blks[i] = blocks[i].size;
    b.inner_idxs[i] = blocks[i].dim;
    block[blocks[i].dim] *= blocks[i].size;
    inner *= blocks[i].size;
  }
  int64_t stride = inner;
  for (int j = n - 1; j >= 0; --j) {  // physical order, minor first
    const int l = static_cast<int>(s.layout.minor_to_major[n - 1 - j]);
    md.padded_dims[l] = (s.dims[l] + block[l] - 1) / block[l] * block[l];
    b.strides[l] = stride;
    stride *= md.padded_dims[l] / block[l];
  }
  return OneDnnFormat{dnnl::memory::desc(plain), dnnl::memory::desc(md)};
}

void onednn_reorder(const OneDnnFormat& format, std::span<const uint8_t> dense, std::span<uint8_t> physical) {
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  // oneDNN reads the source through a non-const pointer but does not write it.
  dnnl::memory src(format.plain, engine, const_cast<uint8_t*>(dense.data()));
  dnnl::memory dst(format.blocked, engine, physical.data());
  dnnl::reorder(src, dst).execute(stream, src, dst);
  stream.wait();
}

bool limit_onednn_to_one_thread() {
  using SetFn = void (*)(int);
  using GetFn = int (*)();
  auto set = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  auto get = reinterpret_cast<GetFn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (set == nullptr || get == nullptr) return false;
  set(1);
  return get() == 1;
}

}  // namespace tilecheck::bench
