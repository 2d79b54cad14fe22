#!/usr/bin/env python3
"""evals-status.py: how far each evaluation of evals.sh has come: the runs
in each results file beside docs/bench against the runs the stage asks for
(bugs x contenders x repetitions), the growth runs done, and an estimate of
the running time left on each core (a stage's runs so far, a found bug's
run ending at the bug; a stage not started counts its whole budgets, an
upper bound)."""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HARD_A = ["html-fragloop", "html-selectloop", "yaml3-unknownevent", "gomarkdown-deflist"]
HARD_B = ["tiff-palette", "toml-escapes", "toml-lexvalue"]
EASY_A = ["goldmark-list", "gotoml2-datetime", "toml-hang", "gotoml2-inline", "gjson-squash", "html-isindex",
          "html-templatens", "html-nodestack", "yaml3-stemcomment", "blackfriday-listitem"]
EASY_B = ["blackfriday-linkref", "gomarkdown-citation", "xtext-resizerange", "yaml2-simplekey", "goyaml-flowmap"]
# Half of core1's easy bugs, moved to core0 on 2026-11-28.
EASY_C = ["goyaml-mapvalue", "hcl2-nullexpand", "expr-nilcall", "dnsmsg-svcb", "hcl1-decodemap"]
ALL = ["gfz-auto", "gfz-zest", "gfz-bytes", "gfz-fairfuzz", "gfz-random", "gfz-ei", "gfz-bediv", "gfz-zeugma"]
# The evaluation at EVAL_COMMIT (evals.sh); the rounds before it are
# complete or stopped and not counted.
# Each stage: file, runs asked for, budget of one run in seconds, and the
# core (evals.sh's chain) that runs it.
STAGES = [
    ("hard-all-2026-11-28a.jsonl", len(HARD_A) * len(ALL) * 10, 180, "core0"),
    ("hard-all-2026-11-28b.jsonl", len(HARD_B) * len(ALL) * 10, 180, "core1"),
    ("easy-2026-11-28a.jsonl", len(EASY_A) * len(ALL) * 5, 60, "core0"),
    ("easy-2026-11-28b.jsonl", len(EASY_B) * len(ALL) * 5, 60, "core1"),
    ("easy-2026-11-28c.jsonl", len(EASY_C) * len(ALL) * 5, 60, "core0"),
    ("targets-2026-11-28a.jsonl", len(ALL) * 5, 300, "core0"),
    ("targets-2026-11-28b.jsonl", 5 * 5, 300, "core1"),  # FuzzHTMLTemplate, 5 contenders
    ("targets-2026-11-28c.jsonl", 1 * 5, 300, "core0"),  # FuzzHTMLTemplate, ei (moved 2026-11-28)
    ("targets-2026-11-28d.jsonl", 2 * 5, 300, "core1"),  # FuzzHTMLTemplate, bediv and zeugma
]
OVERHEAD = 5  # seconds a run costs beyond its fuzzing (start, shrinking, report)


def count(path):
    """The runs of a results file (bug or target, contender, repetition)
    and the mean seconds of fuzzing each took (None: no run)."""
    keys = set()
    secs = []
    if not os.path.exists(path):
        return 0, None
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("Err"):
            continue
        k = (r.get("Bug") or r.get("Target"), r["Contender"], r["Rep"])
        if k in keys:
            continue
        keys.add(k)
        if "BudgetS" in r:
            secs.append(r["TimeToBugS"] if r.get("Found") else r["BudgetS"])
    return len(keys), (sum(secs) / len(secs) if secs else None)


total_done = total_want = 0
left = {}
for name, want, budget, core in STAGES:
    done, mean = count(os.path.join(HERE, name))
    total_done += min(done, want)
    total_want += want
    per = (mean if mean is not None else budget) + OVERHEAD
    left[core] = left.get(core, 0) + max(want - done, 0) * per
    print(f"{name:34s} {done:4d} of {want:4d}")
growth = sorted(glob.glob(os.path.join(HERE, "growth-2026-11-28", "*.plot_data")))
print(f"{'growth-2026-11-28/':34s} {len(growth):4d} of    4 ({', '.join(os.path.basename(g) for g in growth)})")
print(f"{'all runs':34s} {total_done:4d} of {total_want:4d}")
print("running time left, estimated: " + ", ".join(f"{c} {h / 3600:.1f} h" for c, h in sorted(left.items())))
