#!/usr/bin/env python3
"""growth-table.py DIR: the coverage growth table of the template targets'
35-minute runs (evals.sh growth): for each TARGET.SEED.plot_data in DIR, the
executions and coverage keys (total_cov) at minutes 1, 5, 10, 20, 25, 30, 35
(the last sample at or before each minute), then each run's growth in its
last five and its 25th-30th minutes, as a share of its keys."""
import glob
import os
import sys

MINUTES = [1, 5, 10, 20, 25, 30, 35]


def samples(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            v = [x.strip() for x in line.split(",")]
            out.append((float(v[1]), int(v[2]), int(v[6])))  # elapsed_s, execs, total_cov
    return out


def at(s, minute):
    last = None
    for t, e, c in s:
        if t <= minute * 60 + 1e-9:
            last = (e, c)
    return last


def main():
    d = sys.argv[1]
    runs = sorted(glob.glob(os.path.join(d, "*.plot_data")))
    if not runs:
        sys.exit("no plot_data in " + d)
    names = [os.path.basename(p)[: -len(".plot_data")] for p in runs]
    data = [samples(p) for p in runs]
    print("| minutes (wall) | " + " | ".join(f"{n}: executions | coverage keys" for n in names) + " |")
    print("|---:|" + "---:|---:|" * len(names))
    for m in MINUTES:
        cells = []
        for s in data:
            x = at(s, m)
            cells += [f"{x[0]:,}", f"{x[1]:,}"] if x else ["", ""]
        print(f"| {m} | " + " | ".join(cells) + " |")
    print()
    for n, s in zip(names, data):
        a30, a35, a25 = at(s, 30), at(s, 35), at(s, 25)
        if a30 and a35 and a25:
            print(f"- {n}: +{100 * (a35[1] - a30[1]) / a30[1]:.1f}% of keys in minutes 30-35, "
                  f"+{100 * (a30[1] - a25[1]) / a25[1]:.1f}% in minutes 25-30")


if __name__ == "__main__":
    main()
