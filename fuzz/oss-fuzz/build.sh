#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for tilecheck's fuzz targets.
#
# Uses only the environment OSS-Fuzz provides: $CC $CXX $CFLAGS $CXXFLAGS
# (sanitizer and coverage flags), $LIB_FUZZING_ENGINE (the engine to link:
# libFuzzer, AFL++, ...), $SRC (sources; this repository is $SRC/tilecheck),
# $WORK (scratch) and $OUT (results). No CMake: the base-builder image's
# CMake is older than the project needs, and the sources are few.
#
# Highway (impl/kernels.cc) has no package in OSS-Fuzz's image: the
# Dockerfile clones it into $SRC/highway and it is compiled here with the same
# flags. Without $SRC/highway (scripts/oss-fuzz-local), Debian's libhwy-dev
# is used through pkg-config.
#
# For every target fuzz/<target>.cc (one per fuzz/<target>.options) it writes
#   $OUT/<target>                  the fuzz target
#   $OUT/<target>_seed_corpus.zip  fuzz/corpus/<target>/
#   $OUT/<target>.dict             fuzz/layout.dict (one dictionary serves all)
#   $OUT/<target>.options          fuzz/<target>.options
#
# scripts/oss-fuzz-local runs this script with OSS-Fuzz's variables, without Docker.

project=$SRC/tilecheck
objects=$WORK/tilecheck-objects
mkdir -p "$objects"

library=()
if [ -d "$SRC/highway/hwy" ]; then
  includes=(-I"$project" -I"$project/include" -I"$SRC/highway")
  link=()
else
  includes=(-I"$project" -I"$project/include" $(pkg-config --cflags libhwy))
  link=($(pkg-config --libs libhwy))
fi

# Coverage instrumentation skips the oracle and the standard library
# (fuzz/coverage_ignorelist.txt says why); only where there is coverage.
case "$CXXFLAGS" in
  *-fsanitize=fuzzer*|*-fsanitize-coverage*)
    CXXFLAGS="$CXXFLAGS -fsanitize-coverage-ignorelist=$project/fuzz/coverage_ignorelist.txt" ;;
esac

compile() {  # compile SOURCE: object file path on stdout
  local source=$1
  local object=$objects/$(echo "${source#$SRC/}" | tr / _).o
  $CXX $CXXFLAGS -std=c++20 "${includes[@]}" -c "$source" -o "$object"
  echo "$object"
}

if [ -d "$SRC/highway/hwy" ]; then
  for source in "$SRC"/highway/hwy/*.cc; do
    case $source in *_test.cc) continue ;; esac
    library+=("$(compile "$source")")
  done
fi

# The library part every target links: the spec, the impl, the HLO reader,
# the bitcast and scan checks, the gate protocol's messages, the fuzz support code (the oracle, the code
# under test, the input decoding and the checks); not the unit tests.
for source in "$project"/spec/*.cc "$project"/impl/*.cc "$project"/hlo/*.cc \
              "$project"/check/scan.cc "$project"/conformance/jsonl_protocol.cc \
              "$project"/fuzz/check.cc \
              "$project"/fuzz/layout_source.cc; do
  [ -e "$source" ] || continue
  case $source in *_test.cc) continue ;; esac
  library+=("$(compile "$source")")
done

for options in "$project"/fuzz/*.options; do
  target=$(basename "$options" .options)
  target_object=$(compile "$project/fuzz/$target.cc")
  $CXX $CXXFLAGS "$target_object" "${library[@]}" "${link[@]}" $LIB_FUZZING_ENGINE -pthread \
    -o "$OUT/$target"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$project/fuzz/corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  cp "$project/fuzz/layout.dict" "$OUT/$target.dict"
  cp "$options" "$OUT/$target.options"
done
