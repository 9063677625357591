# Cross build for 64-bit Arm Linux with Debian's cross compiler
# (g++-aarch64-linux-gnu) against the arm64 builds of the libraries,
# installed beside the host's through Debian multiarch
# (dpkg --add-architecture arm64; apt-get install libhwy-dev:arm64 ...):
# their CMake packages and libraries are in /usr/lib/aarch64-linux-gnu,
# their headers in /usr/include, shared with the host's. scripts/test-arm
# uses it, and runs what it builds under qemu-aarch64-static.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# The multiarch directory: find_package and find_library look in
# /usr/lib/aarch64-linux-gnu (and its cmake/), never in the host's.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# What runs a built program on the host (gtest_discover_tests lists the
# tests through it). The arm64 loader and libraries are where multiarch put
# them (/lib/ld-linux-aarch64.so.1, /usr/lib/aarch64-linux-gnu).
find_program(TILECHECK_QEMU_AARCH64 qemu-aarch64-static)
if(TILECHECK_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TILECHECK_QEMU_AARCH64})
endif()
