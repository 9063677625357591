// A reproducer for oneDNN, in oneDNN's own API: the AVX2 jit reorder
// (`jit:uni`) moves 32-bit integers through f32 registers when it
// transposes, so an s32-to-s32 reorder of plain `ab` into `ba` rounds every
// integer past 2^24 to f32 precision (16777217 becomes 16777216). oneDNN at
// SSE41 or AVX, whose kernels copy, is exact.
//
// It exits 1 while the finding holds, 0 once it is fixed, 77 on a CPU
// without AVX2 (the kernel is not there), 2 if oneDNN fails. Build:
//   g++ -std=c++17 s32_avx2_transpose.cc -ldnnl
#include <cstdint>
#include <cstdio>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

// s32[8,8], row-major (oneDNN's `ab`): odd integers past 2^24, which f32
// cannot hold exactly, and the extremes.
const int32_t kInput[64] = {
    16777217, 123456789, -330304337, 2147483647, -2147483647, 504717437, 1028446767, 1552176097,
    2075905427, 468928325, 992657655, 1516386985, 2040116315, 433139215, 956868545, 1480597875,
    2004327205, 397350103, 921079433, 1444808763, 1968538093, 361560993, 885290323, 1409019653,
    1932748983, 325771881, 849501211, 1373230541, 1896959871, 289982771, 813712101, 1337441431,
    1861170761, 254193659, 777922989, 1301652319, 1825381649, 218404549, 742133879, 1265863209,
    1789592539, 182615437, 706344767, 1230074097, 1753803427, 146826327, 670555657, 1194284987,
    1718014317, 111037215, 634766545, 1158495875, 1682225205, 75248105, 598977435, 1122706765,
    1646436095, 39458993, 563188323, 1086917653, 1610646983, 2134376313, 527399213, 1051128543,
};

// The same array in `ba` (column-major): the physical buffer of the XLA
// layout s32[8,8]{0,1}, as tilecheck's spec packs kInput
// (`tilecheck pack 's32[8,8]{0,1}'`).
const int32_t kExpected[64] = {
    16777217, 2075905427, 2004327205, 1932748983, 1861170761, 1789592539, 1718014317, 1646436095,
    123456789, 468928325, 397350103, 325771881, 254193659, 182615437, 111037215, 39458993,
    -330304337, 992657655, 921079433, 849501211, 777922989, 706344767, 634766545, 563188323,
    2147483647, 1516386985, 1444808763, 1373230541, 1301652319, 1230074097, 1158495875, 1086917653,
    -2147483647, 2040116315, 1968538093, 1896959871, 1825381649, 1753803427, 1682225205, 1610646983,
    504717437, 433139215, 361560993, 289982771, 218404549, 146826327, 75248105, 2134376313,
    1028446767, 956868545, 885290323, 813712101, 742133879, 670555657, 598977435, 527399213,
    1552176097, 1480597875, 1409019653, 1337441431, 1265863209, 1194284987, 1122706765, 1051128543,
};

}  // namespace

int main() {
  try {
#if defined(__x86_64__)
    // Before any primitive is made: at most AVX2, so that a CPU with
    // AVX-512 runs the same kernel.
    dnnl::set_max_cpu_isa(dnnl::cpu_isa::avx2);
    const auto avx2 = static_cast<unsigned>(dnnl::cpu_isa::avx2);
    if ((static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & avx2) != avx2)
#endif
    {
      std::printf("this CPU has no AVX2: the kernel of this finding cannot run here\n");
      return 77;
    }
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    const dnnl::memory::dims dims = {8, 8};
    const dnnl::memory::desc src_md(dims, dnnl::memory::data_type::s32, dnnl::memory::format_tag::ab);
    const dnnl::memory::desc dst_md(dims, dnnl::memory::data_type::s32, dnnl::memory::format_tag::ba);
    std::vector<int32_t> input(kInput, kInput + 64), output(64, 0);
    dnnl::memory src(src_md, engine, input.data()), dst(dst_md, engine, output.data());
    const dnnl::reorder::primitive_desc reorder_pd(engine, src_md, engine, dst_md);
    std::printf("oneDNN %d.%d.%d, reorder %s: s32 {8,8} from ab to ba\n", dnnl_version()->major,
                dnnl_version()->minor, dnnl_version()->patch, reorder_pd.impl_info_str());
    dnnl::reorder(reorder_pd).execute(stream, src, dst);
    stream.wait();
    int wrong = 0;
    for (int i = 0; i < 64; ++i) {
      if (output[i] != kExpected[i] && ++wrong <= 4) {
        std::printf("  ba[%d]: expected %d, got %d\n", i, kExpected[i], output[i]);
      }
    }
    std::printf("%d of 64 integers wrong\n", wrong);
    return wrong == 0 ? 0 : 1;
  } catch (const dnnl::error& e) {
    std::printf("oneDNN failed: %s\n", e.what());
    return 2;
  }
}
