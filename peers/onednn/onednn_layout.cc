#include "peers/onednn/onednn_layout.h"

#include <dlfcn.h>

#include <cstring>

namespace tilecheck::peers {

namespace {

std::variant<dnnl_data_type_t, std::string> data_type(ElementType type) {
  switch (type) {
    case ElementType::kF32: return dnnl_f32;
    case ElementType::kS32: return dnnl_s32;
    case ElementType::kBF16: return dnnl_bf16;
    case ElementType::kF16: return dnnl_f16;
    case ElementType::kS8: return dnnl_s8;
    case ElementType::kU8: return dnnl_u8;
    default: return "oneDNN has no " + std::string(element_type_name(type)) + " elements";
  }
}

bool has_combined(const Tile& t) {
  for (const int64_t e : t.dims) {
    if (e == kCombineDim) return true;
  }
  return false;
}

// The inner blocks of the layout's tiles, outermost first, on logical dims;
// or why there are none. `phys[i]` is the logical dim at physical position
// i, most major first.
std::variant<std::vector<Block>, std::string> inner_blocks(const Layout& l, const std::vector<int>& phys) {
  std::vector<Block> blocks;
  if (l.tiles.empty()) return blocks;
  const size_t n = phys.size();
  // `level`: the indices in `blocks` of the current tile level's entries,
  // which the next level splits (XLA applies each tile to the minor dims of
  // the shape the previous one tiled: the previous tile's own dims).
  std::vector<size_t> level;
  for (size_t level_index = 0; level_index < l.tiles.size(); ++level_index) {
    const std::vector<int64_t>& t = l.tiles[level_index].dims;
    if (has_combined(l.tiles[level_index])) return std::string("a combined dim '*' in a tile");
    const size_t reach = level_index == 0 ? n : level.size();  // the dims this level can split
    const size_t m = std::min(t.size(), reach);
    for (size_t j = 0; j + m < t.size(); ++j) {
      if (t[j] != 1) {
        return std::string(level_index == 0 ? "a tile entry above one on a dim the array lacks"
                                            : "a sub-tile reaching past its tile's dims (it tiles the tile counts)");
      }
    }
    std::vector<size_t> next;
    for (size_t j = 0; j < m; ++j) {
      const int64_t e = t[t.size() - m + j];
      if (level_index == 0) {
        blocks.push_back({e, phys[n - m + j]});
      } else {
        Block& split = blocks[level[level.size() - m + j]];
        if (split.size % e != 0) {
          return "a sub-tile entry " + std::to_string(e) + " that does not divide its tile's " +
                 std::to_string(split.size) + " (XLA pads inside the tile; oneDNN pads only whole blocks)";
        }
        split.size /= e;
        blocks.push_back({e, split.dim});
      }
      next.push_back(blocks.size() - 1);
    }
    level = std::move(next);
  }
  std::vector<Block> kept;
  for (const Block& b : blocks) {
    if (b.size != 1) kept.push_back(b);
  }
  if (kept.size() > DNNL_MAX_NDIMS) return "more than oneDNN's " + std::to_string(DNNL_MAX_NDIMS) + " inner blocks";
  return kept;
}

void reorder(const dnnl::memory::desc& from, const void* src, const dnnl::memory::desc& to, void* dst) {
  if (from.get_size() == 0 || to.get_size() == 0) return;  // an empty array: nothing to move
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  // oneDNN reads the source through a non-const pointer but does not write it.
  dnnl::memory a(from, engine, const_cast<void*>(src));
  dnnl::memory b(to, engine, dst);
  dnnl::reorder(a, b).execute(stream, a, b);
  stream.wait();
}

}  // namespace

std::variant<OneDnnFormat, std::string> onednn_format(const ShapeWithLayout& s) {
  const auto dt = data_type(s.type);
  if (const auto* why = std::get_if<std::string>(&dt)) return *why;
  const Layout& l = s.layout;
  if (l.element_size_bits.has_value() && *l.element_size_bits != natural_bit_width(s.type)) {
    return std::string("E(n) narrower than the element type: oneDNN stores whole elements");
  }
  if (l.tail_padding_alignment.value_or(1) != 1) return std::string("L(n) tail padding");
  const int n = static_cast<int>(s.rank());
  if (n == 0) return std::string("a scalar: oneDNN's memory has at least one dim");
  if (n > DNNL_MAX_NDIMS) return "more than oneDNN's " + std::to_string(DNNL_MAX_NDIMS) + " dims";
  for (const int64_t d : s.dims) {
    if (d < 0) return std::string("a dim of unknown size");
  }
  std::vector<int> phys(n);
  for (int i = 0; i < n; ++i) phys[i] = static_cast<int>(l.minor_to_major[n - 1 - i]);
  auto blocks_or = inner_blocks(l, phys);
  if (const auto* why = std::get_if<std::string>(&blocks_or)) return *why;
  std::vector<Block> blocks = std::move(std::get<std::vector<Block>>(blocks_or));

  dnnl_memory_desc_t plain;
  dnnl_dims_t dims = {};
  for (int i = 0; i < n; ++i) dims[i] = s.dims[i];
  if (dnnl_memory_desc_init_by_strides(&plain, n, dims, std::get<dnnl_data_type_t>(dt), nullptr) != dnnl_success) {
    return std::string("oneDNN rejects the dims");
  }
  dnnl_memory_desc_t md = plain;
  auto& b = md.format_desc.blocking;
  std::vector<int64_t> block(n, 1);
  b.inner_nblks = static_cast<int>(blocks.size());
  int64_t stride = 1;
  for (size_t i = 0; i < blocks.size(); ++i) {
    b.inner_blks[i] = blocks[i].size;
    b.inner_idxs[i] = blocks[i].dim;
    block[blocks[i].dim] *= blocks[i].size;
    stride *= blocks[i].size;
  }
  for (int i = n - 1; i >= 0; --i) {  // physical order, minor first
    const int d = phys[i];
    md.padded_dims[d] = (s.dims[d] + block[d] - 1) / block[d] * block[d];
    b.strides[d] = stride;
    stride *= md.padded_dims[d] / block[d];
  }
  return OneDnnFormat{dnnl::memory::desc(plain), dnnl::memory::desc(md), std::move(blocks)};
}

void onednn_reorder(const dnnl::memory::desc& from, const dnnl::memory::desc& to, std::span<const uint8_t> in,
                    std::span<uint8_t> out) {
  reorder(from, in.data(), to, out.data());
}

void onednn_pack(const OneDnnFormat& format, std::span<const uint8_t> dense, std::span<uint8_t> physical) {
  reorder(format.plain, dense.data(), format.blocked, physical.data());
}

void onednn_unpack(const OneDnnFormat& format, std::span<const uint8_t> physical, std::span<uint8_t> dense) {
  reorder(format.blocked, physical.data(), format.plain, dense.data());
}

void onednn_relayout(const OneDnnFormat& from, const OneDnnFormat& to, std::span<const uint8_t> physical,
                     std::span<uint8_t> out) {
  reorder(from.blocked, physical.data(), to.blocked, out.data());
}

std::string onednn_reorder_impl(const dnnl::memory::desc& from, const dnnl::memory::desc& to) {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return dnnl::reorder::primitive_desc(engine, from, engine, to).impl_info_str();
}

bool onednn_isa_has(dnnl::cpu_isa isa) {
  const auto bits = static_cast<unsigned>(isa);
  return (static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & bits) == bits;
}

std::vector<check::ValueClass> onednn_value_changes(ElementType type, std::string_view impl) {
  using check::ValueClass;
  // The simple reorder converts each value through f32: signalling NaNs
  // come out quiet and -0 as +0, bf16 denormals as signed zeros, and s32
  // past 2^24 rounded to f32's precision. It is
  // what oneDNN picks for bf16 and f16 without AVX-512, and for blocked
  // formats its jit kernels do not take.
  if (impl.starts_with("simple:")) {
    switch (type) {
      case ElementType::kBF16:
        return {ValueClass::kSignallingNanQuieted, ValueClass::kDenormalFlushedToZero,
                ValueClass::kNegativeZeroMadePositive};
      case ElementType::kF16:
      case ElementType::kF32:
        return {ValueClass::kSignallingNanQuieted, ValueClass::kNegativeZeroMadePositive};
      case ElementType::kS32:
        return {ValueClass::kIntegerRoundedToF32};
      default:
        return {};
    }
  }
  // The AVX2 jit kernel moves s32 through f32 where it transposes or
  // blocks (exact with oneDNN limited to SSE4.1 or AVX).
  if (impl.starts_with("jit:") && type == ElementType::kS32) return {ValueClass::kIntegerRoundedToF32};
  // With AVX512_BF16, some jit kernels (those of 8x8 blocks, such as
  // bf16[8,8]{1,0:T(8,8)(8,1)}) convert bf16 through f32 and back with
  // VCVTNEPS2BF16, which quiets NaNs and treats denormals as zero
  // whatever MXCSR says; -0 keeps its sign.
  if (impl.starts_with("jit:") && type == ElementType::kBF16 && onednn_isa_has(dnnl::cpu_isa::avx512_core_bf16)) {
    return {ValueClass::kSignallingNanQuieted, ValueClass::kDenormalFlushedToZero};
  }
  return {};
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

}  // namespace tilecheck::peers
