#!/usr/bin/env bash
# The vector files alone check an implementation: vectors/v1/check_vectors.py
# (Python standard library) passes the correct examples, Python and C++, and
# fails each deliberately broken one naming a test it breaks; the checked-in
# file is valid against its schema (python3-jsonschema), which rejects broken
# documents (so it is not vacuous).
#   vectors_checker.sh ROOT CPP_EXAMPLE_CMD
set -euo pipefail
root=$1 cpp_example=$2
vectors="$root/vectors/v1/tiled_layouts_test.json"
checker="$root/vectors/v1/check_vectors.py"
python_example="$root/examples/python/tiled_layout_impl.py"

python3 - "$root/vectors/v1/tiled_layouts_schema_v1.json" "$vectors" <<'PY'
import copy, json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
doc = json.load(open(sys.argv[2]))
errors = list(validator.iter_errors(doc))
if errors:
    sys.exit(f"the vector file breaks its schema: {errors[0].message} at {list(errors[0].path)}")
layout_test = doc["testGroups"][0]["tests"][1]
parse_tests = doc["testGroups"][-1]["tests"]
invalid = next(t for t in parse_tests if t["result"] == "invalid")
def broken(change):
    d = copy.deepcopy(doc)
    change(d)
    return d
cases = {
    "a version 2 document": lambda d: d.update(formatVersion=2),
    "a test without a result": lambda d: d["testGroups"][0]["tests"][1].pop("result"),
    "a layout test that is invalid": lambda d: d["testGroups"][0]["tests"][1].update(result="invalid"),
    "an index that is a string": lambda d: d["testGroups"][0]["tests"][1].update(index="3"),
    "hex with an odd digit count": lambda d: next(t for t in d["testGroups"][0]["tests"] if t["op"] == "pack").update(dense_hex="abc"),
    "an invalid parse test without its error": lambda d: next(t for t in d["testGroups"][-1]["tests"] if t["result"] == "invalid").pop("error"),
    "a key the format does not have": lambda d: d["testGroups"][0].update(extra=1),
}
for name, change in cases.items():
    if validator.is_valid(broken(change)):
        sys.exit(f"the schema accepts {name}")
PY

expect() {  # expect STATUS PATTERN COMMAND...: exit status and a line of output
  local status=$1 pattern=$2
  shift 2
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  if [[ $rc -ne $status ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "expected exit $status and /$pattern/ from: $*" >&2
    echo "got exit $rc:" >&2
    tail -5 <<<"$out" >&2
    exit 1
  fi
}
expect 0 ' 0 failed' python3 "$checker" "$vectors" -- python3 "$python_example"
expect 0 ' 0 failed, 0 not claimed' python3 "$checker" "$vectors" -- "$cpp_example"
# An implementation that offers `claims` is asked, and sent nothing about
# a layout it does not claim (it errs on any request about one); a failed
# answer to claims fails that layout's tests.
expect 0 ' 0 failed, [1-9][0-9]* not claimed' python3 "$checker" "$vectors" -- python3 "$root/tests/faulty_impl_cmd.py" claims_rank_2
expect 1 'FAIL sub_tile_padding/pack: asked whether it claims f32\[5\]\{0:T\(2\)\(4\)\}: errored' \
  python3 "$checker" "$vectors" -- python3 "$root/tests/faulty_impl_cmd.py" errored_claims
# Each bug, caught by the vectors alone, with the test a user would look at.
declare -A first_failure=(
  [nibble_order]='^FAIL tpu_s4/smaller/pack: '
  [first_tile_size]='^FAIL sub_tile_padding/size: '
  [ignore_minor_to_major]='^FAIL column_major/'
  [nonzero_padding]='^FAIL doc_figure1/pack: packed: byte 36 is 0xff, expected 0x00'
  [delinearize_off_by_one]='^FAIL doc_figure1/index\[0,4\]: delinearize of 8: None'
)
for bug in "${!first_failure[@]}"; do
  expect 1 "${first_failure[$bug]}" python3 "$checker" "$vectors" -- python3 "$python_example" --bug "$bug"
  expect 1 "${first_failure[$bug]}" python3 "$checker" "$vectors" -- "$cpp_example" --bug "$bug"
done
# With padding contents left to the implementation, nonzero padding passes.
expect 0 ' 0 failed' python3 "$checker" --padding any "$vectors" -- python3 "$python_example" --bug nonzero_padding
# An implementation that dies is reported, restarted, and after 5 requests in
# a row without an answer the checker stops with status 1.
expect 1 'stopped: 5 requests in a row got no usable answer .*exited' python3 "$checker" "$vectors" -- python3 -c 'import sys; print(sys.stdin.readline() and "{\"seq\":0,\"result\":{\"protocol\":1,\"capabilities\":{\"operations\":[\"byte_size\"]}}}", flush=True)'
# A timeout costs its own test only: the implementation is started again and
# every later test is judged on its own answer.
marker="${TMPDIR:-/tmp}/vectors_slow_once_$$"
rm -f "$marker"
expect 1 ' 1 failed, .*\(the implementation was restarted 1 time\)$' \
  python3 "$checker" --timeout 1 "$vectors" -- python3 "$root/tests/misbehaving_vectors_impl.py" slow_once "$marker"
rm -f "$marker"
# A claimed test answered "skipped" fails, as in the gate, unless --allow-skips.
expect 1 '^FAIL [^ ]+/pack: skipped although claimed' \
  python3 "$checker" "$vectors" -- python3 "$root/tests/misbehaving_vectors_impl.py" skips_pack
expect 0 ' 0 failed, .* [1-9][0-9]* skipped by the implementation' \
  python3 "$checker" --allow-skips "$vectors" -- python3 "$root/tests/misbehaving_vectors_impl.py" skips_pack
# A reply nested past Python's recursion limit is a broken reply, not a crash.
expect 1 '^FAIL [^ ]+/pack: .*nested too deep to read' \
  python3 "$checker" "$vectors" -- python3 "$root/tests/misbehaving_vectors_impl.py" deep_pack
# A vectors file nested past it is refused.
python3 -c 'print("[" * 1000000 + "]" * 1000000)' >"${TMPDIR:-/tmp}/vectors_deep_$$.json"
expect 2 'nested deeper than Python reads' python3 "$checker" "${TMPDIR:-/tmp}/vectors_deep_$$.json" -- true
rm -f "${TMPDIR:-/tmp}/vectors_deep_$$.json"
# A file of another format version is refused.
echo '{"format":"tilecheck tiled layout vectors","formatVersion":2}' >"${TMPDIR:-/tmp}/vectors_v2_$$.json"
expect 2 'format version 2' python3 "$checker" "${TMPDIR:-/tmp}/vectors_v2_$$.json" -- true
rm -f "${TMPDIR:-/tmp}/vectors_v2_$$.json"
echo "vectors checker: ok"
