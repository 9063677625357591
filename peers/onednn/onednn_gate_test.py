#!/usr/bin/env python3
"""The gate's verdict on oneDNN (tilecheck-onednn-impl), pinned:

    onednn_gate_test.py TILECHECK IMPL WORKDIR [GATE FLAGS...]

runs `tilecheck gate --impl-cmd IMPL` with the flags given (a profile, more
cases) and checks its verdict, case by case, against what docs/PEERS.md
says oneDNN 2.6 does:
- the answer to start, every claims answer and every byte_size pass, and no
  claimed case is skipped;
- every failed case is a buffer whose values changed within their class,
  and only in the classes documented for its element type (bf16: signalling
  NaNs written quiet, denormals written as signed zeros, -0 as +0; f16 and
  f32: signalling NaNs quiet, -0 as +0; s32: rounded to f32 precision);
  s8 and u8 never fail;
- with oneDNN at most AVX2 (ONEDNN_MAX_CPU_ISA=AVX2, or a CPU without
  AVX-512), its bf16 reorder is the reference one: bf16 pack fails.
Prints the verdict's figures per operation and element type."""
import collections
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

tilecheck, impl, work = sys.argv[1:4]
flags = sys.argv[4:]
os.makedirs(work, exist_ok=True)
junit = os.path.join(work, "onednn_gate.xml")
# --limit memory=0: the sanitizers' shadow memory in a test build.
run = subprocess.run([tilecheck, "gate", "--impl-cmd", impl, "--limit", "memory=0", "--json", "--junit", junit] + flags,
                     capture_output=True, text=True, timeout=1200)
if run.returncode not in (0, 1):
    sys.exit(f"the gate ended with status {run.returncode}:\n{run.stderr}")
report = json.loads(run.stdout)

ALLOWED = {
    "bf16": {"signalling NaN written quiet", "denormal written as a signed zero", "-0 written as +0"},
    "f16": {"signalling NaN written quiet", "-0 written as +0"},
    "f32": {"signalling NaN written quiet", "-0 written as +0"},
    "s32": {"32-bit integer rounded to f32 precision"},
    "s8": set(),
    "u8": set(),
}
PROBLEM = re.compile(r"^wrong (packed|unpacked|relayout) bytes \(values changed within their class: (.*)\)$")

errors = []
if report["skipped_although_claimed"]:
    errors.append(f"cases skipped although claimed: {report['skipped_although_claimed'][:5]}")
if report["layouts"]["unclaimed"] == 0:
    errors.append("every layout was claimed: claims did not narrow anything")
counts = collections.Counter()
seen_classes = collections.defaultdict(collections.Counter)
for case in ET.parse(junit).iter("testcase"):
    function, layout = case.get("classname"), case.get("name")
    element_type = layout.split("[")[0]
    failure = case.find("failure")
    skipped = case.find("skipped")
    status = "failed" if failure is not None else "not sent" if skipped is not None else "passed"
    counts[(function, element_type, status)] += 1
    if failure is None:
        continue
    message = failure.get("message")
    m = PROBLEM.match(message)
    if not m or function not in ("pack", "unpack", "relayout"):
        errors.append(f"{function}:{layout} fails other than by values within their class: {message}")
        continue
    for part in m.group(2).split(", "):
        n, name = part.split(" ", 1)
        seen_classes[element_type][name] += int(n)
        if name not in ALLOWED.get(element_type, set()):
            errors.append(f"{function}:{layout}: '{name}' is not what oneDNN is documented to do to {element_type}")

version = report["impl"]
at_most_avx2 = not re.search(r"ISA AVX512", version)
if at_most_avx2 and counts[("pack", "bf16", "failed")] == 0:
    errors.append(f"{version}: no bf16 pack failed, though oneDNN's reference reorder quiets NaNs")
if sum(n for (f, t, s), n in counts.items() if f == "pack" and s == "passed") < 50:
    errors.append("fewer than 50 pack cases passed: the gate checked too little")

print(f"{version}; gate flags: {' '.join(flags) or '(default)'}; layouts {report['layouts']}")
for function in ("byte_size", "pack", "unpack", "relayout"):
    row = [f"{t} {counts[(function, t, 'passed')]}/{counts[(function, t, 'failed')]}" for t in ALLOWED
           if counts[(function, t, "passed")] or counts[(function, t, "failed")]]
    print(f"  {function:10} passed/failed by type: {', '.join(row)}")
for element_type, classes in sorted(seen_classes.items()):
    print(f"  {element_type} values changed: " + ", ".join(f"{n} {c}" for c, n in sorted(classes.items())))
if errors:
    print("\n".join(["FAILED:"] + errors[:20]))
    sys.exit(1)
print("the verdict is as docs/PEERS.md says")
