#!/usr/bin/env python3
"""auto-bugs-summary.py: tables of docs/bench/auto-bugs.sh results, the
held-out evaluation of the adaptive engine (docs/BENCHMARKS.md, "The
adaptive engine").

Usage: docs/bench/auto-bugs-summary.py RESULTS.tsv [REFERENCE_ENGINE]   (default auto)

For each bug, per engine: found k/n, the median executions and the median
CPU seconds to the bug (a run that missed it counts as worse than every run
that found it: executions budget + 1, CPU infinite), then, for the
reference engine against every other engine, the two-sided Mann-Whitney U
p-value and the Vargha-Delaney A12 on both (A12 > 0.5: the reference needs
less), marked "worse" where p < 0.05 and A12 < 0.5. Two CPU figures: the
measured one (auto-bugs.sh's cpu_to_bug: the fuzz binary's CPU when the
script saw the bug's report, so with the time the run took to write it and
the script to classify the other crashes before it) and, with -est, the
estimate executions to the bug x the run's CPU seconds per execution (the
engine's cost per execution alone; a hang's timeouts spread over the run). Only seeds every engine
of the bug has are compared (so a cell still running does not bias it).
Then each engine's mean rank over the bugs some run found and every
engine ran (rank of its median per bug,
ties averaged, lower is better), on executions and on CPU seconds, as
FuzzBench ranks fuzzers by their medians per benchmark; and the decision
rule of issue 26 for the reference: never significantly worse than the
best single engine (nor any other), and the best or equal-best mean rank.
Last, from the stats files auto-bugs.sh keeps (RESULTS without its
extension, plus -stats/), auto's arms per bug over all its runs: each
arm's share of the executions credited and its finds per 1,000 of them.
"""
import importlib.util
import math
import os
import sys
from collections import defaultdict

spec = importlib.util.spec_from_file_location(
    "auto_summary", os.path.join(os.path.dirname(os.path.abspath(__file__)), "auto-summary.py"))
auto_summary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(auto_summary)
median, mann_whitney = auto_summary.median, auto_summary.mann_whitney


