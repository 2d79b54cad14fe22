#!/usr/bin/env python3
"""Summarise cmp-native-cost.sh's cost.tsv: per target, the median CPU
seconds of each configuration over the rounds and its ratio to the
baseline (none), as a markdown table."""
import statistics
import sys
from collections import defaultdict

cpu = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 4 or f[3] == 'error':
        continue
    name, conf, _, s = f
    if name not in order:
        order.append(name)
    cpu[(name, conf)].append(float(s))

confs = ['none', 'dom', 'off', 'on']
print('| target | rounds | none (s) | dom | off | on |')
print('|---|---:|---:|---:|---:|---:|')
for name in order:
    base = statistics.median(cpu[(name, 'none')])
    cells = [f'{base:.2f}']
    for c in confs[1:]:
        xs = cpu[(name, c)]
        cells.append(f'{statistics.median(xs) / base:.3f}' if xs else '')
    print(f'| {name} | {len(cpu[(name, "none")])} | ' + ' | '.join(cells) + ' |')
