#!/usr/bin/env bash
# examples/testing, a project outside tilecheck, built with clang against an
# installed tilecheck and run as its users would: its library as written
# passes its GoogleTest test, its properties and its two libFuzzer targets;
# every input of its fuzz targets reaches it (their harnesses are over the
# functions' families); the broken build is caught by each of the three -- the GoogleTest
# assertions with their message, the properties with a shrunk layout, the
# fuzz targets with the input that finds the bug, within a minute each (the
# time is printed), and by the seeds tilecheck-fuzz-seeds writes for it on
# their first pass. Used by ctest (testing_example), on the prefix that
# ci_example installs.
#
# usage: testing_example.sh SOURCE_DIR TILECHECK_PREFIX WORK_DIR
set -uo pipefail
src=$1 prefix=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail=0
problem() { echo "FAIL: $*" >&2; fail=1; }

if ! cmake -S "$src/examples/testing" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1; then
  cat "$work/configure.log"; exit 1
fi
if ! cmake --build "$work/build" -j2 >"$work/build.log" 2>&1; then
  tail -40 "$work/build.log"; exit 1
fi
b=$work/build

echo "== GoogleTest and RapidCheck, as written"
"$b/layouts_test_correct" >"$work/test_correct.log" 2>&1 || { cat "$work/test_correct.log"; problem "the correct library fails its test"; }
grep -a "PASSED" "$work/test_correct.log"

echo "== GoogleTest and RapidCheck, broken"
"$b/layouts_test_broken" >"$work/test_broken.log" 2>&1 && problem "the broken library passes its test"
for needle in \
    "unpack of bf16[16,256]{1,0:T(8,128)(2,1)} disagrees with the spec: wrong unpacked bytes" \
    "pack of s4[16,256]{1,0:T(8,128)(8,1)E(4)} disagrees with the spec: wrong packed bytes" \
    "Falsifiable after"; do
  grep -aF -- "$needle" "$work/test_broken.log" >/dev/null || problem "the broken test's output lacks: $needle"
done
# The properties' shrunk layouts.
grep -a -A3 "Falsifiable after" "$work/test_broken.log" | grep -aE '^(bf16|s4)\[' || problem "no shrunk layout printed"
grep -a "FAILED  \]" "$work/test_broken.log" | sort -u

for target in detile_bf16 pack_s4; do
  echo "== libFuzzer: $target"
  if ! "$b/${target}_fuzz_correct" -runs=20000 -seed=1 >"$work/${target}_correct.log" 2>&1; then
    tail -20 "$work/${target}_correct.log"; problem "$target as written: the fuzzer found something"
  fi
  grep -a "Done 20000 runs" "$work/${target}_correct.log" || problem "$target as written: no 'Done 20000 runs'"
  # The harness is over the function's family: every input reaches it.
  grep -a "tilecheck fuzz harness: 20000 of 20000 inputs (100.0%) reached" "$work/${target}_correct.log" ||
    problem "$target as written: not every input reached it"
  start=$(date +%s%N)
  (cd "$work" && "$b/${target}_fuzz_broken" -max_total_time=60 -seed=1 >"$work/${target}_broken.log" 2>&1)
  status=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [[ $status -ne 0 ]] || problem "$target broken: the fuzzer found nothing in 60 s"
  grep -a "disagrees with the spec" "$work/${target}_broken.log" || problem "$target broken: no message"
  grep -a "Test unit written to" "$work/${target}_broken.log" || problem "$target broken: no input saved"
  echo "$target broken: found in $((ms / 1000)).$((ms % 1000 / 100)) s"
done
# The seeds of tilecheck-fuzz-seeds name a layout each function handles:
# replaying them alone (-runs=0) passes the library as written and catches
# the broken one, before any mutation.
for row in "detile_bf16 bf16[8,200]{1,0:T(8,128)(2,1)}" "pack_s4 s4[3,128]{1,0:T(8,128)(8,1)E(4)}"; do
  read -r target layout <<<"$row"
  echo "== libFuzzer: $target over the seeds of tilecheck-fuzz-seeds --layout '$layout'"
  seeds=$work/${target}_seeds
  "$prefix/bin/tilecheck-fuzz-seeds" --profile tpu --layout "$layout" --dict "$work/$target.dict" "$seeds" ||
    problem "tilecheck-fuzz-seeds failed"
  for variant in correct broken; do
    (cd "$work" && "$b/${target}_fuzz_$variant" -runs=0 -dict="$work/$target.dict" "$seeds" \
       >"$work/${target}_${variant}_seeds.log" 2>&1)
    status=$?
    if [[ $variant == correct && $status -ne 0 ]]; then
      tail -20 "$work/${target}_${variant}_seeds.log"; problem "$target as written fails on the seeds"
    elif [[ $variant == broken ]]; then
      [[ $status -ne 0 ]] || problem "$target broken: its seeds did not catch it"
      grep -a "disagrees with the spec" "$work/${target}_broken_seeds.log" || problem "$target broken: no message on the seeds"
    fi
  done
done
exit $fail
