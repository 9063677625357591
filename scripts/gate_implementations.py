#!/usr/bin/python3
"""The figures of docs/IMPLEMENTATIONS.md: the gate run on each real
implementation whose adapter is built, and its verdict.

    gate_implementations.py (--write | --check) DOC TILECHECK NAME=COMMAND...

NAME is one of the adapters below; COMMAND the path of its built command,
one per version of the third party (NAME=... given again for each: XLA
built from several checkouts). For each, the gate runs three times (the
default layouts, --profile tpu, --profile gpu; 300 generated layouts each,
seed 1), and more for an adapter that claims forms the generated layouts
seldom are (ADAPTER_RUNS), and the table between the markers of DOC gets
one row per run, with the version the command reports and the date of the
run. Within an implementation, versions are ordered newest first by the
date in their name, "(YYYY-MM-DD)". --write rewrites the rows of the
versions gated; --check compares them with DOC, all but the date of the
run, and fails on a difference, naming it. Rows of a version not gated
here are left as they are (and said so). Standard library only."""
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# The adapters: how the table names each, and the environment it runs in.
# oneDNN is held at AVX2, so that every x86-64 machine with AVX2 (with or
# without AVX-512) reproduces its row; its default ISA is pinned by the
# ctests onednn_gate.* instead.
ADAPTERS = {
    "onednn": ("oneDNN reorder, at most AVX2 (`tilecheck-onednn-impl`)", {"ONEDNN_MAX_CPU_ISA": "AVX2"}),
    "libxsmm": ("libxsmm (`tilecheck-libxsmm-impl`)", {}),
    "xla": ("XLA TransposePlan (`tilecheck-xla-transpose-impl`)", {}),
    "xla-intn": ("XLA PackIntN (`tilecheck-xla-intn-impl`)", {}),
    "xla-intn-new-buffer": ("XLA PackIntN, the overload into a new buffer (`tilecheck-xla-intn-impl`)",
                            {"TILECHECK_XLA_INTN_API": "new_buffer"}),
}
RUNS = [("default", []), ("tpu", ["--profile", "tpu"]), ("gpu", ["--profile", "gpu"])]
# Runs of one adapter only: layouts of the forms it claims that the
# generated ones seldom are. libxsmm's blocked activations (N,C,H,W with
# the channel dim blocked), every element width it has, a zero dim, and a
# channel dim that is no multiple of the block (not claimed).
ACTIVATIONS = ["f32[2,32,3,5]{3,2,1,0:T(16,1,1)}", "bf16[1,64,7,7]{3,2,1,0:T(32,1,1)}",
               "f16[2,48,1,3]{3,2,1,0:T(16,1,1)}", "s32[1,8,4,4]{3,2,1,0:T(8,1,1)}",
               "s8[3,16,2,9]{3,2,1,0:T(16,1,1)}", "u8[1,64,3,3]{3,2,1,0:T(64,1,1)}",
               "f32[1,16,1,1]{3,2,1,0:T(16,1,1)}", "f32[2,0,3,3]{3,2,1,0:T(16,1,1)}",
               "f32[1,20,3,3]{3,2,1,0:T(16,1,1)}"]
# XLA's sub-byte packing: every type and width it packs, at sizes past
# 2^16 and 2^20 elements, counts whose bits end inside a byte, an empty
# array, and three layouts it does not claim (column-major, tiled, E(8)).
SUB_BYTE = ["s4[]", "u4[1]{0}", "s4[7]{0}", "u4[8]{0:E(4)}", "s4[3,5]{1,0}", "u4[2,3,5]{2,1,0:E(4)}",
            "s4[65537]{0}", "u4[1048579]{0}", "s4[0]{0}", "s2[5]{0}", "u2[3,3]{1,0:E(2)}", "s2[65539]{0}",
            "s1[9]{0}", "u1[2,4]{1,0:E(1)}", "u1[1048583]{0}", "s4[3,5]{0,1}", "s4[8]{0:T(8)}", "s4[8]{0:E(8)}"]


def given_layouts(layouts):
    return [arg for layout in layouts for arg in ("--layout", layout)]


# The dense array of 2^20 1-bit elements is 1 MiB and more (a byte each).
SUB_BYTE_RUN = ("sub-byte", given_layouts(SUB_BYTE) + ["--max-array-bytes", "4194304"])
ADAPTER_RUNS = {"libxsmm": [("activations", given_layouts(ACTIVATIONS))],
                "xla-intn": [SUB_BYTE_RUN], "xla-intn-new-buffer": [SUB_BYTE_RUN]}
CASES = "300"
BEGIN, END = "<!-- gate-implementations: begin -->", "<!-- gate-implementations: end -->"
HEADER = ("| implementation | version | gated on | run | layouts claimed | byte_size | pack | unpack | relayout | verdict |\n"
          "|---|---|---|---|---|---|---|---|---|---|")
OPERATIONS = ("byte_size", "pack", "unpack", "relayout")


