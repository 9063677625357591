# Debian packages tilecheck needs, installed only when missing.
# Sourced by the scripts; call `tilecheck_install_deps main` (what the main
# job, scripts/run, uses), `tilecheck_install_deps test` (what scripts/test
# uses as well) or `tilecheck_install_deps all` (everything: the tests that
# build the project again, the benchmarks and the fuzzers as well).
# To add a package: one line in the list it belongs to, with why it is there.
# A package only the tests, benchmarks or fuzzers use goes in the second or
# third list: the build detects it and disables what needs it when it is
# missing.

# Needed to build and run `tilecheck gate` (scripts/run).
tilecheck_main_packages=(
  cmake               # the build system (3.25 as Debian bookworm has it)
  ninja-build         # the generator the scripts use
  g++                 # the C++20 compiler
  libhwy-dev          # Highway: portable SIMD with runtime dispatch in impl/
  librapidcheck-dev   # RapidCheck: the generated properties, which the gate runs too
  libcli11-dev        # CLI11: the tilecheck command's argument parsing
  nlohmann-json3-dev  # nlohmann-json: tilecheck --json output
  libz3-dev           # Z3 C++ API: the proofs in proofs/, which the gate runs too
)

# Needed only by the tests (scripts/test), the benchmarks and the fuzzers.
tilecheck_test_packages=(
  libgtest-dev        # GoogleTest: the unit tests under ctest
  libgmock-dev        # GoogleMock: the testing kit's matchers (include/tilecheck/testing/gmock.h) and their test
  libclang-rt-14-dev  # FuzzedDataProvider.h (the fuzz targets' replay build), libFuzzer and clang's sanitizer runtimes
  libbenchmark-dev    # Google Benchmark: bench/
  libdnnl-dev         # oneDNN: a peer reorder for bench/ and the oneDNN cross-check test
  ocl-icd-opencl-dev  # OpenCL: oneDNN's CMake package requires it (only a Recommends of libdnnl-dev)
  z3                  # the z3 command: a test re-checks the SMT-LIB files of `prove --smt2`
  librsvg2-bin        # rsvg-convert: a test renders the SVG figures
  python3             # scripts/bench's report; the Python example implementation and the gate protocol's tests
  python3-jsonschema  # a test validates a recorded gate protocol exchange against docs/protocol-v1.schema.json
  pkgconf             # pkg-config: the package tests build against tilecheck.pc
)

# Needed by the tests as the test list is, on amd64 only (Debian builds
# these for amd64 alone; elsewhere the build skips what needs them).
tilecheck_amd64_test_packages=(
  libxsmm-dev         # libxsmm: a third-party implementation under the gate (peers/libxsmm, docs/PEERS.md)
)

# Needed only by the tests that build the project again (ctest label
# "builds", scripts/test-builds), the fuzzing scripts and the Python
# package: scripts/test leaves them out, which saves a new machine their
# download and installation.
tilecheck_builds_packages=(
  clang               # second compiler; the libFuzzer targets build with it (the OSS-Fuzz build test)
  python3-pybind11    # the Python package (python/): C++ bindings (pulls pybind11-dev)
  python3-dev         # the Python package: Python's headers
  python3-numpy       # the Python package: arrays in and out of pack, unpack, the index batches
  python3-pytest      # the Python package's tests
  python3-hypothesis  # the Python package's strategies (tilecheck.strategies) and property tests
  zip                 # packs the fuzz seed corpora (fuzz/oss-fuzz/build.sh)
  unzip               # scripts/oss-fuzz-local checks the seed corpus zips
  jq                  # scripts/ci-example.sh (run by a test) reads the gate's JSON verdict
  emscripten          # scripts/build-explorer: the layout explorer's WebAssembly (web/; pulls Node.js)
  chromium            # the layout explorer's test (web_explorer) runs the page in headless Chromium
)

# Needed by the layout explorer's test when no npm command is on the PATH
# (Debian's nodejs comes without one; a Node.js from elsewhere may bring its
# own, which this must not replace): installed with the builds list then.
tilecheck_npm_packages=(
  npm                 # npm ci: the test's pinned playwright-core (web/test/package-lock.json)
)

