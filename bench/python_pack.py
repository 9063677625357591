#!/usr/bin/env python3
"""The Python package's pack against the C++ call it wraps, side by side in
one process: a 64 MiB bf16 T(8,128)(2,1) array and a 4 KiB one, each also
against numpy's arr.copy() of the same array. Each figure is the best of
several timed runs (a shared machine only ever slows a run down).

    scripts/bench-python        (builds build/python, then runs this)
    PYTHONPATH=build/python/python python3 bench/python_pack.py
"""
import time

import numpy as np

import tilecheck


def best(function, repeats, inner=1):
    """The best time of one call, over `repeats` runs of `inner` calls."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            function()
        times.append((time.perf_counter() - t0) / inner)
    return min(times)


def measure(text, repeats, inner):
    layout = tilecheck.Layout.parse(text)
    rng = np.random.default_rng(1)
    array = rng.integers(0, 1 << 16, size=layout.dims, dtype=np.uint16)
    out = np.empty(layout.byte_size, np.uint8)
    tilecheck.pack(array, layout, out=out)  # pages touched, plans warm
    cpp = min(tilecheck._tilecheck._time_pack(array, layout, out, inner) for _ in range(repeats))
    python_out = best(lambda: tilecheck.pack(array, layout, out=out), repeats, inner)
    python_new = best(lambda: tilecheck.pack(array, layout), repeats, inner)
    copy = best(lambda: array.copy(), repeats, inner)
    return layout, {"C++ pack (PackPlan::pack)": cpp, "Python pack(out=...)": python_out,
                    "Python pack (new array)": python_new, "numpy arr.copy()": copy}


def report(title, layout, times, unit, scale):
    print(f"{title}: {layout} ({layout.dense_byte_size} dense bytes, "
          f"{layout.byte_size} packed)")
    cpp = times["C++ pack (PackPlan::pack)"]
    print(f"  {'':28} {unit:>10} {'GB/s':>7} {'speed vs C++':>13}")
    for name, t in times.items():
        print(f"  {name:28} {t * scale:10.2f} {layout.dense_byte_size / t / 1e9:7.2f} "
              f"{cpp / t:12.2f}x")


def main():
    layout, times = measure("bf16[4096,8192]{1,0:T(8,128)(2,1)}", repeats=15, inner=1)
    report("64 MiB", layout, times, "ms", 1e3)
    layout, times = measure("bf16[16,128]{1,0:T(8,128)(2,1)}", repeats=7, inner=20000)
    report("4 KiB", layout, times, "us/call", 1e6)


if __name__ == "__main__":
    main()
