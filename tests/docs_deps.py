#!/usr/bin/env python3
"""tests/docs_deps.py ROOT: what the docs say a script installs is what it
installs.

scripts/deps.sh holds the lists of Debian packages (tilecheck_<list>_packages)
and tilecheck_install_deps, which installs some of them by argument (main,
test, all, ...); a script installs the lists of each `tilecheck_install_deps
ARG` it calls, and of every script of scripts/ it runs or sources.

A claim is a sentence (or a part of one between semicolons) of README.md or
docs/*.md that names `scripts/X` and says "installs" or "needs": it names
Debian packages of the lists in backticks (or says "them", "it", "these" of
the packages of the sentences before it in its paragraph), or lists by name
("the builds list", "the first list"), or introduces a table of packages
(a paragraph ending in ':' before a `| package | why |` table). Each package
and list it names must be among those the script installs; "does not
install" says the opposite. Prints every claim checked; exits 1 on a false
one.
"""
import pathlib
import re
import sys

ORDINALS = {"first": 0, "second": 1, "third": 2}


def read_lists(deps):
    """The lists of deps.sh in order ({name: [packages]}, [names]), and
    {argument of tilecheck_install_deps: set of list names}."""
    lists, order = {}, []
    for name, body in re.findall(r"^tilecheck_(\w+)_packages=\(\n(.*?)^\)", deps, re.M | re.S):
        packages = []
        for line in body.splitlines():
            packages += line.split("#", 1)[0].split()
        lists[name] = packages
        order.append(name)
    function = re.search(r"^tilecheck_install_deps\(\) \{\n(.*?)^\}", deps, re.M | re.S).group(1)
    # Local arrays of list names (test_packages: the test list, and amd64's).
    local = {}
    for var, names in re.findall(r"(\w+)\+?=\((.*?)\)", function):
        local.setdefault(var, set()).update(n for n in re.findall(r"tilecheck_(\w+)_packages", names) if n in lists)
    arguments = {}
    for argument, branch in re.findall(r"^\s+([\w|]+)\)(.*?);;", function, re.M | re.S):
        names = {n for n in re.findall(r"tilecheck_(\w+)_packages", branch) if n in lists}
        for var in re.findall(r"\$\{(\w+)\[@\]\}", branch):
            names |= local.get(var, set())
        for word in argument.split("|"):
            arguments[word] = names
    default = re.search(r"\$\{1:-(\w+)\}", function).group(1)
    return lists, order, arguments, default


def code_lines(text):
    return [line for line in text.splitlines() if not line.lstrip().startswith("#")]


def script_lists(root, arguments, default):
    """{script name: set of list names it installs}, through the scripts it runs."""
    # deps.sh, which every one sources, only defines the lists.
    scripts = {p.name: p for p in (root / "scripts").iterdir() if p.is_file() and p.name != "deps.sh"}
    direct, calls = {}, {}
    for name, path in scripts.items():
        lines = code_lines(path.read_text(errors="replace"))
        text = "\n".join(lines)
        names = set()
        for argument in re.findall(r"\btilecheck_install_deps\b[ \t]*(\w*)", text):
            names |= arguments.get(argument or default, set())
        direct[name] = names
        calls[name] = {s for s in re.findall(r"scripts/([\w.-]+)", text) if s in scripts and s != name}
    out = {}
    for name in scripts:
        seen, todo, names = set(), [name], set()
        while todo:
            s = todo.pop()
            if s in seen:
                continue
            seen.add(s)
            names |= direct[s]
            todo += calls[s]
        out[name] = names
    return out