# Needed only by scripts/package (the Debian package: the Python package is
# in it, and cpack's dpkg-shlibdeps computes its Depends) and
# scripts/test-package.
tilecheck_package_packages=(
  python3-pybind11          # the Python package: C++ bindings (pulls pybind11-dev)
  python3-dev               # the Python package: Python's headers
  python3-numpy             # the Python package: arrays in and out
  dpkg-dev                  # dpkg-shlibdeps: the Depends of the package's binaries
  file                      # dpkg-shlibdeps and cpack tell binaries by it
  debootstrap               # scripts/test-package: the bare Debian root it installs the package in
)

# Needed only by scripts/test-arm (the impl cross-built for aarch64 and run
# emulated); arm64 packages through Debian multiarch, after
# `dpkg --add-architecture arm64`, which scripts/test-arm does first.
tilecheck_arm_packages=(
  cmake ninja-build         # the build, as above
  g++-aarch64-linux-gnu     # the cross compiler, with its arm64 libc and libstdc++ (the *-arm64-cross packages)
  qemu-user-static          # qemu-aarch64-static: runs the arm64 programs on NEON and SVE CPUs
  libhwy-dev:arm64          # Highway, arm64 build (Multi-Arch: same, beside the host's)
  librapidcheck-dev:arm64   # RapidCheck, arm64 build
  libgtest-dev:arm64        # GoogleTest, arm64 build
)

# Needed only when build/test is given an XLA checkout
# (TILECHECK_XLA_SOURCE_DIR: XLA's TransposePlan as a peer, docs/PEERS.md).
tilecheck_xla_packages=(
  libabsl-dev               # Abseil, which XLA's transpose.cc is written against
)

# tilecheck_install_deps [main|test|all|arm|package|xla]: installs what is
# missing of the main list, of the main and test lists, of those and the
# builds list (the default; and the npm list when no npm command is there),
# of the Arm list, of the main and package lists, or of the XLA list.
tilecheck_install_deps() {
  local test_packages=("${tilecheck_test_packages[@]}")
  if [[ $(dpkg --print-architecture) == amd64 ]]; then test_packages+=("${tilecheck_amd64_test_packages[@]}"); fi
  local builds_packages=("${tilecheck_builds_packages[@]}")
  if ! command -v npm >/dev/null 2>&1; then builds_packages+=("${tilecheck_npm_packages[@]}"); fi
  case ${1:-all} in
    main) tilecheck_install_packages "${tilecheck_main_packages[@]}" ;;
    test) tilecheck_install_packages "${tilecheck_main_packages[@]}" "${test_packages[@]}" ;;
    all)
      tilecheck_install_packages "${tilecheck_main_packages[@]}" "${test_packages[@]}" \
        "${builds_packages[@]}"
      ;;
    arm) tilecheck_install_packages "${tilecheck_arm_packages[@]}" ;;
    package) tilecheck_install_packages "${tilecheck_main_packages[@]}" "${tilecheck_package_packages[@]}" ;;
    xla) tilecheck_install_packages "${tilecheck_xla_packages[@]}" ;;
    *) echo "tilecheck_install_deps: expected 'main', 'test', 'all', 'arm', 'package' or 'xla', got '$1'" >&2; return 2 ;;
  esac
}

# tilecheck_install_packages PACKAGE...: installs the Debian packages that are
# missing (apt-get, as root or through sudo). Prints one line naming what it
# installs; nothing when everything is there.
tilecheck_install_packages() {
  local missing=() package arch native
  native=$(dpkg --print-architecture)
  for package in "$@"; do
    # dpkg-query says "install ok installed" only for a fully installed package,
    # so a package an interrupted install left half-configured is installed again.
    # With a second architecture (scripts/test-arm's arm64 libraries) a name
    # may be installed for both, one line each: the one that counts is the
    # host's (or arch all), or the architecture a name:arch asks for.
    arch=$native
    if [[ $package == *:* ]]; then arch=${package##*:}; fi
    if ! dpkg-query -W -f='${Architecture} ${Status}\n' "$package" 2>/dev/null |
        grep -xE "($arch|all) install ok installed" >/dev/null; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  echo "deps: installing ${missing[*]}" >&2
  local sudo=()
  if ((EUID != 0)); then sudo=(sudo); fi
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
  if ! "${apt[@]}" update -qq || ! "${apt[@]}" install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null; then
    echo "deps: could not install ${missing[*]}; as root: apt-get update && apt-get install --no-install-recommends ${missing[*]}" >&2
    return 1
  fi
}
