#!/usr/bin/env python3
"""Every example of the tilecheck command in README.md and docs/*.md that
shows its output is run, and its output compared with what the page shows:

    doc_examples.py [--sanitized] ROOT TOOL... [-- PAGE...]

An example is a line `$ COMMAND` inside a fenced code block whose command
runs `tilecheck` (first, after `VAR=value` settings, or after a `|`), followed by the lines it prints
(standard output and standard error, as a terminal shows them) up to the
next `$ ` line or the end of the block; every command of such a block is
checked (`cmp ... && echo same bytes` too). The examples of one page run
in order, in one fresh directory (a file one writes, a later one may read),
with the TOOLs (the built `tilecheck`, the peers' commands) first on the
PATH by their names, and ROOT's top-level folders linked in, so that paths such as
`examples/...` and `build/test/...` resolve as from the checkout.
`build/release/cli/tilecheck` stands for `tilecheck`. --sanitized: the
tools are built with AddressSanitizer, whose shadow memory a command the
gate starts cannot map under the gate's default address-space limit, so
`tilecheck gate` runs with `--limit memory=0` added (which changes nothing
it prints).

Compared after normalising what differs from run to run: a time
(`16.7 ms`, `2.1 s`) becomes `<time>`. A shown line that starts with `...`
stands for any number of lines. Prints each page's count; fails naming each
example whose output differs, with both."""
import os
import re
import subprocess
import sys
import tempfile

TIME = re.compile(r"\b\d+(\.\d+)? ?(ns|µs|us|ms|s|min)\b")
TILECHECK = re.compile(r"(^|\|\s*)([A-Z_]+=\S+\s+)*(build/release/cli/)?tilecheck\s")


def examples(path):
    """The blocks of a page: each a list of (line number, command, shown output lines)."""
    blocks, in_block, current = [], False, None
    for n, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        if line.startswith("```"):
            in_block = not in_block
            if in_block:
                blocks.append([])
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            current = (n, line[2:], [])
            blocks[-1].append(current)
        elif blocks[-1]:
            blocks[-1][-1][2].append(line)
    return [b for b in blocks if any(TILECHECK.search(cmd) for _, cmd, _ in b)]


def normalise(lines):
    lines = [TIME.sub("<time>", line.rstrip()) for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches(shown, actual):
    """Whether `actual` is `shown`, a line starting with '...' (indented or not) matching any run of lines."""
    if not shown:
        return not actual
    if shown[0].lstrip().startswith("..."):
        return any(matches(shown[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and shown[0] == actual[0] and matches(shown[1:], actual[1:])


def main():
    args = sys.argv[1:]
    sanitized = args[0] == "--sanitized"
    if sanitized:
        args = args[1:]
    root, tools, pages = args[0], args[1:], []
    if "--" in tools:
        tools, pages = tools[:tools.index("--")], tools[tools.index("--") + 1:]
    pages = pages or ["README.md"] + sorted(
        os.path.join("docs", p) for p in os.listdir(os.path.join(root, "docs")) if p.endswith(".md"))
    bin_dir = tempfile.mkdtemp(prefix="doc_examples_bin")
    for tool in tools:
        name = os.path.join(bin_dir, os.path.basename(tool))
        if sanitized and os.path.basename(tool) == "tilecheck":
            with open(name, "w") as wrapper:
                wrapper.write(f'#!/bin/sh\nif [ "$1" = gate ]; then exec {os.path.abspath(tool)} "$@" --limit memory=0; fi\n'
                              f'exec {os.path.abspath(tool)} "$@"\n')
            os.chmod(name, 0o755)
        else:
            os.symlink(os.path.abspath(tool), name)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"], "COLUMNS": "80"}
    failures, total = [], 0
    for page in pages:
        checked = 0
        with tempfile.TemporaryDirectory() as work:
            for entry in os.listdir(root):
                if not entry.startswith("."):
                    os.symlink(os.path.join(root, entry), os.path.join(work, entry))
            for block in examples(os.path.join(root, page)):
                for line, command, shown in block:
                    command = re.sub(r"(^|\|\s*)build/release/cli/tilecheck\s", r"\1tilecheck ", command)
                    run = subprocess.run(["bash", "-c", command], cwd=work, env=env, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, timeout=1200)
                    actual = normalise(run.stdout.splitlines())
                    checked += 1
                    if not matches(normalise(shown), actual):
                        failures.append(f"{page}:{line}: $ {command}\n  shown:\n" +
                                        "\n".join("    " + s for s in shown) + "\n  printed:\n" +
                                        "\n".join("    " + a for a in run.stdout.splitlines()))
        print(f"{page}: {checked} examples")
        total += checked
    if failures:
        print(f"\n{len(failures)} of {total} examples print other than their page shows:\n")
        print("\n\n".join(failures))
        sys.exit(1)
    print(f"all {total} examples print what their pages show")


if __name__ == "__main__":
    main()
