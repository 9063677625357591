// A reproducer for oneDNN, in oneDNN's own API: the reference reorder
// (`simple:any`, which oneDNN takes for any pair of formats its jit kernels
// decline) converts every value through float, integers included, so an
// s32-to-s32 reorder rounds every integer past 2^24 to f32 precision
// (-330304337 becomes -330304352), on every ISA.
//
// The case: the XLA layout s32[2,2]{1,0:T(16,8)(8,4)(4,2)(2,1)}, in oneDNN's
// terms a blocked s32 {2,2} with seven inner blocks 2a2b2a2b2a2b2a (padded to
// {16,8}), reordered into plain `ab`. It exits 1 while the finding holds, 0
// once it is fixed, 2 if oneDNN fails. Build:
//   g++ -std=c++17 s32_reference_reorder.cc -ldnnl
#include <cstdint>
#include <cstdio>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

// The four integers, in row-major order (oneDNN's `ab`): what the reorder
// must write.
const int32_t kExpected[4] = {16777217, 123456789, -330304337, 2147483647};

// Where each lies in the blocked buffer of 16 x 8 elements, from tilecheck's
// spec (`tilecheck index 's32[2,2]{1,0:T(16,8)(8,4)(4,2)(2,1)}' 0,1` is 2):
// elements (0,0), (0,1), (1,0), (1,1) at 0, 2, 1, 3; the rest is padding.
const int kOffset[4] = {0, 2, 1, 3};

}  // namespace

int main() {
  try {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    const dnnl::memory::desc plain({2, 2}, dnnl::memory::data_type::s32, dnnl::memory::format_tag::ab);
    // The blocked format, through the blocking fields of oneDNN's memory
    // descriptor (its format tags stop short of seven inner blocks).
    dnnl_memory_desc_t md = plain.data;
    md.padded_dims[0] = 16;
    md.padded_dims[1] = 8;
    dnnl_blocking_desc_t& blocking = md.format_desc.blocking;
    blocking.inner_nblks = 7;
    for (int k = 0; k < 7; ++k) {
      blocking.inner_blks[k] = 2;
      blocking.inner_idxs[k] = k % 2;  // a, b, a, b, a, b, a
    }
    blocking.strides[0] = 128;  // one outer block of 16 x 8 in each dim
    blocking.strides[1] = 128;
    const dnnl::memory::desc blocked(md);

    std::vector<int32_t> input(blocked.get_size() / sizeof(int32_t), 0), output(4, 0);
    for (int i = 0; i < 4; ++i) input[kOffset[i]] = kExpected[i];
    dnnl::memory src(blocked, engine, input.data()), dst(plain, engine, output.data());
    const dnnl::reorder::primitive_desc reorder_pd(engine, blocked, engine, plain);
    std::printf("oneDNN %d.%d.%d, reorder %s: s32 {2,2} from 2a2b2a2b2a2b2a blocks to ab\n", dnnl_version()->major,
                dnnl_version()->minor, dnnl_version()->patch, reorder_pd.impl_info_str());
    dnnl::reorder(reorder_pd).execute(stream, src, dst);
    stream.wait();
    int wrong = 0;
    for (int i = 0; i < 4; ++i) {
      if (output[i] != kExpected[i]) {
        ++wrong;
        std::printf("  ab[%d]: expected %d, got %d\n", i, kExpected[i], output[i]);
      }
    }
    std::printf("%d of 4 integers wrong\n", wrong);
    return wrong == 0 ? 0 : 1;
  } catch (const dnnl::error& e) {
    std::printf("oneDNN failed: %s\n", e.what());
    return 2;
  }
}
