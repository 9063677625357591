#!/usr/bin/env bash
# The main job needs only what it uses: configures tilecheck as scripts/run
# does, but as if OpenCL (oneDNN's CMake package requires it), Google
# Benchmark were not installed (and, as scripts/run
# configures, without the tests, so GoogleTest and clang are not asked for), while oneDNN itself is. The
# configure must succeed, say in one line each what is missing and disabled,
# and leave a build graph for `tilecheck` (ninja -n: planned, not compiled,
# since scripts/run's own build is the same graph). Used by ctest
# (main_job_without_optional_packages).
#
# usage: main_job_minimal.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
log=$work/configure.log
if ! cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILECHECK_BUILD_TESTS=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenCL=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON >"$log" 2>&1; then
  echo "FAIL: the configure failed without the optional packages:" >&2
  cat "$log" >&2
  exit 1
fi
fail=0
expect_line() {  # expect_line PATTERN: exactly one configure line matches
  local n
  n=$(grep -c -- "$1" "$log" || true)
  if [[ $n != 1 ]]; then
    echo "FAIL: expected one configure line matching '$1', found $n" >&2
    fail=1
  fi
}
expect_line '^-- tilecheck: optional Google Benchmark not found: bench/ (tilecheck_bench) disabled (apt-get install libbenchmark-dev enables it)$'
expect_line '^-- tilecheck: optional oneDNN unusable (its CMake package needs OpenCL, which is missing): .* disabled (apt-get install libdnnl-dev ocl-icd-opencl-dev enables it)$'
if grep -q 'CMake Warning\|CMake Error' "$log"; then
  echo "FAIL: the configure warned or erred:" >&2
  cat "$log" >&2
  fail=1
fi
if ! ninja -C "$work/build" -n tilecheck >"$work/plan.log" 2>&1; then
  echo "FAIL: no build graph for tilecheck:" >&2
  cat "$work/plan.log" >&2
  fail=1
fi
if ninja -C "$work/build" -t targets all | grep -q 'tilecheck_bench\|onednn_crosscheck_test'; then
  echo "FAIL: a benchmark target was configured without its libraries" >&2
  fail=1
fi
((fail == 0)) && echo "ok: the main job configures without OpenCL and Google Benchmark"
exit $fail
