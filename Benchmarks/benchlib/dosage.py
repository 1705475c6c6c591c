"""The `import dosage` row (issue 22): a 3-year Dosage 2.x data folder written from Dosage's format,
imported into an empty database.
"""

import datetime
import json
import os
import shutil
import subprocess
import sys

from .common import TODAY, dosebar_env, ms, run_ok


IMPORT_BUDGET = 1.0   # seconds: `import dosage` of 3 years (issue 22)


def dosage_folder(folder):
    """A 3-year Dosage 2.x data folder ending the day before NOW, written from Dosage's format in
    TZ (no zone in its files): Aspirin daily 08:00 moved to 07:30 90 days ago; Metformin 08:00,
    13:00 and 20:00 at 1, 0.5 and 1 tablet; Vitamin D 09:00 and 21:00; Magnesium Mon/Wed/Fri 21:00;
    Yaz 21/7 whose `cycle` day is the one at a `lastUpdate` five days old; Ibuprofen when needed;
    Old Pill, deleted, a year of 09:00 doses. Every status code (1 at a few minutes off the slot,
    0, −1 and 3 at 23:59:59.999, 2 at the slot's time). Returns counts of what it wrote."""
    import random
    rnd = random.Random(22)
    tz = datetime.timezone(datetime.timedelta(hours=9))          # Asia/Seoul, no DST
    last = datetime.date.fromisoformat(TODAY) - datetime.timedelta(days=1)
    first = last - datetime.timedelta(days=3 * 365 - 1)
    updated = last - datetime.timedelta(days=4)                  # lastUpdate: five days before NOW
    change = last - datetime.timedelta(days=89)

    def stamp(day, h, m, s=0, milli=0):
        return int(datetime.datetime(day.year, day.month, day.day, h, m, s, milli * 1000, tzinfo=tz).timestamp() * 1000)

    history, counts = [], {"taken": 0, "skipped": 0, "missed": 0, "time_unknown": 0}

    def entry(name, day, hm, dose, code=None, at=None):
        if code is None:
            code = rnd.choices([1, 0, -1, 2, 3], [90, 3, 4, 2, 1])[0]
        if at is not None:
            ms_ = at
        elif code == 1:
            ms_ = stamp(day, *hm) + rnd.randint(-20, 90) * 60_000
        elif code == 0:
            ms_ = stamp(day, *hm) + rnd.randint(0, 30) * 60_000
        elif code == 2:
            ms_ = stamp(day, *hm)
        else:
            ms_ = stamp(day, 23, 59, 59, 999)
        history.append({"name": name, "unit": "tablet(s)", "time": list(hm), "dose": dose, "color": "default",
                        "taken": [ms_, code]})
        key = {1: "taken", 2: "taken", 3: "taken", 0: "skipped", -1: "missed"}[code]
        counts[key] += 1
        if code in (2, 3):
            counts["time_unknown"] += 1

    day = first
    while day <= last:
        i = (day - first).days
        entry("Aspirin", day, (8, 0) if day < change else (7, 30), 1)
        for hm, dose in (((8, 0), 1), ((13, 0), 0.5), ((20, 0), 1)):
            entry("Metformin", day, hm, dose)
        for hm in ((9, 0), (21, 0)):
            entry("Vitamin D", day, hm, 1)
        if day.isoweekday() in (1, 3, 5):
            entry("Magnesium", day, (21, 0), 2)
        cycle_day = ((day - updated).days + 2 - 1) % 28 + 1       # day 2 of 28 at lastUpdate
        if cycle_day <= 21:
            entry("Yaz", day, (22, 0), 1)
        if 365 <= i < 730:
            entry("Old Pill", day, (9, 0), 1)
        if rnd.random() < 0.15:
            entry("Ibuprofen", day, (14, 0), 1, code=1, at=stamp(day, rnd.randint(10, 20), rnd.randint(0, 59)))
        day += datetime.timedelta(days=1)
    history.sort(key=lambda e: -e["taken"][0])

    def treatment(name, frequency, dosage, **extra):
        t = {"name": name, "unit": "tablet(s)", "notes": "", "frequency": frequency, "color": "default", "icon": "pill",
             "days": [], "monthDay": 1, "cycle": [7, 7, 1], "dosage": [{"time": list(hm), "dose": d} for hm, d in dosage],
             "notification": {"increasePriority": False, "recurring": {"enabled": False, "interval": 5}},
             "inventory": {"enabled": False, "current": 0, "reminder": 0, "refill": 0},
             "duration": {"enabled": False, "start": 0, "end": 0}, "markConfirmed": False}
        t.update(extra)
        return t

    treatments = [
        treatment("Aspirin", "daily", [((7, 30), 1)]),
        treatment("Metformin", "daily", [((8, 0), 1), ((13, 0), 0.5), ((20, 0), 1)],
                  inventory={"enabled": True, "current": 60.5, "reminder": 10, "refill": 0}),
        treatment("Vitamin D", "daily", [((9, 0), 1), ((21, 0), 1)]),
        treatment("Magnesium", "specific-days", [((21, 0), 2)], days=[1, 3, 5]),
        treatment("Yaz", "cycle", [((22, 0), 1)], cycle=[21, 7, 2]),
        treatment("Ibuprofen", "when-needed", []),
    ]
    os.makedirs(folder, exist_ok=True)
    lu = datetime.datetime(updated.year, updated.month, updated.day, 9, 0, tzinfo=tz).astimezone(datetime.timezone.utc)
    with open(os.path.join(folder, "dosage-treatments.json"), "w") as f:
        json.dump({"version": 2, "lastUpdate": lu.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "treatments": treatments}, f)
    with open(os.path.join(folder, "dosage-history.json"), "w") as f:
        json.dump({"version": 2, "history": history}, f)
    counts["entries"] = len(history)
    counts["treatments"] = len(treatments) + 1
    return counts


