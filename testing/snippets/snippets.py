#!/usr/bin/env python3
"""docs/TESTING.md's C++ snippets, compiled and run as written.

Each ```cpp block of the page names the program it belongs to after the
language (```cpp property); the blocks of one program, in page order, make
one source file, each behind a #line directive so that a compiler error
points at the page. A ```text block with a program's name is what that
program prints: its lines must appear in its output in order (a line
ending in "..." matches any line that starts with the rest; a line "..."
alone stands for anything).

    snippets.py extract PAGE OUTDIR NAME...   writes OUTDIR/NAME.cc and OUTDIR/NAME.shown;
                                              fails on a block with no name or another name
    snippets.py run SHOWN STATUS PROGRAM ARG...  runs it; STATUS "0" or "failure"
"""
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^```(\w*)\s*(\S*)\s*$")


def blocks(page):
    """(language, name, first line number, lines) of each fenced block."""
    out, current = [], None
    for n, line in enumerate(open(page, encoding="utf-8").read().splitlines(), 1):
        m = FENCE.match(line)
        if current is None and m:
            current = (m.group(1), m.group(2), n + 1, [])
        elif current is not None and line.startswith("```"):
            out.append(current)
            current = None
        elif current is not None:
            current[3].append(line)
    return out


def extract(page, outdir, names):
    sources = {name: [] for name in names}
    shown = {name: [] for name in names}
    problems = []
    for language, name, first, lines in blocks(page):
        if language == "cpp":
            if name not in sources:
                problems.append(f"{page}:{first - 1}: a cpp block names {name or 'no program'}; "
                                f"the programs are {', '.join(names)} (testing/CMakeLists.txt)")
                continue
            sources[name] += [f'#line {first} "{page}"'] + lines
        elif language == "text" and name:
            if name not in shown:
                problems.append(f"{page}:{first - 1}: a text block names {name}, which is no program")
                continue
            shown[name] += lines
    problems += [f"{page}: no cpp block of program {n}" for n in names if not sources[n]]
    if problems:
        sys.exit("\n".join(problems))
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        for suffix, lines in ((".cc", sources[name]), (".shown", shown[name])):
            path = os.path.join(outdir, name + suffix)
            text = "\n".join(lines) + "\n"
            if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)


def matches(shown, actual):
    """Whether every shown line appears in `actual`, in order."""
    i = 0
    for want in shown:
        if want.strip() == "...":
            continue
        prefix = want.endswith("...")
        want = want[:-3] if prefix else want
        while i < len(actual) and not (actual[i].startswith(want) if prefix else actual[i] == want):
            i += 1
        if i == len(actual):
            return False
        i += 1
    return True


def run(shown_path, status, command):
    shown = [line.rstrip() for line in open(shown_path, encoding="utf-8").read().splitlines()]
    try:
        r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    except OSError as e:
        sys.exit(f"cannot run {command[0]}: {e}")
    output = r.stdout.decode("utf-8", "replace")
    actual = [line.rstrip() for line in output.splitlines()]
    problems = []
    if (status == "0") != (r.returncode == 0):
        problems.append(f"exit status {r.returncode}, expected {'0' if status == '0' else 'a failure'}")
    if not matches(shown, actual):
        problems.append("the page's lines are not in its output, in order:\n" + "\n".join(shown))
    if problems:
        sys.exit(f"{os.path.basename(command[0])}: " + "\n".join(problems) + "\n--- its output:\n" + output)
    print(f"{os.path.basename(command[0])}: exit status {r.returncode}, and the page's {len(shown)} lines of output")


if __name__ == "__main__":
    if sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
