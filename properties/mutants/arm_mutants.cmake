# Mutants that only an Arm run sees: realistic bugs of the Highway kernels
# that every x86 target (SSE4, AVX2, AVX-512) computes correctly, so that the
# x86 ctest cannot catch them, and that NEON or SVE at some vector length
# does. Built by the Arm build (scripts/test-arm configures with
# -DTILECHECK_ARM_MUTANTS=ON), never by the x86 one: scripts/test-arm runs
# each mutant's property under every qemu CPU and fails unless some CPU
# catches it with a counterexample (and, with --x86-control, unless the
# mutant survives a native x86 run). The list it reads,
# <build>/arm_mutants.txt, has one line per mutant: name, property.
file(WRITE ${CMAKE_BINARY_DIR}/arm_mutants.txt "")

# tilecheck_arm_mutant(<name> <file in impl/> <original> <mutated> <why> <property>):
# tilecheck_mutant, listed for scripts/test-arm.
function(tilecheck_arm_mutant name file original mutated why property)
  tilecheck_mutant(${name} ${file} "${original}" "${mutated}" "${why}" ${property})
  file(APPEND ${CMAKE_BINARY_DIR}/arm_mutants.txt "${name} ${property}\n")
endfunction()

# MaxLanes(d) is Highway's compile-time upper bound on Lanes(d). On every
# x86 target and on NEON the two are equal; on the scalable SVE and SVE2
# targets MaxLanes is the architecture's limit, 2048 bits (128 u16 lanes),
# whatever the vector length, so the step skips all but the first vector of
# each 128 columns (a bf16 (8,128)(2,1) tile's piece) and leaves the rest of
# the interleave unwritten. The fixed-size SVE_256 and SVE2_128 targets,
# like x86, do not see it.
tilecheck_arm_mutant(zip_step_max_lanes panel-inl.h
  [=[    const int64_t N = static_cast<int64_t>(hn::Lanes(d));
    const uint16_t* r0 = reinterpret_cast<const uint16_t*>(src);]=]
  [=[    const int64_t N = static_cast<int64_t>(hn::MaxLanes(d));
    const uint16_t* r0 = reinterpret_cast<const uint16_t*>(src);]=]
  "the 16-bit panel interleave steps by MaxLanes (the compile-time bound) instead of Lanes"
  EveryTargetMatchesSpec)
