#!/usr/bin/env bash
# Every query `tilecheck prove --smt2 DIR` writes is a complete SMT-LIB2
# problem that the z3 command, run apart from tilecheck, answers `unsat` (the
# negation of the obligation has no model): the proofs do not depend on
# anything tilecheck keeps outside the files. Used by ctest (smt2_replay).
#
# usage: smt2_replay.sh TILECHECK LAYOUT...
set -euo pipefail
tilecheck=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for layout in "$@"; do
  "$tilecheck" prove "$layout" --smt2 "$dir" >/dev/null
done
count=0 fail=0
for f in "$dir"/*.smt2; do
  answer=$(z3 -T:120 "$f" | head -n 1)
  count=$((count + 1))
  if [[ $answer != unsat ]]; then
    echo "FAIL: z3 says '$answer' for ${f##*/}" >&2
    fail=1
  fi
done
if ((count < 2 * $#)); then
  echo "FAIL: only $count SMT-LIB2 files written for $# layouts" >&2
  exit 1
fi
((fail == 0)) && echo "ok: z3 answers unsat for all $count queries"
exit $fail
