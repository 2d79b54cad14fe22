#!/usr/bin/env python3
"""summary.py RESULTS: per build and engine, the runs that found bstsucc's bug
(k/n), the median executions to the bug (a miss counts as more than the
budget, so a median that is a miss prints as "> budget"), and every run's
figure (- for a miss), from run.sh's tab-separated lines."""
import sys
from collections import defaultdict

runs = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 6:
        continue
    build, engine, seed, budget, found, at = f[0], f[1], int(f[2]), int(f[3]), f[4] == "1", int(f[5])
    key = (build, engine)
    if key not in runs:
        order.append(key)
    runs[key].append((seed, budget, found, at))

print("| build | engine | found | median executions to the bug | per seed (1-10) |")
print("|---|---|---:|---:|---|")
for key in order:
    rs = sorted(runs[key])
    budget = rs[0][1]
    vals = sorted(at if found else budget + 1 for _, _, found, at in rs)
    n = len(vals)
    med = vals[(n - 1) // 2] if n % 2 else None
    if n % 2 == 0:
        lo, hi = vals[n // 2 - 1], vals[n // 2]
        med = hi  # upper median, as the other tables of BENCHMARKS.md
    k = sum(1 for r in rs if r[2])
    medtxt = "> budget" if med > budget else f"{med:,}"
    per = " ".join(f"{at:,}" if found else "-" for _, _, found, at in rs)
    print(f"| {key[0]} | {key[1]} | {k}/{n} | {medtxt} | {per} |")
