#!/usr/bin/env python3
"""auto-summary.py: tables of docs/bench/auto-eval.sh results (docs/BENCHMARKS.md,
"The adaptive engine").

Usage: docs/bench/auto-summary.py RESULTS.tsv [REFERENCE_ENGINE]   (default auto)

For each case: per engine, found k/n and the median executions to the bug
(bug cases; a miss counts as more than the budget) or the median (min-max)
statements covered at the budget (coverage cases); the reference engine's
two-sided Mann-Whitney U p-value and Vargha-Delaney A12 against every other
engine (A12 > 0.5: the reference needs fewer executions / covers more); and
the engines' mean rank over the cases (rank of the median per case, ties
averaged; lower is better), over all cases and over those where some
engine's median is at least 1,000 executions (the others are found by every
engine within a few executions: their ranks are noise).
"""
import math
import sys
from collections import defaultdict


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def mann_whitney(a, b):
    """Two-sided p-value of the Mann-Whitney U test (normal approximation
    with tie and continuity corrections) and A12 = P(a > b) + P(a = b)/2."""
    n1, n2 = len(a), len(b)
    allv = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(allv)
    i = 0
    ties = 0.0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1][0] == allv[i][0]:
            j += 1
        r = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[k] = r
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    r1 = sum(r for r, (_, g) in zip(ranks, allv) if g == 0)
    u1 = r1 - n1 * (n1 + 1) / 2
    a12 = u1 / (n1 * n2)
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0, a12
    z = (abs(u1 - n1 * n2 / 2) - 0.5) / math.sqrt(var)
    p = math.erfc(max(z, 0) / math.sqrt(2))
    return min(p, 1.0), a12


def main():
    path = sys.argv[1]
    ref = sys.argv[2] if len(sys.argv) > 2 else "auto"
    runs = defaultdict(list)  # (case, engine) -> [(found, execs_to_bug, covered, budget)]
    order = []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 11:
            continue
        case, eng, seed, budget, found, at, execs, cov = f[0], f[1], f[2], int(f[3]), f[4] == "1", int(f[5]), f[6], f[7]
        if case not in order:
            order.append(case)
        runs[(case, eng)].append((found, at, None if cov == "-" else int(cov), budget))
    engines = sorted({e for (_, e) in runs})
    ranks = defaultdict(list)
    hard = defaultdict(list)  # ranks over the cases some engine needs 1,000 executions or more for
    for case in order:
        engs = [e for e in engines if (case, e) in runs]
        cov = runs[(case, engs[0])][0][2] is not None
        print(f"## {case}")
        score, vals, descs = {}, {}, {}
        for e in engs:
            rs = runs[(case, e)]
            if cov:
                v = [r[2] for r in rs]
                vals[e] = v
                score[e] = -median(v)
                descs[e] = f"{median(v):g} ({min(v)}-{max(v)})"
            else:
                v = [r[1] if r[0] else r[3] + 1 for r in rs]
                vals[e] = [-x for x in v]  # higher is better for A12
                score[e] = median(v)
                k = sum(r[0] for r in rs)
                m = median(v)
                descs[e] = f"{k}/{len(rs)}, median " + (f"{m:,.0f}" if m <= rs[0][3] else "> budget")
        for e in engs:
            line = f"  {e:10s} {descs[e]}"
            if e != ref and (case, ref) in runs:
                p, a12 = mann_whitney(vals[ref], vals[e])
                line += f"   {ref} vs {e}: p = {p:.3f}, A12 = {a12:.2f}"
            print(line)
        s = sorted(engs, key=lambda e: score[e])
        i = 0
        while i < len(s):
            j = i
            while j + 1 < len(s) and score[s[j + 1]] == score[s[i]]:
                j += 1
            for k in range(i, j + 1):
                ranks[s[k]].append((i + j) / 2 + 1)
                if cov or max(score.values()) >= 1000:
                    hard[s[k]].append((i + j) / 2 + 1)
            i = j + 1
    for title, rk in (("all cases", ranks), ("cases where some engine's median is 1,000 executions or more, and coverage cases", hard)):
        print(f"## mean rank, {title}")
        for e in sorted(rk, key=lambda e: sum(rk[e]) / len(rk[e])):
            print(f"  {e:10s} {sum(rk[e]) / len(rk[e]):.2f} over {len(rk[e])} cases")


if __name__ == "__main__":
    main()
