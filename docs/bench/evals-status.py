#!/usr/bin/env python3
"""evals-status.py: how far each evaluation of evals.sh has come: the runs
in each results file beside docs/bench against the runs the stage asks for
(bugs x contenders x repetitions), and the growth runs done."""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HARD_A = ["html-fragloop", "html-selectloop", "yaml3-unknownevent", "gomarkdown-deflist"]
HARD_B = ["tiff-palette", "toml-escapes", "toml-lexvalue"]
EASY_A = ["goldmark-list", "gotoml2-datetime", "toml-hang", "gotoml2-inline", "gjson-squash", "html-isindex",
          "html-templatens", "html-nodestack", "yaml3-stemcomment", "blackfriday-listitem"]
EASY_B = ["blackfriday-linkref", "gomarkdown-citation", "xtext-resizerange", "yaml2-simplekey", "goyaml-flowmap",
          "goyaml-mapvalue", "hcl2-nullexpand", "expr-nilcall", "dnsmsg-svcb", "hcl1-decodemap"]
ALL = ["gfz-auto", "gfz-zest", "gfz-bytes", "gfz-fairfuzz", "gfz-random", "gfz-ei", "gfz-bediv", "gfz-zeugma"]
# The evaluation at EVAL_COMMIT (evals.sh); the rounds before it are
# complete or stopped and not counted.
STAGES = [
    ("hard-all-2026-11-28a.jsonl", len(HARD_A) * len(ALL) * 10),
    ("hard-all-2026-11-28b.jsonl", len(HARD_B) * len(ALL) * 10),
    ("easy-2026-11-28a.jsonl", len(EASY_A) * len(ALL) * 5),
    ("easy-2026-11-28b.jsonl", len(EASY_B) * len(ALL) * 5),
    ("targets-2026-11-28a.jsonl", len(ALL) * 5),
    ("targets-2026-11-28b.jsonl", len(ALL) * 5),
]


def count(path):
    keys = set()
    if not os.path.exists(path):
        return 0
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("Err"):
            continue
        keys.add((r.get("Bug") or r.get("Target"), r["Contender"], r["Rep"]))
    return len(keys)


total_done = total_want = 0
for name, want in STAGES:
    done = count(os.path.join(HERE, name))
    total_done += min(done, want)
    total_want += want
    print(f"{name:34s} {done:4d} of {want:4d}")
growth = sorted(glob.glob(os.path.join(HERE, "growth-2026-11-28", "*.plot_data")))
print(f"{'growth-2026-11-28/':34s} {len(growth):4d} of    4 ({', '.join(os.path.basename(g) for g in growth)})")
print(f"{'all runs':34s} {total_done:4d} of {total_want:4d}")