def ranks_of(score):
    """Rank (1 = best, lowest score; ties averaged) of each key of score."""
    s = sorted(score, key=lambda e: score[e])
    out = {}
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and score[s[j + 1]] == score[s[i]]:
            j += 1
        for k in range(i, j + 1):
            out[s[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def fmt_cpu(x):
    return "∞" if math.isinf(x) else f"{x:.2f}"


def main():
    args = [a for a in sys.argv[1:] if a != "-est"]
    est = "-est" in sys.argv[1:]
    path = args[0]
    ref = args[1] if len(args) > 1 else "auto"
    runs = defaultdict(dict)  # (bug, engine) -> seed -> (found, execs, cpu)
    budgets, default_budget = {}, {}
    order, engines = [], []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 11:
            continue
        bug, eng, seed, budget, found = f[0], f[1], int(f[2]), int(f[3]), f[4] == "1"
        if budget != default_budget.setdefault(f[0], budget):
            bug = f"{f[0]} at {budget:,}"  # another budget: another case
        at, cpu_bug = int(f[5]), f[10]
        if est and found and f[6] not in ("-", "0"):
            cpu_bug = float(f[7]) * at / int(f[6])
        if bug not in order:
            order.append(bug)
        if eng not in engines:
            engines.append(eng)
        budgets[bug] = budget
        execs = at if found else budget + 1
        cpu = float(cpu_bug) if found else math.inf
        runs[(bug, eng)][seed] = (found, execs, cpu)
    rank_x, rank_c = defaultdict(list), defaultdict(list)
    verdicts = []
    what = "estimated" if est else "measured"
    print(f"| bug | engine | found | execs to bug, median | CPU s to bug ({what}), median | "
          f"{ref} vs it, execs: p, A12 | CPU: p, A12 |")
    print("|---|---|---:|---:|---:|---|---|")
    for bug in order:
        engs = [e for e in engines if (bug, e) in runs]
        seeds = set.intersection(*(set(runs[(bug, e)]) for e in engs))
        if not seeds:
            continue
        seeds = sorted(seeds)
        med_x, med_c, vx, vc = {}, {}, {}, {}
        for e in engs:
            rs = [runs[(bug, e)][s] for s in seeds]
            vx[e] = [r[1] for r in rs]
            vc[e] = [r[2] for r in rs]
            med_x[e], med_c[e] = median(vx[e]), median(vc[e])
        for e in engs:
            k = sum(runs[(bug, e)][s][0] for s in seeds)
            mx = f"{med_x[e]:,.0f}" if med_x[e] <= budgets[bug] else "> budget"
            row = f"| `{bug}` | {e} | {k}/{len(seeds)} | {mx} | {fmt_cpu(med_c[e])} |"
            if e != ref and ref in engs:
                p1, a1 = mann_whitney([-x for x in vx[ref]], [-x for x in vx[e]])
                # CPU: infinite values tie among themselves; negate for "higher is better"
                p2, a2 = mann_whitney([-x for x in vc[ref]], [-x for x in vc[e]])
                w1 = " **worse**" if p1 < 0.05 and a1 < 0.5 else (" better" if p1 < 0.05 else "")
                w2 = " **worse**" if p2 < 0.05 and a2 < 0.5 else (" better" if p2 < 0.05 else "")
                row += f" {p1:.3f}, {a1:.2f}{w1} | {p2:.3f}, {a2:.2f}{w2} |"
                if w1 == " **worse**" or w2 == " **worse**":
                    verdicts.append(f"{ref} significantly worse than {e} on {bug}" +
                                    (" (executions)" if w1 == " **worse**" else "") +
                                    (" (CPU)" if w2 == " **worse**" else ""))
            else:
                row += " | |"
            print(row)
        if len(engs) < len(engines):
            verdicts.append(f"{bug}: run with {len(engs)} of the {len(engines)} engines; left out of the ranks")
            continue
        if all(not runs[(bug, e)][s][0] for e in engs for s in seeds):
            verdicts.append(f"{bug}: no engine found it (seeds {seeds[0]}-{seeds[-1]}); left out of the ranks")
            continue
        for e, r in ranks_of(med_x).items():
            rank_x[e].append(r)
        for e, r in ranks_of(med_c).items():
            rank_c[e].append(r)
        others = [e for e in engs if e != ref]
        if ref in engs and others:
            bx = min(others, key=lambda e: med_x[e])
            bc = min(others, key=lambda e: med_c[e])
            p1, a1 = mann_whitney([-x for x in vx[ref]], [-x for x in vx[bx]])
            p2, a2 = mann_whitney([-x for x in vc[ref]], [-x for x in vc[bc]])
            verdicts.append(f"{bug}: best single engine by executions {bx} ({ref} vs it p = {p1:.3f}, A12 = {a1:.2f}); "
                            f"by CPU {bc} (p = {p2:.3f}, A12 = {a2:.2f}); seeds {seeds[0]}-{seeds[-1]} ({len(seeds)})")
    print()
    print("| engine | mean rank, executions | mean rank, CPU seconds | bugs |")
    print("|---|---:|---:|---:|")
    for e in sorted(rank_x, key=lambda e: (sum(rank_x[e]) / len(rank_x[e]), sum(rank_c[e]) / len(rank_c[e]))):
        print(f"| {e} | {sum(rank_x[e]) / len(rank_x[e]):.2f} | {sum(rank_c[e]) / len(rank_c[e]):.2f} | {len(rank_x[e])} |")
    print()
    for v in verdicts:
        print("- " + v)
    if ref in rank_x:
        mx = {e: sum(v) / len(v) for e, v in rank_x.items()}
        mc = {e: sum(v) / len(v) for e, v in rank_c.items()}
        worse = [v for v in verdicts if "significantly worse" in v]
        best_x = mx[ref] <= min(mx.values()) + 1e-9
        best_c = mc[ref] <= min(mc.values()) + 1e-9
        print(f"- rule: {ref} never significantly worse: {'yes' if not worse else 'no'}; "
              f"best or equal-best mean rank: executions {'yes' if best_x else 'no'}, CPU {'yes' if best_c else 'no'}")

    arms_table(os.path.splitext(path)[0] + "-stats", order)


def arms_table(d, order):
    """auto's arms per bug, summed over its runs' stats files."""
    if not os.path.isdir(d):
        return
    tot = defaultdict(lambda: defaultdict(lambda: [0, 0]))  # bug -> arm -> [execs, finds]
    names = {}
    for fn in sorted(os.listdir(d)):
        bug, _, rest = fn.partition(".auto.")
        if "@" in rest:  # auto-bugs.sh names the stats of another budget's runs BUG.auto.SEED@BUDGET
            bug = f"{bug} at {int(rest.split('@')[1]):,}"
        if not rest:
            continue
        kv = {}
        for line in open(os.path.join(d, fn)):
            k, _, v = line.partition(":")
            kv[k.strip()] = v.strip()
        for kind in ("arms", "arms_parents"):
            if kind not in kv:
                continue  # the run stopped before its worker wrote its arms (a hang killed it)
            names[kind] = kv[kind].split(",")
            for a in names[kind]:
                tot[bug][a][0] += int(kv.get(f"arm_{a}_execs", 0))
                tot[bug][a][1] += int(kv.get(f"arm_{a}_finds", 0))
    if not tot:
        return
    cols = [a for a in names.get("arms", []) if any(tot[b][a][0] for b in tot)]
    pcols = [a for a in names.get("arms_parents", []) if any(tot[b][a][0] for b in tot)]
    print()
    print("auto's arms: share of the executions (finds per 1,000 of its executions), all runs of the bug")
    print()
    print("| bug | " + " | ".join(cols) + " | " + " | ".join(pcols) + " |")
    print("|---|" + "---:|" * (len(cols) + len(pcols)))
    for bug in [b for b in order if b in tot] + sorted(b for b in tot if b not in order):
        row = []
        for group in (cols, pcols):
            n = sum(tot[bug][a][0] for a in group) or 1
            for a in group:
                e, f = tot[bug][a]
                row.append(f"{100 * e / n:.0f}% ({1000 * f / e:.0f})" if e else "-")
        print(f"| `{bug}` | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