def paragraphs(text):
    """The prose paragraphs of a Markdown file, each with the table right
    after it (its rows' first cells), code blocks left out."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    blocks = re.split(r"\n\s*\n", text)
    out = []
    for i, block in enumerate(blocks):
        lines = block.strip().splitlines()
        if not lines or lines[0].startswith("|"):
            continue
        prose = [line for line in lines if not line.startswith("|")]
        rows = [line for line in lines if line.startswith("|")]
        if not rows and i + 1 < len(blocks) and blocks[i + 1].lstrip().startswith("|"):
            rows = blocks[i + 1].strip().splitlines()
        cells = [row.split("|")[1].strip() for row in rows[2:] if row.count("|") >= 2]
        out.append((" ".join(prose), cells))
    return out


def clauses(paragraph):
    """Sentences, split further at semicolons."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", paragraph)
    return [part for sentence in sentences for part in sentence.split(";")]


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    lists, order, arguments, default = read_lists((root / "scripts/deps.sh").read_text())
    installs = script_lists(root, arguments, default)
    package_list = {}
    for name in order:
        for package in lists[name]:
            package_list.setdefault(package, set()).add(name)
    docs = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    checked, wrong = 0, []
    for doc in docs:
        for paragraph, table in paragraphs(doc.read_text()):
            named_before = []  # packages of the paragraph's earlier clauses
            for clause in clauses(paragraph):
                named = [p for p in re.findall(r"`([^`\s]+)`", clause) if p in package_list]
                for cell in re.findall(r"`([^`]*)`", clause):
                    named += [p for p in re.split(r",\s*", cell) if p in package_list and p not in named]
                scripts = [s for s in re.findall(r"`scripts/([\w.-]+)`", clause) if s in installs]
                verb = re.search(r"\b(install(s|ed)?|needs?)\b", clause)
                if scripts and verb:
                    packages = named
                    if not packages and re.search(r"\b(them|it|these)\b", clause):
                        packages = named_before
                    if not packages and paragraph.rstrip().endswith(":") and table:
                        packages = [p for cell in table for p in re.split(r",\s*", cell.strip("`"))
                                    if p in package_list]
                    wanted = {order[ORDINALS[w]] for w in re.findall(r"\b(first|second|third) list", clause)}
                    wanted |= set(re.findall(r"\b(" + "|".join(order) + r") lists?\b", clause))
                    wanted |= {m for pair in re.findall(r"\b(\w+) and (\w+) lists\b", clause)
                               for m in pair if m in lists}
                    for script in scripts:
                        negative = re.search(r"`scripts/" + re.escape(script) + r"`[^`]*?\b(does not|doesn't|never) install",
                                             clause)
                        if not packages and not wanted:
                            continue
                        has = installs[script]
                        print(f"docs_deps: {doc.relative_to(root)}: `scripts/{script}` "
                              f"{'does not install' if negative else 'installs'} "
                              f"{' '.join(packages + [name + ' list' for name in sorted(wanted)])}")
                        for package in packages:
                            ok = bool(package_list[package] & has) != bool(negative)
                            checked += 1
                            if not ok:
                                wrong.append(f"{doc.relative_to(root)}: `scripts/{script}` "
                                             f"{'installs' if negative else 'does not install'} {package} "
                                             f"(list {', '.join(sorted(package_list[package]))}; it installs "
                                             f"{', '.join(sorted(has)) or 'nothing'}): {clause.strip()[:200]}")
                        for name in sorted(wanted):
                            checked += 1
                            if (name in has) == bool(negative):
                                wrong.append(f"{doc.relative_to(root)}: `scripts/{script}` "
                                             f"{'installs' if negative else 'does not install'} the {name} list "
                                             f"(it installs {', '.join(sorted(has)) or 'nothing'}): "
                                             f"{clause.strip()[:200]}")
                named_before += [p for p in named if p not in named_before]
    for line in wrong:
        print("docs_deps:", line, file=sys.stderr)
    if wrong:
        print(f"docs_deps: {len(wrong)} of {checked} claims about what a script installs are false "
              "(scripts/deps.sh has the lists)", file=sys.stderr)
        return 1
    print(f"docs_deps: {checked} claims of README.md and docs/*.md about what a script installs agree "
          "with scripts/deps.sh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
