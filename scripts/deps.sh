# Debian packages tilecheck needs, installed only when missing.
# Sourced by scripts/run and scripts/test; call tilecheck_install_deps.
# To add a package: one line in the list below, with why it is there.

tilecheck_install_deps() {
  local packages=(
    cmake               # the build system (3.25 as Debian bookworm has it)
    ninja-build         # the generator scripts/run and scripts/test use
    g++                 # the default C++20 compiler
    clang               # second compiler; libFuzzer targets build with it
    libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes for clang
    libgtest-dev        # GoogleTest: the unit tests under ctest
    libbenchmark-dev    # Google Benchmark: bench/
    librapidcheck-dev   # RapidCheck: the generated properties in properties/
    libhwy-dev          # Highway: portable SIMD with runtime dispatch in impl/
    libdnnl-dev         # oneDNN: a peer reorder implementation for bench/ and cross-checks
    libcli11-dev        # CLI11: the tilecheck command's argument parsing
    nlohmann-json3-dev  # nlohmann-json: tilecheck --json output
    libz3-dev           # Z3 C++ API: the proofs in proofs/
    z3                  # the z3 solver binary, to replay SMT-LIB dumps of proofs
    librsvg2-bin        # rsvg-convert: renders SVG figures to PNG
    python3             # small helper scripts
    pkgconf             # pkg-config: the package_consumer test builds against tilecheck.pc
    zip                 # packs the fuzz seed corpora (fuzz/oss-fuzz/build.sh)
    unzip               # scripts/oss-fuzz-local checks the seed corpus zips
  )
  local missing=() package
  for package in "${packages[@]}"; do
    # dpkg-query says "install ok installed" only for a fully installed package.
    if [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]]; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  echo "deps: installing ${missing[*]}" >&2
  local sudo=()
  if ((EUID != 0)); then sudo=(sudo); fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}
