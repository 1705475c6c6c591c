#!/usr/bin/env python3
"""Builds a scenario database for the benchmark: N medicines × a history of dose events.

The database is created by the real binary (`dosebar add` of one medicine), so the schema,
the migrations and `PRAGMA application_id` are exactly what dosebar makes; the other
medicines and every event are then bulk-inserted with Python's sqlite3 in one transaction.

  generate.py --dosebar BIN --meds 50 --history 20y --out DIR [--jsonl] [--habitrack] [--now ISO]

Writes DIR/dosebar.sqlite, and on request DIR/doses.jsonl (one line per scheduled dose,
missed ones included: what a user's own log would hold) and DIR/habitrack/habits.json
(the same medicines and days in habitrack's format). Deterministic: same arguments, same data.

Scenario (the benchmark's "now" is NOW below, Asia/Seoul, no DST):
- every medicine daily, from --from = the first day of the history (20 years or 1 month back);
- 1-3 times a day (50/30/20 %), drawn from on-the-hour and half-hour times between 07:00 and
  22:00, weighted towards the usual ones (08:00, 12:00, 20:00 …). Real schedules look like
  this; random minutes would give the timeline thousands of entries instead of ~40;
- every slot of every past day (the same days alike in both lengths: the 1-month history is
  the last month of the 20-year one): 90 % taken (mostly within -20/+40 min, 4 % more than 2 h
  late), 5 % skipped, 5 % missed (no event); one third of the medicines track stock;
- today: every slot before 12:00 taken. The first medicine, Aspirin (08:00, 12:00), has its
  12:00 dose due at NOW: that is the one `take` logs.

--now moves "now" (the benchmark's daemon rows run on the real clock: their scenario ends on the
real today, since days without data since the last one make every export costlier): today is its
date in Asia/Seoul, and every slot before its hour is taken.
"""

import argparse
import datetime as dt
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

NOW = "2026-11-20T12:10:00+09:00"
TZ = "Asia/Seoul"
TZ_OFFSET = 9 * 3600          # Asia/Seoul has had no DST since 1988
EPOCH = dt.date(1970, 1, 1)

NAMES = ["Aspirin", "Metformin", "Vitamin D", "Magnesium", "Omega-3", "Lisinopril", "Atorvastatin",
         "Levothyroxine", "Amlodipine", "Metoprolol", "Omeprazole", "Losartan", "Zinc", "Iron",
         "Folic acid", "Vitamin B12", "Calcium", "Probiotic", "Melatonin", "Sertraline"]
DOSES = ["100 mg", "500 mg", "1000 IU", "250 mg", "1 g", "10 mg", "20 mg", "50 µg", "5 mg", "1 tablet"]
# (minute of day, weight): every hour and half hour from 07:00 to 22:00, usual ones heavier.
TIMES = [(h * 60 + m, 1) for h in range(7, 23) for m in (0, 30) if h * 60 + m <= 22 * 60]
HEAVY = {7 * 60: 4, 7 * 60 + 30: 3, 8 * 60: 10, 8 * 60 + 30: 3, 9 * 60: 6, 12 * 60: 5, 13 * 60: 4,
         18 * 60: 4, 19 * 60: 3, 20 * 60: 5, 21 * 60: 5, 22 * 60: 5}
TIMES = [(t, HEAVY.get(t, w)) for t, w in TIMES]


def day_number(d):
    return (d - EPOCH).days


