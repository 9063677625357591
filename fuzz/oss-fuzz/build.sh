#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for tilecheck's fuzz targets.
#
# Builds the targets through the project's own CMake build (configured with
# -DTILECHECK_FUZZ_TARGETS_ONLY=ON: the fuzz targets and the libraries they
# link, nothing else), so the sources each target needs are the ones
# fuzz/CMakeLists.txt and the libraries' own CMakeLists.txt name: there is no
# second source list to fall out of date.
#
# Uses only the environment OSS-Fuzz provides: $CC $CXX $CFLAGS $CXXFLAGS
# (sanitizer and coverage flags; CMake reads them), $LIB_FUZZING_ENGINE (the
# engine's link flags: libFuzzer, AFL++, ...), $SRC (sources; this repository
# is $SRC/tilecheck), $WORK (scratch: the build trees) and $OUT (results).
# Needs CMake 3.25 or newer (OSS-Fuzz's base-builder has 3.29), zip, and
# nlohmann-json's CMake package (the Dockerfile installs nlohmann-json3-dev).
#
# Highway (the impl's SIMD kernels) has no package in OSS-Fuzz's image: the
# Dockerfile clones it into $SRC/highway, and it is built here with the same
# compiler and flags and installed into $WORK/deps. Without $SRC/highway
# (scripts/oss-fuzz-local, scripts/fuzz), the installed Highway is used
# (Debian: libhwy-dev).
#
# For every target fuzz/<target>.cc (one per fuzz/<target>.options) it writes
#   $OUT/<target>                  the fuzz target
#   $OUT/<target>_seed_corpus.zip  fuzz/corpus/<target>/
#   $OUT/<target>.dict             fuzz/layout.dict (one dictionary serves all)
#   $OUT/<target>.options          fuzz/<target>.options
# and ends by checking that all of them are there; it exits non-zero, naming
# what is wrong, when a variable or tool is missing, a target fails to build
# or a file is missing from $OUT.
#
# Optional: $TILECHECK_FUZZ_JOBS, the build's parallel jobs (default: all CPUs).
#
# scripts/oss-fuzz-local runs this script with OSS-Fuzz's variables, without
# Docker; the ctest fuzz_oss_fuzz_build runs scripts/oss-fuzz-local.

die() { echo "build.sh: error: $*" >&2; exit 1; }

for variable in SRC WORK OUT CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE; do
  [ -n "${!variable+set}" ] || die "\$$variable is not set (OSS-Fuzz sets it; scripts/oss-fuzz-local shows how)"
done
for tool in cmake zip "$CC" "$CXX"; do
  command -v "$tool" >/dev/null || die "'$tool' not found on the PATH"
done
cmake_version=$(cmake --version | sed -n '1s/[^0-9]*\([0-9][0-9.]*\).*/\1/p')
[ "$(printf '%s\n3.25\n' "$cmake_version" | sort -V | head -1)" = 3.25 ] ||
  die "CMake $cmake_version is older than the 3.25 tilecheck needs"

[ -f "$SRC/tilecheck/fuzz/CMakeLists.txt" ] || die "no tilecheck checkout at \$SRC/tilecheck ($SRC/tilecheck)"
# Work from the checkout's physical path: run from a symlinked one (as
# scripts/oss-fuzz-local links it), CMake writes every path under the
# checkout, $WORK too when it lies inside, as a path through the link.
project=$(cd "$SRC/tilecheck" && pwd -P)
cd "$project"
mkdir -p "$WORK" "$OUT"
jobs=${TILECHECK_FUZZ_JOBS:-$(nproc)}
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi

# CMake takes the flags from $CFLAGS/$CXXFLAGS; the build type "OssFuzz" adds
# none of its own (no -O2 -g over OSS-Fuzz's -O1 -gline-tables-only).
prefix=()
if [ -d "$SRC/highway/hwy" ]; then
  echo "== build.sh: Highway from \$SRC/highway"
  cmake -S "$SRC/highway" -B "$WORK/highway-build" "${generator[@]}" -DCMAKE_BUILD_TYPE=OssFuzz \
    -DCMAKE_INSTALL_PREFIX="$WORK/deps" -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF \
    -DHWY_ENABLE_TESTS=OFF -DHWY_ENABLE_EXAMPLES=OFF -DHWY_ENABLE_CONTRIB=OFF >/dev/null ||
    die "configuring Highway (\$SRC/highway) failed"
  cmake --build "$WORK/highway-build" -j "$jobs" >/dev/null || die "building Highway failed"
  cmake --install "$WORK/highway-build" >/dev/null || die "installing Highway into \$WORK/deps failed"
  prefix=(-DCMAKE_PREFIX_PATH="$WORK/deps")
fi

build=$WORK/tilecheck-build
echo "== build.sh: configuring tilecheck's fuzz targets in \$WORK/tilecheck-build"
cmake -S "$project" -B "$build" "${generator[@]}" "${prefix[@]}" -DCMAKE_BUILD_TYPE=OssFuzz \
  -DTILECHECK_FUZZ_TARGETS_ONLY=ON -DTILECHECK_BUILD_TESTS=OFF -DTILECHECK_FUZZ=ON \
  -DTILECHECK_WERROR="${TILECHECK_WERROR:-OFF}" \
  -DTILECHECK_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" >"$WORK/tilecheck-configure.log" 2>&1 ||
  { cat "$WORK/tilecheck-configure.log" >&2; die "configuring tilecheck failed (log above)"; }

targets=()
for options in "$project"/fuzz/*.options; do
  targets+=("$(basename "$options" .options)")
done
[ ${#targets[@]} -gt 0 ] || die "no fuzz/<target>.options in $project"

# All targets in one parallel build; when it fails, each target alone, to name
# the ones that do not build.
echo "== build.sh: building ${targets[*]}"
if ! cmake --build "$build" -j "$jobs" --target "${targets[@]}"; then
  broken=()
  for target in "${targets[@]}"; do
    cmake --build "$build" -j "$jobs" --target "$target" >/dev/null 2>&1 || broken+=("$target")
  done
  die "fuzz target(s) failed to build: ${broken[*]:-(the shared libraries; see the errors above)}"
fi

for target in "${targets[@]}"; do
  cp "$build/fuzz/$target" "$OUT/$target"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$project/fuzz/corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  cp "$project/fuzz/layout.dict" "$OUT/$target.dict"
  cp "$project/fuzz/$target.options" "$OUT/$target.options"
done

missing=()
for target in "${targets[@]}"; do
  for file in "$target" "${target}_seed_corpus.zip" "$target.dict" "$target.options"; do
    [ -s "$OUT/$file" ] || missing+=("$file")
  done
  [ -x "$OUT/$target" ] || missing+=("$target (not executable)")
done
[ ${#missing[@]} -eq 0 ] || die "missing from \$OUT: ${missing[*]}"
echo "== build.sh: ${#targets[@]} targets in \$OUT, each with its seed corpus zip, dictionary and options"