def gate(tilecheck, command, env, flags):
    """The gate's JSON report, and each case it sent with its failure message (None when it passed)."""
    with tempfile.TemporaryDirectory() as tmp:
        junit = os.path.join(tmp, "gate.xml")
        # memory=0: the sanitizers' shadow memory, when the build has them.
        run = subprocess.run([tilecheck, "gate", "--impl-cmd", command, "--limit", "memory=0", "--cases", CASES,
                              "--json", "--junit", junit] + flags,
                             capture_output=True, text=True, timeout=1800, env={**os.environ, **env})
        if run.returncode not in (0, 1):
            sys.exit(f"the gate on {command} {' '.join(flags)} ended with status {run.returncode}:\n{run.stderr}")
        # (operation, layout, failure message or None); cases the gate did
        # not send (<skipped>) are left out.
        cases = []
        for case in ET.parse(junit).iter("testcase"):
            if case.find("skipped") is not None:
                continue
            failure = case.find("failure")
            cases.append((case.get("classname"), case.get("name"), None if failure is None else failure.get("message")))
        return json.loads(run.stdout), cases


def problem_kind(message):
    """A failure's kind, without its counts: 'values changed within their class', 'wrong packed bytes', ..."""
    if "(values changed within their class:" in message:
        return "values changed within their class"
    return re.split(r" \(|: ", message, maxsplit=1)[0]


def version_of(command, env):
    """The version the implementation gives in its answer to start, or None (and why, printed) if it gives none."""
    run = subprocess.run([command], input='{"seq":0,"op":"start","protocol":1}\n', capture_output=True, text=True,
                         timeout=60, env={**os.environ, **env})
    try:
        return json.loads(run.stdout.splitlines()[0])["result"]["version"]
    except (IndexError, ValueError, KeyError, TypeError):
        print(f"{command} with {env}: no version, so not gated: {run.stderr.strip() or run.stdout.strip()}")
        return None


def row(name, version, day, run, report, cases):
    layouts = report["layouts"]
    total = (layouts["catalogue"] + layouts["reach"] + layouts.get("size", 0) + layouts["generated"] +
             layouts["given"])
    cells = []
    for op in OPERATIONS:
        mine = [m for f, _, m in cases if f == op]
        failed = [m for m in mine if m is not None]
        cells.append(f"{len(mine) - len(failed)} passed" + (f", {len(failed)} failed" if failed else "") if mine else "not offered")
    failures = sorted({(problem_kind(m), layout.split("[")[0]) for _, layout, m in cases if m is not None})
    if not failures:
        verdict = "passed"
    else:
        kinds = {}
        for kind, element_type in failures:
            kinds.setdefault(kind, []).append(f"`{element_type}`")
        verdict = "FAILED: " + "; ".join(f"{k} ({', '.join(t)})" for k, t in kinds.items())
    return (f"| {name} | {version} | {day} | {run} | {total - layouts['unclaimed']} of {total} | " + " | ".join(cells) +
            f" | {verdict} |")


def cells(row):
    """A table row's cells."""
    return [c.strip() for c in row.strip().strip("|").split(" | ")]


def without_day(row):
    """A row as --check compares it: all but the date of the run (its third cell)."""
    c = cells(row)
    return tuple(c[:2] + c[3:])


def newest_first(rows):
    """Rows of one implementation, the versions newest first by the date in their name (stable otherwise)."""
    def day(row):
        found = re.search(r"\((\d{4}-\d{2}-\d{2})\)", cells(row)[1])
        return found.group(1) if found else ""
    return sorted(rows, key=day, reverse=True)


def main():
    mode, doc, tilecheck = sys.argv[1:4]
    if mode not in ("--write", "--check"):
        sys.exit(__doc__)
    given = {}
    for arg in sys.argv[4:]:
        key, command = arg.split("=", 1)
        if key not in ADAPTERS:
            sys.exit(f"unknown adapter '{key}' (known: {', '.join(ADAPTERS)})")
        given.setdefault(key, []).append(command)
    text = open(doc).read()
    if BEGIN not in text or END not in text:
        sys.exit(f"{doc} has no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    old_table, tail = rest.split(END, 1)
    old_rows = [line for line in old_table.strip().splitlines()[2:] if line.startswith("|")]
    today = datetime.date.today().isoformat()
    rows, compared_old, compared_new = [], [], []
    for key, (name, env) in ADAPTERS.items():
        mine = [r for r in old_rows if r.startswith(f"| {name} |")]
        versions = {version_of(command, env): command for command in given.get(key, [])}
        versions.pop(None, None)
        kept = [r for r in mine if cells(r)[1] not in versions]
        for r in kept:
            print(f"{key} {cells(r)[1]}: not gated here; its row of the run '{cells(r)[3]}' is left as it is")
        compared_old += [r for r in mine if cells(r)[1] in versions]
        gated = []
        for version, command in versions.items():
            for run, flags in RUNS + ADAPTER_RUNS.get(key, []):
                report, cases = gate(tilecheck, command, env, flags)
                gated.append(row(name, version, today, run, report, cases))
                print(gated[-1])
        compared_new += gated
        rows += newest_first(gated + kept)
    if mode == "--write":
        new_table = "\n" + HEADER + "\n" + "\n".join(rows) + "\n"
        open(doc, "w").write(head + BEGIN + new_table + END + tail)
        print(f"{doc}: {len(rows)} rows written")
        return
    old, new = [without_day(r) for r in compared_old], [without_day(r) for r in compared_new]
    if sorted(old) != sorted(new):
        sys.exit("the table differs from this run (the date of the run aside):\n" + "\n".join(
            [f"  in {doc}: {r}" for r, c in zip(compared_old, old) if c not in new] +
            [f"  this run: {r}" for r, c in zip(compared_new, new) if c not in old]))
    print(f"{doc}: the table matches this run ({len(new)} rows compared, {len(rows) - len(new)} not gated here)")


if __name__ == "__main__":
    main()
