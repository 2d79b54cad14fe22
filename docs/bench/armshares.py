#!/usr/bin/env python3
"""armshares.py DIR [STEP]: auto's arm shares over a run, from snapshots of
its work directory's stats file (DIR/1, DIR/2, ... copied every few
seconds while the run goes on). Prints, per STEP snapshots (default 3), the
executions since the last row, total coverage, and for each operator arm its
share of those executions and the executions of its children that found
something (the bandit's reward events)."""
import os
import sys

ARMS = ['zest', 'bytes', 'ei', 'struct', 'value', 'zeugma', 'random', 'fairfuzz']


def read(path):
    d = {}
    for line in open(path):
        k, sep, v = line.partition(':')
        if sep:
            try:
                d[k] = float(v)
            except ValueError:
                pass
    return d


def main():
    snap, step = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
    names = sorted((n for n in os.listdir(snap) if n.isdigit()), key=int)
    rows = [read(os.path.join(snap, n)) for n in names][::step]
    print('| elapsed s | executions | coverage | ' + ' | '.join(ARMS) + ' |')
    print('|---:|---:|---:|' + '---:|' * len(ARMS))
    prev = {}
    for d in rows:
        de = d['execs'] - prev.get('execs', 0)
        cells = []
        for a in ARMS:
            e = d.get('arm_%s_execs' % a, 0) - prev.get('arm_%s_execs' % a, 0)
            f = d.get('arm_%s_finds' % a, 0) - prev.get('arm_%s_finds' % a, 0)
            cells.append('%.1f%% / %d' % (100 * e / max(de, 1), f))
        print('| %.0f | %d | %d | %s |' % (d['elapsed_s'], de, d['total_cov'], ' | '.join(cells)))
        prev = d


if __name__ == '__main__':
    main()
