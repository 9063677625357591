#!/usr/bin/env python3
"""The size sweep of tilecheck_bench's JSON output as a table and an SVG plot.

    python3 bench/sweep_report.py build/bench/results.json build/bench/sweep.svg

For each Highway target measured, sweep case and size (dense bytes): pack and unpack GB/s, their ratio
to memcpy of the same size in the same run, and to the best copy (the faster
of memcpy and the non-temporal copy at that size). Then the plan's
construction time per case; and the automatic thread count's speed against
one thread's (mt/1). The plot draws pack's and unpack's ratio to
memcpy against the size (log scale), with the goal line (0.8x memcpy from
64 KiB up). Python's standard library only.
"""
import json
import math
import sys

GOAL, GOAL_FROM = 0.8, 64 << 10


def split_target(name):
    """'kind/case@TARGET' -> ('kind/case', 'TARGET'); no '@': the target is None."""
    base, _, target = name.partition("@")
    return base, (target or None)


def load(path):
    """The sweep's rates per Highway target: {target: {case: {bytes: {kind: B/s}}, 'copy': ...}}
    (the copies run once and serve every target), and the plans' construction times."""
    data = json.load(open(path))
    rates, copies, plan_us = {}, {}, {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name, target = split_target(b["run_name"].removesuffix("/real_time"))
        parts = name.split("/")
        if parts[0] == "plan":
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
            plan_us[parts[1]] = b["real_time"] * scale
        elif parts[0] in ("sweep_pack", "sweep_unpack", "sweep_pack_mt", "sweep_unpack_mt"):
            rates.setdefault(target, {}).setdefault(parts[1], {}).setdefault(int(parts[2]), {})[parts[0]] = \
                b["bytes_per_second"]
        elif parts[0] in ("sweep_memcpy", "sweep_ntcopy"):
            copies.setdefault(int(parts[1]), {})[parts[0]] = b["bytes_per_second"]
    for rate in rates.values():
        rate["copy"] = copies
    return data, rates, plan_us


def size_name(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def table(rate, target):
    copies = rate.get("copy", {})
    print(f"size sweep on {target}: GB/s over the dense array's bytes; ratios to memcpy (mc) and to the best copy")
    print("(the faster of memcpy and a non-temporal copy) of the same size, in the same run")
    print(f"{'case':16} {'size':>8} {'pack':>6} {'unpack':>6} {'memcpy':>6} {'ntcopy':>6} | "
          f"{'pk/mc':>6} {'up/mc':>6} {'pk/best':>7} {'up/best':>7} {'us/pack':>8} | "
          f"{'pk mt/1':>7} {'up mt/1':>7}")
    for case, sizes in rate.items():
        if case == "copy":
            continue
        for n in sorted(sizes):
            r, c = sizes[n], copies.get(n, {})
            pk, up = r.get("sweep_pack"), r.get("sweep_unpack")
            mc, nt = c.get("sweep_memcpy"), c.get("sweep_ntcopy")
            best = max(mc or 0, nt or 0)
            f = lambda x: f"{x / 1e9:6.2f}" if x else "     -"
            q = lambda a, b, w=6: f"{a / b:{w}.2f}" if a and b else " " * (w - 1) + "-"
            us = f"{n / pk * 1e6:8.2f}" if pk else "       -"
            pk_mt, up_mt = r.get("sweep_pack_mt"), r.get("sweep_unpack_mt")
            print(f"{case:16} {size_name(n):>8} {f(pk)} {f(up)} {f(mc)} {f(nt)} | "
                  f"{q(pk, mc)} {q(up, mc)} {q(pk, best, 7)} {q(up, best, 7)} {us} | "
                  f"{q(pk_mt, pk, 7)} {q(up_mt, up, 7)}")


def svg(rate, path, target):
    cases = [c for c in rate if c != "copy"]
    copies = rate.get("copy", {})
    sizes = sorted({n for c in cases for n in rate[c]})
    if not sizes:
        return
    width, height, left, right, top, bottom = 760, 420, 70, 200, 30, 60
    lo, hi = math.log2(sizes[0]), math.log2(sizes[-1])
    ratios = [rate[c][n][k] / copies[n]["sweep_memcpy"]
              for c in cases for n in rate[c] for k in rate[c][n]
              if copies.get(n, {}).get("sweep_memcpy")]
    y_max = max([1.6] + [math.ceil(r * 5) / 5 for r in ratios])

    def x(n):
        return left + (math.log2(n) - lo) / max(hi - lo, 1) * (width - left - right)

    def y(v):
        return top + (1 - v / y_max) * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">pack and unpack on {target}, ratio to memcpy of the same '
           f'size (1 thread)</text>']
    for i in range(int(y_max * 5) + 1):  # horizontal grid every 0.2
        v = i / 5
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}x</text>')
    for n in sizes:
        out.append(f'<text x="{x(n):.1f}" y="{height - bottom + 18}" text-anchor="middle">'
                   f'{size_name(n)}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 15}" text-anchor="middle">'
               f'dense array size</text>')
    out.append(f'<line x1="{x(GOAL_FROM):.1f}" x2="{width - right}" y1="{y(GOAL):.1f}" '
               f'y2="{y(GOAL):.1f}" stroke="#c00" stroke-dasharray="6,4"/>')
    out.append(f'<text x="{width - right + 6}" y="{y(GOAL) + 4:.1f}" fill="#c00">goal 0.8x</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(1):.1f}" y2="{y(1):.1f}" '
               f'stroke="#888"/>')
    colours = ["#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    legend = top + 20
    for i, case in enumerate(cases):
        for kind, dash in (("sweep_pack", ""), ("sweep_unpack", ' stroke-dasharray="3,3"')):  # 1 thread
            points = [(x(n), y(rate[case][n][kind] / copies[n]["sweep_memcpy"]))
                      for n in sorted(rate[case])
                      if kind in rate[case][n] and copies.get(n, {}).get("sweep_memcpy")]
            if not points:
                continue
            colour = colours[i % len(colours)]
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="' +
                       " ".join(f"{px:.1f},{py:.1f}" for px, py in points) + '"/>')
            label = f"{case} {kind.removeprefix('sweep_')}"
            out.append(f'<line x1="{width - right + 6}" x2="{width - right + 30}" y1="{legend}" '
                       f'y2="{legend}" stroke="{colour}" stroke-width="2"{dash}/>')
            out.append(f'<text x="{width - right + 34}" y="{legend + 4}">{label}</text>')
            legend += 18
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def report(path, svg_path=None):
    """Prints the sweep's table per target and the plans' times; writes the plot per target
    (svg_path itself for the first target, svg_path with -TARGET before .svg for the others)."""
    data, rates, plan_us = load(path)
    order = data["context"].get("hwy_targets", "").split()  # best first
    ranked = sorted(rates.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))
    for i, (target, rate) in enumerate(ranked):
        if i:
            print()
        table(rate, target)
        if svg_path:
            svg(rate, svg_path if i == 0 else svg_path.removesuffix(".svg") + f"-{target}.svg", target)
    if plan_us:
        print()
        print("constructing a PackPlan (us): " +
              ", ".join(f"{case} {us:.2f}" for case, us in plan_us.items()))


def main():
    report(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)


if __name__ == "__main__":
    main()