def import_bench(hf, binary, run_dir, shm, a):
    """`import dosage` of a 3-year Dosage folder into an empty database (created by the import, as a
    first import does); the import is checked to have taken every entry before it counts."""
    work = os.path.join(run_dir, "import-dosage")
    shutil.rmtree(work, ignore_errors=True)
    folder = os.path.join(work, "dosage")
    counts = dosage_folder(folder)
    db = os.path.join(work, "dosebar.sqlite")
    env = dosebar_env(db, os.path.join(shm, "import-dosage"))
    reset = f"rm -f {db} {db}-wal {db}-shm"
    subprocess.run(reset, shell=True, check=True)
    summary = json.loads(run_ok([binary, "import", "dosage", folder, "--json"], env))
    got = {k: summary.get(k) for k in ("taken", "skipped", "missed", "time_unknown")}
    if got != {k: counts[k] for k in got} or summary.get("already_there") != 0:
        sys.exit(f"bench: import dosage did not take the folder as written: {got} for {counts}")
    hf.measure("import-dosage", f"import dosage, 3 years ({counts['entries']:,} entries)",
               f"{binary} import dosage {folder}", env=env, prepare=reset, runs=min(a.runs, 10), warmup=1)
    hf.results["import-dosage-info"] = counts
    shutil.rmtree(work)


def import_report(res, ins, checks):
    """The `import dosage` row: 3 years against its budget and the sqlite3 insert floor."""
    r, inf = res.get("import-dosage"), res.get("import-dosage-info")
    if not r:
        return []
    ok = r["mean"] <= IMPORT_BUDGET
    checks.append((f"import dosage, 3 years ≤ {IMPORT_BUDGET:.0f} s", ok, ms(r["mean"])))
    label = f"3 years, {inf['entries']:,} entries, {inf['treatments']} treatments"
    return ["Import (`import dosage` into an empty database, × the sqlite3 insert floor)",
            f"  {label:<52} {ms(r['mean']):>10} ± {ms(r['stddev'])}   ({r['mean'] / ins:.1f}× ins; "
            f"≤{IMPORT_BUDGET:.0f} s: {'ok' if ok else 'MISSED'})",
            ""]
