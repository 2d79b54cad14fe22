#!/usr/bin/env python3
"""Summarise nativeshallow.sh's results.tsv: per target and tool, runs, found
(and how many of go test -fuzz's runs stopped at another failure first),
median (a miss or a stop counts as above every find: the median is 'miss'
when half the runs or more missed), quartiles, min and max of the calls to
the bug."""
import sys
from collections import defaultdict

rows = defaultdict(list)
stops = defaultdict(int)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 4:
        continue
    tool, target, _, calls = f
    if calls == 'stop':
        stops[(target, tool)] += 1
    rows[(target, tool)].append(int(calls) if calls.isdigit() else None)

def q(xs, p):
    # nearest-rank quantile over sorted values with misses as +inf
    k = max(0, min(len(xs) - 1, int(round(p * (len(xs) - 1)))))
    return xs[k]

def fmt(v):
    return 'miss' if v == float('inf') else f'{int(v):,}'

print('| target | tool | found | median | 25%-75% | min-max |')
print('|---|---|---:|---:|---:|---:|')
for (target, tool) in sorted(rows):
    xs = sorted(float('inf') if v is None else v for v in rows[(target, tool)])
    n = len(xs)
    found = sum(1 for v in xs if v != float('inf'))
    med = (xs[(n - 1) // 2] + xs[n // 2]) / 2 if n % 2 == 0 else xs[n // 2]
    st = f' ({stops[(target, tool)]} stopped)' if stops[(target, tool)] else ''
    print(f'| {target} | {tool} | {found}/{n}{st} | {fmt(med)} | {fmt(q(xs, .25))}-{fmt(q(xs, .75))} | {fmt(xs[0])}-{fmt(xs[-1])} |')
