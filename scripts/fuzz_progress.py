#!/usr/bin/env python3
"""A libFuzzer run's progress against time, as a CSV and an SVG plot.

    TARGET 2>&1 | fuzz_progress.py --name NAME --csv OUT.csv --svg OUT.svg >LOG

Copies its standard input (libFuzzer's output) to its standard output line
by line, and stamps each status line (`#4096 pulse cov: 1203 ft: 4410 corp:
210/9Kb ...`) with the seconds since it started. At the end of the input it
writes OUT.csv (seconds, executions, edges, features, corpus inputs) and
OUT.svg: edges and features (left axis), and the corpus size (right axis),
against time. scripts/fuzz runs every target through it. With --replot it
only redraws OUT.svg from OUT.csv.
"""
import argparse
import re
import sys
import time

STATUS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/")


def nice_ceiling(v):
    """The smallest of 1, 2, 5 times a power of ten at least v (v > 0)."""
    scale = 1
    while scale * 10 <= v:
        scale *= 10
    for m in (1, 2, 5, 10):
        if m * scale >= v:
            return m * scale
    return 10 * scale


def svg(name, rows, path):
    width, height, left, right, top, bottom = 720, 360, 70, 70, 40, 50
    w, h = width - left - right, height - top - bottom
    def axis(v):  # (top, step): whole steps of 1, 2 or 5 times a power of ten, five or so
        step = nice_ceiling(max(v, 1e-9) / 5)
        return step * -(-v // step) or step, step
    t_max, t_step = axis(max(r[0] for r in rows))
    y_max, y_step = axis(max(max(r[2], r[3]) for r in rows))
    c_max, c_step = axis(max(r[4] for r in rows))
    x = lambda t: left + w * t / t_max
    y = lambda v, top_value: top + h - h * v / top_value
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="14">{name}: coverage and corpus '
           f'against time</text>']
    for k in range(int(round(t_max / t_step)) + 1):  # grid and axis labels
        t = t_step * k
        out.append(f'<line x1="{x(t):.1f}" y1="{top}" x2="{x(t):.1f}" y2="{top + h}" stroke="#ddd"/>')
        out.append(f'<text x="{x(t):.1f}" y="{top + h + 16}" text-anchor="middle">{t:g}</text>')
    for k in range(int(round(y_max / y_step)) + 1):
        v = y_step * k
        out.append(f'<line x1="{left}" y1="{y(v, y_max):.1f}" x2="{left + w}" y2="{y(v, y_max):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v, y_max) + 4:.1f}" text-anchor="end">{v:g}</text>')
    for k in range(int(round(c_max / c_step)) + 1):
        c = c_step * k
        out.append(f'<text x="{left + w + 6}" y="{y(c, c_max) + 4:.1f}">{c:g}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="black"/>')
    out.append(f'<text x="{left + w / 2}" y="{height - 12}" text-anchor="middle">seconds</text>')
    out.append(f'<text transform="translate(16,{top + h / 2}) rotate(-90)" text-anchor="middle">'
               f'edges, features</text>')
    out.append(f'<text transform="translate({width - 14},{top + h / 2}) rotate(90)" text-anchor="middle">'
               f'corpus inputs</text>')
    # One point per pixel column (and the last): a long run prints
    # thousands of status lines.
    thinned, last_px = [], None
    for i, r in enumerate(rows):
        px = int(x(r[0]))
        if px != last_px or i == len(rows) - 1:
            thinned.append(r)
            last_px = px
    rows = thinned
    for column, top_value, colour, label in ((2, y_max, "#1f77b4", "edges (cov)"), (3, y_max, "#d62728", "features (ft)"),
                                             (4, c_max, "#2ca02c", "corpus inputs")):
        points = " ".join(f"{x(r[0]):.1f},{y(r[column], top_value):.1f}" for r in rows)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
    for k, (colour, label) in enumerate((("#1f77b4", "edges (cov)"), ("#d62728", "features (ft)"),
                                         ("#2ca02c", "corpus inputs, right axis"))):
        out.append(f'<line x1="{left + 10}" y1="{top + 14 + 16 * k}" x2="{left + 30}" y2="{top + 14 + 16 * k}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{left + 36}" y="{top + 18 + 16 * k}">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--name", required=True)
    p.add_argument("--csv", required=True)
    p.add_argument("--svg", required=True)
    p.add_argument("--replot", action="store_true", help="read --csv and write --svg, nothing else")
    args = p.parse_args()
    if args.replot:
        with open(args.csv) as f:
            rows = [tuple(float(v) if i == 0 else int(v) for i, v in enumerate(line.split(",")))
                    for line in f.read().splitlines()[1:]]
        svg(args.name, rows, args.svg)
        return
    start = time.monotonic()
    rows = []
    for raw in sys.stdin.buffer:
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        m = STATUS.match(raw.decode("utf-8", "replace"))
        if m:
            rows.append((round(time.monotonic() - start, 3),) + tuple(int(g) for g in m.groups()))
    with open(args.csv, "w") as f:
        f.write("seconds,executions,edges,features,corpus\n")
        for r in rows:
            f.write(",".join(str(v) for v in r) + "\n")
    if rows:
        svg(args.name, rows, args.svg)


if __name__ == "__main__":
    main()
