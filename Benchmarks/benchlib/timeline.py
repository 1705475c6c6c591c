"""timeline.json's size as export writes it, against DESIGN §4's budget (also `--sizes` alone).
"""

import json
import os
import shutil
import tempfile

from .common import HISTORY_NAMES, NOW, TZ, dosebar_env, log, run_ok, size_text, source_state
from .scenarios import fresh_copy, scenario


# DESIGN §4: timeline.json ≤ 100 KB with 50 medicines, ≤ 2 MB with 1,000.
TIMELINE_BUDGET = {50: 100_000, 1000: 2_000_000}


def timeline_size(hf, shared, n, history):
    path = os.path.join(shared, "timeline.json")
    size = os.path.getsize(path)
    hf.results[("timeline-bytes", n, history)] = size
    with open(path) as f:
        hf.results["timeline-schema"] = json.load(f).get("schema")
    log(f"  {'timeline.json, ' + str(n) + ' meds × ' + HISTORY_NAMES[history]:<52} {size_text(size):>9}")


def sizes_only(a, binary, run_dir):
    """`--sizes`: timeline.json as export writes it for 50 and 1,000 medicines × 1 month, against the budget."""
    class Sizes:
        results = {}
    shm = tempfile.mkdtemp(prefix="dosebar-bench-", dir="/dev/shm")
    try:
        for n in sorted(TIMELINE_BUDGET):
            src, _ = scenario(a.data, binary, n, "1m", False)
            db = fresh_copy(src, os.path.join(run_dir, f"{n}-1m"))
            shared = os.path.join(shm, f"{n}-1m")
            run_ok([binary, "export", "--quiet"], dosebar_env(db, shared))
            timeline_size(Sizes, shared, n, "1m")
    finally:
        shutil.rmtree(shm, ignore_errors=True)
    checks = []
    L = timeline_report(Sizes.results, ["1m"], checks)
    L += [f"  [{'ok' if ok else 'MISSED'}] {what}: {val}" for what, ok, val in checks]
    print("\n".join([f"DOSEBAR_NOW={NOW} TZ={TZ}; sources: {source_state()}"] + L))


def timeline_report(res, histories, checks):
    """The timeline.json rows (DESIGN §4, schema 3): its size as export wrote it, against the budget."""
    L = []
    counts = sorted({k[1] for k in res if isinstance(k, tuple) and k[0] == "timeline-bytes"})
    if counts:
        L.append(f"timeline.json (schema {res.get('timeline-schema', '?')}) as written by export (DESIGN §4 budget: ≤ 100 KB with 50 medicines, ≤ 2 MB with 1,000)")
        L.append(f"  {'':<24}" + "".join(f"{HISTORY_NAMES[h]:>22}" for h in histories) + "   target")
        for n in counts:
            vals = {h: res.get(("timeline-bytes", n, h)) for h in histories}
            budget = TIMELINE_BUDGET.get(n)
            verdicts = []
            for h, v in vals.items():
                if v is not None and budget:
                    ok = v <= budget
                    checks.append((f"timeline.json, {n} meds, {HISTORY_NAMES[h]} ≤ {size_text(budget)}", ok, size_text(v)))
                    verdicts.append("ok" if ok else "MISSED")
            L.append(f"  {f'{n} med' + ('s' if n > 1 else ''):<24}"
                     + "".join(f"{(size_text(v) if v is not None else '—'):>22}" for v in vals.values())
                     + (f"   ≤{size_text(budget)}: " + "/".join(verdicts) if verdicts else ""))
        L.append("")
    return L
