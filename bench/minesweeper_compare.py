#!/usr/bin/env python3
"""Compare two builds of the Minesweeper bot game by game (a benchmark aid, not a test).

Both builds play the same seeded games (`--per-game` records each game's result), so the
difference in wins is measured on the games where they disagree: its standard error is
sqrt(a + b) / n for a games won only by the first build and b only by the second, far
smaller than that of two independent win rates.

usage: bench/minesweeper_compare.py OLD_BINARY NEW_BINARY [--level expert] [--first-click safe]
                                    [--games 6000] [--seed 71]
Each build runs on one thread, the two side by side.
"""
import argparse
import concurrent.futures
import math
import subprocess
import tempfile
import time
from pathlib import Path


def play(binary, args, out):
    start = time.perf_counter()
    subprocess.run(
        [binary, "play", "minesweeper", "--level", args.level, "--first-click", args.first_click,
         "--games", str(args.games), "--seed", str(args.seed), "--threads", "1", "--per-game", out],
        check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    return [line.split()[1] == "won" for line in Path(out).read_text().splitlines()], seconds


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--level", default="expert")
    p.add_argument("--first-click", default="safe")
    p.add_argument("--games", type=int, default=6000)
    p.add_argument("--seed", type=int, default=71)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(2) as pool:
        (old, old_s), (new, new_s) = pool.map(lambda b: play(b[1], args, f"{tmp}/{b[0]}.txt"), [("old", args.old), ("new", args.new)])
    n = len(old)
    only_old = sum(1 for a, b in zip(old, new) if a and not b)
    only_new = sum(1 for a, b in zip(old, new) if b and not a)
    print(f"{args.level} {args.first_click}, {n} games from seed {args.seed}")
    print(f"old {100 * sum(old) / n:.2f}% in {old_s:.0f} s, new {100 * sum(new) / n:.2f}% in {new_s:.0f} s")
    print(f"new - old: {100 * (only_new - only_old) / n:+.2f} points "
          f"± {100 * math.sqrt(only_old + only_new) / n:.2f} (won only by old {only_old}, only by new {only_new})")


if __name__ == "__main__":
    main()
