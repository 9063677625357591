#!/usr/bin/env bash
# Every line of a real exchange between `tilecheck gate --impl-cmd` and the
# Python example (recorded by record_protocol.py), and of one with an
# implementation that offers `claims`, is valid against
# docs/protocol-v1.schema.json, and the schema rejects lines that break the
# protocol (so it is not vacuous).
#   protocol_schema.sh TILECHECK ROOT WORKDIR
set -euo pipefail
tilecheck=$1 root=$2 work=$3
mkdir -p "$work"
log="$work/exchange.jsonl"
rm -f "$log"
"$tilecheck" gate --cases 10 --no-size-set --exhaustive-limit 256 --samples 64 --impl-cmd \
  "python3 $root/tests/record_protocol.py $log python3 $root/examples/python/tiled_layout_impl.py" >/dev/null
# And with an implementation that offers `claims` (the example, claiming
# the layouts of rank 2 only).
"$tilecheck" gate --cases 3 --no-size-set --exhaustive-limit 256 --samples 64 --impl-cmd \
  "python3 $root/tests/record_protocol.py $log python3 $root/tests/faulty_impl_cmd.py claims_rank_2" >/dev/null
python3 - "$root/docs/protocol-v1.schema.json" "$log" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
lines = open(sys.argv[2], "rb").read().splitlines()
ops = {}
for n, line in enumerate(lines, 1):
    message = json.loads(line)
    errors = list(validator.iter_errors(message))
    if errors:
        sys.exit(f"line {n} of the exchange breaks the schema: {errors[0].message}\n{line[:300]}")
    ops[message.get("op", "reply")] = ops.get(message.get("op", "reply"), 0) + 1
for op in ("start", "byte_size", "linear_index", "delinearize", "pack", "claims", "reply"):
    if not ops.get(op):
        sys.exit(f"the exchange has no {op} line: {ops}")
broken = [
    {"seq": 1, "result": {"bytes": 3}, "skipped": {"message": "x"}},
    {"seq": 1},
    {"seq": 1, "skipped": "no"},
    {"seq": 0, "op": "start", "protocol": 2},
    {"seq": 1, "op": "pack", "layout": {}, "dense": "AAA"},
    {"seq": 0, "result": {"protocol": 1, "name": "x", "version": "1",
                          "capabilities": {"operations": ["fly"]}}},
    {"seq": 3, "op": "claims", "layout": {}},
    {"seq": 3, "result": {"claimed": "yes"}},
]
for message in broken:
    if validator.is_valid(message):
        sys.exit(f"the schema accepts a line that breaks the protocol: {message}")
print(f"{len(lines)} lines valid ({ops}); {len(broken)} broken lines rejected")
PY
