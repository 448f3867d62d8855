#!/usr/bin/env python3
"""Wall time of `csp` on 1 thread against N threads, side by side: each run of N threads
follows a run of 1, the best of R kept for each, and the answers compared (solutions, status).

    python3 scripts/threads-speedup.py --csp target/release/csp --threads 2 --repeat 3 \\
        --command "count FILE" ... [--min-seconds 2]

Each --command is a csp command line with the instance; `--threads N --format json` is added.
Prints a Markdown table: the command, nodes and seconds on 1 thread, nodes and seconds on N,
the ratio of the wall times, and whether the answers agree. With --min-seconds, commands whose
single-thread time is below it are left out of the total (the issue's "instances over 2 s").
"""

import argparse
import json
import shlex
import subprocess
import time


def run(csp, command, threads):
    args = [csp] + shlex.split(command) + ["--threads", str(threads), "--format", "json"]
    start = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - start
    records = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    if not records:
        raise SystemExit(f"no JSON from {' '.join(args)}: {out.stderr.strip()}")
    last = records[-1]
    answer = (last.get("status"), last.get("solutions"), last.get("objective"))
    return wall, last.get("nodes"), answer


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csp", default="target/release/csp")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--min-seconds", type=float, default=0.0)
    parser.add_argument("--command", action="append", required=True)
    a = parser.parse_args()
    print(f"| command | nodes (1) | s (1) | nodes ({a.threads}) | s ({a.threads}) | ratio | same answer |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    total1 = totaln = 0.0
    for command in a.command:
        best1 = bestn = None
        for _ in range(a.repeat):
            w1, n1, ans1 = run(a.csp, command, 1)
            wn, nn, ansn = run(a.csp, command, a.threads)
            best1 = w1 if best1 is None else min(best1, w1)
            bestn = wn if bestn is None else min(bestn, wn)
        same = "yes" if ans1 == ansn else f"NO: {ans1} / {ansn}"
        if best1 >= a.min_seconds:
            total1 += best1
            totaln += bestn
        print(f"| `{command}` | {n1:,} | {best1:.2f} | {nn:,} | {bestn:.2f} | {bestn / best1:.2f} | {same} |", flush=True)
    if total1 > 0:
        print(f"| total (1 thread over {a.min_seconds} s) | | {total1:.2f} | | {totaln:.2f} | {totaln / total1:.2f} | |")


if __name__ == "__main__":
    main()
