#!/usr/bin/env python3
"""The Python example implementation (examples/python/tiled_layout_impl.py),
misbehaving on purpose for the vector checker's tests:
    slow_once    the answer to request 20 of the first process comes after
                 3 s (a checker waiting 1 s times out on it once)
    skips_pack   every pack is answered "skipped"
    deep_pack    every pack is answered with a result nested 1,000,000 arrays deep
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples", "python"))
import tiled_layout_impl as example  # noqa: E402

MODE = sys.argv[1]
# The first process writes this file; a restarted one finds it.
marker = sys.argv[2] if len(sys.argv) > 2 else None
first = marker is None or not os.path.exists(marker)
if marker and first:
    open(marker, "w").close()

for count, line in enumerate(sys.stdin):
    request = json.loads(line)
    if MODE == "skips_pack" and request.get("op") == "pack":
        reply = {"skipped": "pack is not supported"}
    elif MODE == "deep_pack" and request.get("op") == "pack":
        sys.stdout.write('{"seq": %d, "result": %s}\n' % (request["seq"], "[" * 1000000 + "]" * 1000000))
        sys.stdout.flush()
        continue
    else:
        reply = example.answer(request)
    if MODE == "slow_once" and first and count == 20:
        time.sleep(3)
    reply["seq"] = request["seq"]
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
