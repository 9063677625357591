#!/usr/bin/env bash
# Checks that docs/CI.md shows scripts/ci-example.sh as it is, and runs the
# script twice: on the correct
# example implementation (exit 0, a passing verdict, no failure artifact) and
# on the one with XLA's ArraySize bug (exit 1, the failing case and its
# reproducer kept in the artifacts). Used by ctest (ci_example).
#
# usage: ci_example_test.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1 work=$2
rm -rf "$work"
fail=0

# docs/CI.md shows the script verbatim: its ```bash block is the file.
if ! diff <(awk '/^```bash$/{on=1; next} on && /^```$/{exit} on' "$src/docs/CI.md") \
          "$src/scripts/ci-example.sh" >"$work.doc.diff"; then
  echo "FAIL: docs/CI.md's script differs from scripts/ci-example.sh:" >&2
  cat "$work.doc.diff" >&2
  fail=1
fi

# 20 generated cases per function instead of the recipe's 1,000: the test is
# about the recipe, not about the example implementation.
export GATE_ARGS="--cases 20"
TILECHECK_SRC=$src WORK=$work "$src/scripts/ci-example.sh" >"$work.correct.log" 2>&1
status=$?
cat "$work.correct.log"
if [[ $status -ne 0 ]]; then
  echo "FAIL: the correct implementation: exit $status, expected 0" >&2
  fail=1
fi
if [[ $(jq -r .ok "$work/artifacts/verdict.json" 2>/dev/null) != true || -e "$work/artifacts/failures.txt" ]]; then
  echo "FAIL: the correct implementation: no passing verdict, or a failure artifact" >&2
  fail=1
fi

TILECHECK_SRC=$src WORK=$work IMPL_LIB=libtilecheck_example_impl_first_tile_size.so \
  "$src/scripts/ci-example.sh" >"$work.broken.log" 2>&1
status=$?
cat "$work.broken.log"
if [[ $status -ne 1 ]]; then
  echo "FAIL: the broken implementation: exit $status, expected 1" >&2
  fail=1
fi
expected="byte_size: wrong byte size on f32[]{:T(1)(2)}"
if ! grep -qxF "$expected" "$work/artifacts/failures.txt" 2>/dev/null ||
   ! grep -q "reproduce: tilecheck gate --impl .*libtilecheck_example_impl_first_tile_size.so --layout 'f32\[\]{:T(1)(2)}'" \
       "$work/artifacts/failures.txt"; then
  echo "FAIL: the broken implementation: artifacts/failures.txt lacks '$expected' and its reproducer" >&2
  fail=1
fi
((fail == 0)) && echo "ok: the CI recipe passes the correct implementation and keeps the broken one's failing case"
exit $fail
