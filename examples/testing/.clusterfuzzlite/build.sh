#!/bin/bash -eu
# The fuzz build of this project for OSS-Fuzz and ClusterFuzzLite: a template
# to copy into your own repository (docs/TESTING.md, "OSS-Fuzz and
# ClusterFuzzLite"). Both run it the same way: from this project's checkout
# ($SRC/<project>, the Dockerfile's WORKDIR), with $CC $CXX $CFLAGS $CXXFLAGS
# (the sanitizer's flags), $LIB_FUZZING_ENGINE, $SRC, $WORK and $OUT set.
#
# 1. Highway 1.0.3 from $SRC/highway (the Dockerfile clones it; without it,
#    an installed Highway is used) and tilecheck's libraries and testing kit
#    from $SRC/tilecheck (-DTILECHECK_LIBRARIES_ONLY=ON: Highway is all they
#    need), both built with those flags and installed into $WORK/deps.
# 2. This project's fuzz targets against that prefix (find_package(tilecheck)).
# 3. For every target: $OUT/<target>, a seed corpus
#    $OUT/<target>_seed_corpus.zip written by tilecheck-fuzz-seeds (the
#    catalogue's layouts, the layouts the function handles as text, recipe
#    inputs) and the dictionary $OUT/<target>.dict.
#
# Yours: the project's CMake options (step 2) and the table of targets below.

# target (as this project's build names it) | profile of its TILECHECK_FUZZ_*
# harness | layouts the function handles, as seeds
fuzz_targets=(
  "detile_bf16_fuzz_correct|tpu|bf16[16,256]{1,0:T(8,128)(2,1)} bf16[8,200]{1,0:T(8,128)(2,1)} bf16[24,128]{1,0:T(8,128)(2,1)}"
  "pack_s4_fuzz_correct|tpu|s4[16,256]{1,0:T(8,128)(8,1)E(4)} s4[8,300]{1,0:T(8,128)(8,1)E(4)} s4[3,128]{1,0:T(8,128)(8,1)E(4)}"
)

die() { echo "build.sh: error: $*" >&2; exit 1; }
for variable in SRC WORK OUT CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE; do
  [ -n "${!variable+set}" ] || die "\$$variable is not set (OSS-Fuzz and ClusterFuzzLite set it)"
done
[ -f "$SRC/tilecheck/CMakeLists.txt" ] || die "no tilecheck checkout at \$SRC/tilecheck (the Dockerfile clones it)"
command -v zip >/dev/null || die "zip not found (the Dockerfile installs it)"
project=$(pwd -P)
deps=$WORK/deps
jobs=${FUZZ_BUILD_JOBS:-$(nproc)}
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
# CMake takes the flags from $CFLAGS/$CXXFLAGS; the build type "OssFuzz" adds none of its own.
common=("${generator[@]}" -DCMAKE_BUILD_TYPE=OssFuzz -DCMAKE_PREFIX_PATH="$deps" -DCMAKE_INSTALL_PREFIX="$deps")

if [ -d "$SRC/highway/hwy" ]; then
  echo "== build.sh: Highway"
  cmake -S "$SRC/highway" -B "$WORK/highway" "${common[@]}" -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF \
    -DHWY_ENABLE_TESTS=OFF -DHWY_ENABLE_EXAMPLES=OFF -DHWY_ENABLE_CONTRIB=OFF >/dev/null
  cmake --build "$WORK/highway" -j "$jobs" >/dev/null
  cmake --install "$WORK/highway" >/dev/null
fi

echo "== build.sh: tilecheck's libraries and testing kit"
cmake -S "$SRC/tilecheck" -B "$WORK/tilecheck" "${common[@]}" -DTILECHECK_LIBRARIES_ONLY=ON \
  -DTILECHECK_BUILD_TESTS=OFF >/dev/null
cmake --build "$WORK/tilecheck" -j "$jobs"
cmake --install "$WORK/tilecheck" >/dev/null

echo "== build.sh: this project's fuzz targets"
cmake -S "$project" -B "$WORK/project" "${common[@]}" -DLAYOUTS_FUZZERS_ONLY=ON \
  -DLAYOUTS_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" >/dev/null
targets=()
for row in "${fuzz_targets[@]}"; do targets+=("${row%%|*}"); done
cmake --build "$WORK/project" -j "$jobs" --target "${targets[@]}"

for row in "${fuzz_targets[@]}"; do
  IFS='|' read -r target profile layouts <<<"$row"
  name=${target%_correct}  # the name ClusterFuzz shows
  cp "$WORK/project/$target" "$OUT/$name"
  seeds=$WORK/seeds/$name
  rm -rf "$seeds"
  layout_flags=()
  for layout in $layouts; do layout_flags+=(--layout "$layout"); done
  "$deps/bin/tilecheck-fuzz-seeds" --profile "$profile" "${layout_flags[@]}" --dict "$OUT/$name.dict" "$seeds"
  rm -f "$OUT/${name}_seed_corpus.zip"
  (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
done
echo "== build.sh: done; \$OUT has $(cd "$OUT" && ls | tr '\n' ' ')"