def hhmm(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"


def medicines(n, rnd):
    """[(id, name, dose, minutes, stock)]: Aspirin first, as `dosebar add` creates it."""
    meds = [(1, "Aspirin", "100 mg", [8 * 60, 12 * 60], 60)]
    minutes, weights = [t for t, _ in TIMES], [w for _, w in TIMES]
    for i in range(1, n):
        base = NAMES[i % len(NAMES)]
        name = base if i < len(NAMES) else f"{base} {i // len(NAMES) + 1}"
        k = rnd.choices([1, 2, 3], weights=[5, 3, 2])[0]
        chosen = set()
        while len(chosen) < k:
            chosen.add(rnd.choices(minutes, weights=weights)[0])
        stock = rnd.randint(30, 120) if rnd.random() < 1 / 3 else None
        meds.append((i + 1, name, rnd.choice(DOSES), sorted(chosen), stock))
    return meds


def run_dosebar(binary, env, *args):
    r = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"generate.py: dosebar {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dosebar", required=True, help="the release binary")
    p.add_argument("--meds", type=int, required=True)
    p.add_argument("--history", choices=["1m", "20y"], required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--jsonl", action="store_true", help="also write doses.jsonl")
    p.add_argument("--habitrack", action="store_true", help="also write habitrack/habits.json")
    p.add_argument("--now", default=NOW, help=f"ISO-8601 instant (default {NOW})")
    a = p.parse_args()
    now = dt.datetime.fromisoformat(a.now).astimezone(dt.timezone(dt.timedelta(seconds=TZ_OFFSET)))
    today_date, cutoff = now.date(), now.hour * 60

    first = today_date.replace(year=today_date.year - 20) if a.history == "20y" else today_date - dt.timedelta(days=30)
    os.makedirs(a.out, exist_ok=True)
    db_path = os.path.join(a.out, "dosebar.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.remove(db_path + suffix)
    shared = tempfile.mkdtemp(prefix="dosebar-gen-")
    env = dict(os.environ, DOSEBAR_DB=db_path, DOSEBAR_DIR=shared, TZ=TZ, DOSEBAR_NOW=now.isoformat(), LANG="C.UTF-8")
    started = time.monotonic()

    rnd = random.Random(f"dosebar-bench-{a.meds}")
    meds = medicines(a.meds, rnd)
    _, name, dose, mins, stock = meds[0]
    run_dosebar(a.dosebar, env, "add", name, "--at", ",".join(map(hhmm, mins)), "--dose", dose,
                "--stock", str(stock), "--from", first.isoformat())

    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN IMMEDIATE")
    (template,) = db.execute("SELECT count(*) FROM schedule_version WHERE medication_id = 1").fetchone()
    assert template == 1, "dosebar add wrote an unexpected schedule"
    window, = db.execute("SELECT window_seconds FROM schedule_version WHERE medication_id = 1").fetchone()
    # `add` tracks a new medicine from now (DESIGN §3): this one has a history, tracked from its
    # first day like the others (NULL), so `take Aspirin` takes today's due dose.
    db.execute("UPDATE medication SET tracked_from = NULL WHERE id = 1")
    start = day_number(first)
    db.executemany(
        # Amounts are hundredths of a unit (schema v8-hundredths): per dose 1 is 100.
        "INSERT INTO medication (id, name, name_key, dose, stock, per_dose, low_days) VALUES (?, ?, ?, ?, ?, 100, 7)",
        [(i, n, n.lower(), d, None if s is None else s * 100) for i, n, d, _, s in meds[1:]])
    db.executemany(
        "INSERT INTO schedule_version (medication_id, effective, kind, weekday_mask, times, window_seconds, start_day)"
        " VALUES (?, ?, 'daily', 0, ?, ?, ?)",
        [(i, start, ",".join(map(hhmm, m)), window, start) for i, _, _, m, _ in meds[1:]])

    # Bulk insert without the event indexes, then recreate them from their own SQL: same schema,
    # built once instead of maintained row by row.
    indexes = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'event'"
                         " AND sql IS NOT NULL").fetchall()
    for index, _ in indexes:
        db.execute(f"DROP INDEX {index}")

    slots = sorted(((m, mid, s is not None, name) for mid, name, _, ms, s in meds for m in ms))
    jsonl = open(os.path.join(a.out, "doses.jsonl"), "w") if a.jsonl else None
    habits = {} if a.habitrack else None
    names = {mid: name for mid, name, *_ in meds}
    today = day_number(today_date)
    count = {"taken": 0, "skipped": 0, "missed": 0}

    def events():
        for day in range(start, today + 1):
            # One random stream per day: the last month of the 20-year history is the 1-month
            # history, so the two differ only in length.
            r = random.Random(f"dosebar-bench-{a.meds}-{day}").random
            iso = (EPOCH + dt.timedelta(days=day)).isoformat()
            base = day * 86400 - TZ_OFFSET
            outcome = {} if habits is not None else None
            for minute, mid, tracked, name in slots:
                if day == today:
                    if minute >= cutoff:
                        continue
                    status, offset = "taken", 3
                else:
                    x = r()
                    status = "taken" if x < 0.90 else "skipped" if x < 0.95 else "missed"
                    y = r()
                    offset = (150 + int(y * 60)) if y < 0.04 else int(y * 61) - 20
                    offset = min(minute + offset, 1439) - minute if status == "taken" else 2
                count[status] += 1
                if jsonl:
                    jsonl.write(f'{{"date":"{iso}","medicine":"{name}","time":"{hhmm(minute)}","status":"{status}"}}\n')
                if outcome is not None:
                    o = outcome.setdefault(mid, [False, True, ""])
                    if status == "taken":
                        o[0] = True
                        o[2] = o[2] or hhmm(minute + offset)
                    elif status == "missed":
                        o[1] = False
                if status == "missed":
                    continue
                at = base + (minute + offset) * 60
                yield (mid, status, day, minute, at, at + 5, 100 if tracked and status == "taken" else 0)
            if outcome is not None:
                habits[day] = outcome

    db.executemany("INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at, stock_delta)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)", events())
    for _, sql in indexes:
        db.execute(sql)
    # `dosebar add` summarised the history as all missed: drop that cache, as dosebar does when
    # history changes. The first dosebar run rebuilds it (the warm-up below).
    db.execute("DELETE FROM day_summary")
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (events_count,) = db.execute("SELECT count(*) FROM event").fetchone()
    db.close()
    if jsonl:
        jsonl.close()
    generated = time.monotonic() - started

    if habits is not None:
        write_habitrack(os.path.join(a.out, "habitrack"), meds, habits, first, today_date)

    # Warm-up: the first run over the history computes and caches one summary per past day.
    t0 = time.monotonic()
    run_dosebar(a.dosebar, env, "export", "--quiet")
    warm = time.monotonic() - t0
    size = os.path.getsize(db_path)
    with open(os.path.join(a.out, "info.json"), "w") as f:
        json.dump({"meds": a.meds, "history": a.history, "first_day": first.isoformat(), "now": now.isoformat(), "tz": TZ,
                   "slots": count, "events": events_count, "db_bytes": size,
                   "generate_seconds": round(generated, 2), "first_export_seconds": round(warm, 3)}, f)
    print(f"generated {a.meds} medicines × {a.history}: {events_count} events, {size / 1e6:.1f} MB in "
          f"{generated:.1f} s; first export (summaries for every past day) {warm:.2f} s", file=sys.stderr)


def write_habitrack(directory, meds, habits, first, today_date):
    """habitrack's habits.json: one task per medicine, one entry per task and day, done when the
    day had no missed dose and at least one taken. habitrack dates by the real clock, so the
    history is shifted to end on the real today."""
    shift = dt.date.today() - today_date
    state = {"tasks": {}, "days": {}}
    slugs = {}
    for mid, name, _, minutes, _ in meds:
        slug = "".join(c.lower() for c in name if c.isalnum())
        slugs[mid] = slug
        state["tasks"][slug] = {"name": name, "icon": "💊", "times": [hhmm(m) for m in minutes],
                                "category": "health", "active": True,
                                "created": (first + shift).isoformat()}
    for day, outcome in habits.items():
        date = (EPOCH + dt.timedelta(days=day) + shift).isoformat()
        if date == dt.date.today().isoformat():
            continue  # today starts empty: the benchmark logs it
        state["days"][date] = {slugs[mid]: {"done": taken and clean, "at": at if taken and clean else ""}
                               for mid, (taken, clean, at) in outcome.items()}
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "habits.json"), "w") as f:
        json.dump(state, f, indent=2, ensure_ascii=False)  # as habitrack's own save_habits writes it


if __name__ == "__main__":
    main()
