#!/usr/bin/env python3
"""tilecheck_bench's JSON output as the tables scripts/bench prints.

    python3 bench/report.py build/bench/results.json [build/bench/sweep.svg]

One set of tables per Highway target measured (the impl's benchmarks carry
their target after an '@'; memcpy, oneDNN and the spec run once and serve
every target):
- per case and size: GB/s of pack, unpack, pack_mt, memcpy, memcpy_mt
  (memcpy split between threads as pack_mt splits its work), oneDNN and the
  spec (bytes of the dense array per second), pack and unpack as a ratio of
  memcpy, pack_mt as one of memcpy_mt, pack against oneDNN's reorder and against the spec's pack, and
  where the case's buffers live: in-cache when dense and physical buffers
  together fit the last-level cache, DRAM otherwise (x LLC: their bytes over
  the cache's);
- relayout, strided views and row slices;
then linear_index's speed-up over the spec's, and the size sweep
(bench/sweep_report.py). Python's standard library only.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_report  # noqa: E402


def gbs(x):
    return (f"{x / 1e9:6.2f}" if x >= 1e8 else f"{x / 1e9:6.3f}") if x else "     -"


def ratio(a, b):
    return f"{a / b:6.2f}" if a and b else "     -"


def load(path):
    """{target or None: {case: {kind: B/s}}}, the relayouts' labels, each case's x LLC, the context."""
    data = json.load(open(path))
    rate, how, llc_x = {}, {}, {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name, target = sweep_report.split_target(b["run_name"].removesuffix("/real_time"))
        kind, case = name.split("/", 1)
        rate.setdefault(target, {}).setdefault(case, {})[kind] = b.get("bytes_per_second",
                                                                       b.get("items_per_second", 0.0))
        if kind == "relayout":
            how[case] = b.get("label", "")
        if "llc_x" in b and kind == "pack":
            llc_x[case] = b["llc_x"]
    return data, rate, how, llc_x


def tables(shared, mine, target, how, llc_x, llc_bytes):
    def r(case):
        return {**shared.get(case, {}), **mine.get(case, {})}

    print(f"on {target}: GB/s over the dense array's bytes (median of the repetitions); ratios in the same run;")
    print(f"where: the buffers in the last-level cache ({llc_bytes / 2**20:.0f} MiB) or not, x LLC their size over it")
    print(f"{'case':22} {'where':>8} {'x LLC':>6} {'pack':>6} {'unpack':>6} {'pk_mt':>6} {'memcpy':>6} {'mc_mt':>6} "
          f"{'oneDNN':>6} {'spec':>6} | {'pk/mc':>6} {'up/mc':>6} {'mt/mcmt':>7} {'pk/dnn':>6} {'pk/spec':>7}")
    for case in sorted(mine, key=lambda k: (k.removesuffix("_dram"), k.endswith("_dram"))):
        c = r(case)
        if "pack" not in c:
            continue
        spec = shared.get(case.removesuffix("_dram"), {}).get("spec_pack")
        x = llc_x.get(case)
        where = ("in-cache" if x <= 1 else "DRAM") if x is not None else "?"
        p, u, mt, mc, dnn = c.get("pack"), c.get("unpack"), c.get("pack_mt"), c.get("memcpy"), c.get("onednn_pack")
        mcmt = c.get("memcpy_mt")
        print(f"{case:22} {where:>8} {x or 0:6.1f} {gbs(p)} {gbs(u)} {gbs(mt)} {gbs(mc)} {gbs(mcmt)} {gbs(dnn)} "
              f"{gbs(spec)} | {ratio(p, mc)} {ratio(u, mc)} {ratio(mt, mcmt):>7} {ratio(p, dnn)} {ratio(p, spec):>7}")
    # The peers measured on pack and unpack alike: their name in the
    # benchmarks' names, and how they ran.
    for peer, what in (("xla", "XLA's TransposePlan (one plan made before timing, 1 thread)"),
                       ("libxsmm", "libxsmm (its own function for the layout, 1 thread)")):
        beside = [case for case in mine if f"{peer}_pack" in r(case) or f"{peer}_unpack" in r(case)]
        if not beside:
            continue
        print()
        print(f"beside {what} on {target}, GB/s over the dense bytes")
        short = peer[:3]
        print(f"{'case':22} {'pack':>6} {short + '_pk':>6} {'unpack':>6} {short + '_up':>6} | {'pk/' + short:>6} "
              f"{'up/' + short:>6}")
        for case in sorted(beside):
            c = r(case)
            p, u, xp, xu = c.get("pack"), c.get("unpack"), c.get(f"{peer}_pack"), c.get(f"{peer}_unpack")
            print(f"{case:22} {gbs(p)} {gbs(xp)} {gbs(u)} {gbs(xu)} | {ratio(p, xp)} {ratio(u, xu)}")
    relayouts = [case for case in mine if "relayout" in mine[case]]
    if relayouts:
        print()
        print(f"relayout on {target}, 1 thread, GB/s over the dense bytes: RelayoutPlan (how: one pass, by bands,")
        print("or through a dense copy), unpack into a dense array then pack (whole), and memcpy")
        print(f"{'pair':24} {'how':>12} {'relayout':>8} {'whole':>6} {'memcpy':>6} | {'rl/mc':>6} {'rl/whole':>8}")
        for case in relayouts:
            c = r(case)
            rl, wh, mc = c.get("relayout"), c.get("relayout_whole"), c.get("memcpy")
            print(f"{case:24} {how.get(case, ''):>12} {gbs(rl):>8} {gbs(wh)} {gbs(mc)} | {ratio(rl, mc)} "
                  f"{ratio(rl, wh):>8}")
    views = [case for case in mine if "pack_strided" in mine[case]]
    if views:
        print()
        print(f"strided views and row slices on {target}, 1 thread, against the contiguous whole-array call")
        print(f"{'case':20} {'pk_str':>6} {'up_str':>6} {'pk_sl':>6} {'up_sl':>6} | "
              f"{'pk_str/pk':>9} {'up_str/up':>9} {'pk_sl/pk':>8} {'up_sl/up':>8}")
        for case in views:
            c = r(case)
            p, u = c.get("pack"), c.get("unpack")
            ps, us, pl, ul = c.get("pack_strided"), c.get("unpack_strided"), c.get("pack_slices"), c.get("unpack_slices")
            print(f"{case:20} {gbs(ps)} {gbs(us)} {gbs(pl)} {gbs(ul)} | "
                  f"{ratio(ps, p):>9} {ratio(us, u):>9} {ratio(pl, p):>8} {ratio(ul, u):>8}")


def main():
    data, rate, how, llc_x = load(sys.argv[1])
    ctx = data["context"]
    llc_bytes = int(ctx.get("llc_bytes", 0)) or 1
    print(f"machine: {ctx.get('host_name', '?')}, {ctx['num_cpus']} cpus, {ctx['date']}; "
          f"Highway targets it has: {ctx.get('hwy_targets', '?')}")
    shared = rate.get(None, {})
    order = ctx.get("hwy_targets", "").split()  # best first
    for target in sorted((t for t in rate if t is not None), key=lambda t: order.index(t) if t in order else 99):
        tables(shared, rate[target], target, how, llc_x, llc_bytes)
        print()
    print(f"{'case':20} {'linear_index M/s':>17} {'spec M/s':>9} {'speed-up':>9}")
    for case, c in shared.items():
        li, sli = c.get("linear_index"), c.get("spec_linear_index")
        if li and sli:
            print(f"{case:20} {li / 1e6:17.1f} {sli / 1e6:9.2f} {li / sli:9.1f}")
    print()
    sweep_report.report(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)


if __name__ == "__main__":
    main()
