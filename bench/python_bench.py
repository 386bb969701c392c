#!/usr/bin/env python3
"""The Python package's performance promises (issue 50), measured beside the command line.

  build      a model of 10^5 variables from numpy shapes (promise: <= 1 s)
  gallery    the model gallery solved through Python (`cpsolve.solve_file`, in-process) and by
             `target/release/cpsolve` (its own "time_ms", search only, and its wall time),
             each the median of --runs; the ratio Python / CLI wall (promise: <= 1.2x,
             start-up aside)
  iterate    the overhead per solution of `m.solutions()` over counting the same solutions
             (promise: <= 20 us)
  dask       14 queens counted on a 2-worker LocalCluster (8 and 64 parts) beside one
             process (promise: faster), and one part of one (`option part = 1, 1`) beside
             the whole model in one process (a part should cost what the whole does)

Needs the package installed (`pip install ./python "dask[distributed]"`) and the CLI built
(`cargo build --release`). Prints a Markdown table per measure and the load before and after.

  python3 bench/python_bench.py [--runs 5] [--only build,gallery,iterate,dask]
"""

import argparse
import json
import os
import statistics
import subprocess
import time

import cpsolve

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(REPO, "target", "release", "cpsolve")
GALLERY = [
    "sudoku-hardest", "magic-square-4", "send-more-money", "send-most-money", "queens",
    "zebra", "knapsack", "coin-change", "assignment", "golomb-8",
]


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def median_time(f, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build(runs):
    def make():
        m = cpsolve.Model()
        m.int_var(0, 9, shape=(100, 1000), name="x")
    t = median_time(make, runs)
    print("| measure | seconds | promise |\n|---|---:|---|")
    print(f"| 10^5 variables, shape (100, 1000) | {t:.3f} | <= 1 s |")


def gallery(runs):
    print("| model | Python wall ms | CLI wall ms | CLI search ms | Python / CLI wall |\n|---|---:|---:|---:|---:|")
    ratios = []
    for name in GALLERY:
        path = os.path.join(REPO, "tests", "corpus", "model", f"{name}.puz")
        if not os.path.exists(path):
            continue
        py = median_time(lambda: cpsolve.solve_file(path), runs)
        search = []

        def cli():
            out = subprocess.run([CLI, "--format", "json", "--stats", path], capture_output=True, text=True).stdout
            search.append(json.loads(out.splitlines()[-1])["stats"]["time_ms"])
        wall = median_time(cli, runs)
        ratios.append(py / wall)
        print(f"| {name} | {py * 1e3:.1f} | {wall * 1e3:.1f} | {statistics.median(search):.1f} | {py / wall:.2f} |")
    print(f"\ngeometric mean of Python / CLI wall: {statistics.geometric_mean(ratios):.2f}")


def iterate(runs):
    m = cpsolve.Model()
    x = m.int_var(0, 9, shape=5)
    m += cpsolve.sum(x) >= 0
    n = 100_000
    count = median_time(lambda: m.count(), runs) * n / 10**5

    def listed():
        for s in m.solutions(limit=n):
            s[x[0]]
    each = median_time(listed, runs)
    print("| measure | us per solution | promise |\n|---|---:|---|")
    print(f"| counting 10^5 solutions | {count / n * 1e6:.2f} | |")
    print(f"| iterating them, reading one value each | {each / n * 1e6:.2f} | |")
    print(f"| overhead | {(each - count) / n * 1e6:.2f} | <= 20 us |")


def dask(runs):
    import distributed

    import cpsolve.dask
    m = cpsolve.Model()
    q = m.int_var(0, 13, shape=14)
    m += cpsolve.all_different(q)
    m += cpsolve.all_different([q[i] + i for i in range(14)])
    m += cpsolve.all_different([q[i] - i for i in range(14)])
    one = median_time(lambda: m.count(), runs)
    part = f"{m.to_puz()}option part = 1, 1\n"
    assert cpsolve._native.run(part, "<part>", mode="count", keep="none")["count"] == 365596
    part_of_one = median_time(lambda: cpsolve._native.run(part, "<part>", mode="count", keep="none"), runs)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        with distributed.Client(c) as client:
            assert cpsolve.dask.count(m, client, parts=64) == 365596
            two = {k: median_time(lambda: cpsolve.dask.count(m, client, parts=k), runs) for k in (8, 64)}
    print("| 14 queens (365,596) | seconds |\n|---|---:|")
    print(f"| one process | {one:.2f} |\n| one process, a part of one | {part_of_one:.2f} |")
    for k, t in two.items():
        print(f"| 2-worker LocalCluster, {k} parts | {t:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="build,gallery,iterate,dask")
    args = parser.parse_args()
    print(f"load before: {load()}\n")
    for name in args.only.split(","):
        globals()[name](args.runs)
        print()
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
