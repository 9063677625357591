#!/usr/bin/env bash
# ThreadSanitizer on the impl's threads: builds the impl and its property
# suite with -fsanitize=thread in a build tree of its own (WORK_DIR) and runs
# the thread properties (several threads write what one thread writes; the
# schedule's shares never split a byte), 1,000 cases each. Any data race
# TSan sees fails the test. Used by ctest (tsan_threads).
#
# usage: tsan_threads.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
mkdir -p "$work"
# -O1 without debug information: TSan needs neither more optimization nor
# line numbers beyond its own to name a race, and the build is the cost here.
cmake -S "$src" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" -DTILECHECK_TSAN=ON \
  -DTILECHECK_WERROR=ON \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
ninja -C "$work" impl_properties >"$work/build.log" 2>&1 || { tail -50 "$work/build.log" >&2; exit 1; }
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" \
  "$work/properties/impl_properties" --gtest_filter='ImplProperties.Thread*'
