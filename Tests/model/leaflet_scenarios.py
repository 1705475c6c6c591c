#!/usr/bin/env python3
"""The concrete cases of issue 21, written from the leaflet rule, run against the real binary.

Each scenario is a person's few commands at given instants (DOSEBAR_NOW, TZ). What dosebar must
answer is computed by the independent model (history_model.py: DESIGN §2 take rules, §3 cut-off,
tracking start, stock in hundredths, over_limit) from what the scenario did, never read back from
dosebar's output.

    python3 Tests/model/leaflet_scenarios.py --binary .build/debug/dosebar

replay.py runs these first too (so `swift test --filter HistoryModelTests` covers them).
Prints one line per failed check and `leaflet scenarios: N checks passed, M failed`; exit 1 on a failure.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from history_model import Model, Version  # noqa: E402

UTC = timezone.utc
ZONE = "America/New_York"   # November 2026: EST, -05:00
D = date(2026, 11, 20)


class Person:
    """One fresh database, one zone; runs commands at instants and keeps the model beside it."""

    def __init__(self, binary: str, name: str, results: list):
        self.binary, self.name, self.results = binary, name, results
        self.m = Model(ZONE)
        self.root = tempfile.mkdtemp(prefix=f"dosebar-leaflet-{name}-")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.root, "LANG": "C.UTF-8",
                    "TZ": ZONE, "NO_COLOR": "1", "XDG_CONFIG_HOME": os.path.join(self.root, "config"),
                    "XDG_DATA_HOME": os.path.join(self.root, "data"),
                    "DOSEBAR_DB": os.path.join(self.root, "dosebar.sqlite"),
                    "DOSEBAR_DIR": os.path.join(self.root, "shared")}
        self.failed = False

    def at(self, hh: int, mm: int, day: date = D) -> datetime:
        return self.m.instant(day, f"{hh:02d}:{mm:02d}")

    def run(self, now: datetime, *args: str) -> subprocess.CompletedProcess:
        env = dict(self.env, DOSEBAR_NOW=self.m.iso(now))
        r = subprocess.run([self.binary, *args], env=env, capture_output=True, text=True)
        return r

    def check(self, what: str, ok: bool, got=None, want=None):
        self.results.append(ok)
        if not ok:
            self.failed = True
            print(f"FAIL leaflet/{self.name}: {what}\n    dosebar: {got}\n    model:   {want}")

    def ok(self, now: datetime, *args: str) -> subprocess.CompletedProcess:
        r = self.run(now, *args)
        self.check(f"`dosebar {' '.join(args)}` at {self.m.iso(now)} exits 0", r.returncode == 0,
                   f"exit {r.returncode}: {r.stderr.strip()}", "exit 0")
        return r

    def json(self, now: datetime, *args: str):
        r = self.ok(now, *args)
        try:
            return json.loads(r.stdout, parse_float=Decimal)
        except ValueError:
            return None

    # ----- comparisons with the model

    def doses(self, now: datetime, what: str):
        """`today --json` doses (medication, scheduled, status) = today's and carried slots of the model."""
        snap = self.json(now, "today", "--json") or {}
        got = sorted((d.get("medication"), d.get("scheduled"), d.get("status")) for d in snap.get("doses", []))
        today = self.m.local_date(now)
        want = []
        for n in self.m.names():
            for s in self.m.slots_between(n, today - timedelta(days=3), today):
                st, _ = self.m.status(s, now)
                if self.m.tracked(s, now) and (s.day == today or st in ("due", "late")):
                    want.append((n, self.m.iso(s.at), st))
        self.check(f"{what}: today --json doses at {self.m.iso(now)}", got == sorted(want), got, sorted(want))

    def history(self, now: datetime, d1: date, d2: date, what: str, names=None):
        args = ["history"] + (names or []) + ["--from", d1.isoformat(), "--to", d2.isoformat(), "--json"]
        got = self.json(now, *args)
        want = self.m.history(d1, d2, now, names)
        self.check(f"{what}: {' '.join(args)} at {self.m.iso(now)}", got == want, got, want)

    def csv(self, now: datetime, d1: date, d2: date, what: str):
        r = self.ok(now, "report", "--format", "csv", "--from", d1.isoformat(), "--to", d2.isoformat())
        got = list(csv.reader(io.StringIO(r.stdout, newline="")))
        want = self.m.report_csv_rows(d1, d2, now)
        self.check(f"{what}: report --format csv at {self.m.iso(now)}", got == want,
                   "\n             ".join(",".join(x) for x in got), "\n             ".join(",".join(x) for x in want))

    def stock(self, now: datetime, name: str, what: str):
        r = self.ok(now, "list", "--json")
        rows = json.loads(r.stdout, parse_float=Decimal) if r.returncode == 0 else []
        got = next((x.get("stock") for x in rows if x.get("name") == name), None)
        want = Decimal(self.m.meds[name].stock) / 100
        self.check(f"{what}: list --json stock of {name}", got is not None and Decimal(got) == want and
                   f'"stock":{want}' in r.stdout.replace(" ", ""), r.stdout.strip(), f"stock {want}")

    def take_as_model_says(self, now: datetime, name: str, what: str) -> subprocess.CompletedProcess:
        """`take NAME` at now; the model says which slot (or a refusal) and records it."""
        kind, s = self.m.pick_take(name, now)
        r = self.run(now, "take", name)
        if kind == "slot":
            self.check(f"{what}: `take {name}` at {self.m.iso(now)} records {s.day} {s.time}", r.returncode == 0,
                       f"exit {r.returncode}: {r.stderr.strip()}", "exit 0")
            self.m.log_take(name, now, s, now)
        elif kind == "as_needed" and self.m.over_limit(name, now):
            self.check(f"{what}: `take {name}` at {self.m.iso(now)} is refused ({self.m.over_limit(name, now)}), "
                       "naming --force", r.returncode == 65 and "--force" in r.stderr,
                       f"exit {r.returncode}: {r.stdout.strip()} {r.stderr.strip()}", "exit 65 …--force…")
        elif kind == "as_needed":
            self.check(f"{what}: `take {name}` at {self.m.iso(now)} (as needed)", r.returncode == 0,
                       f"exit {r.returncode}: {r.stderr.strip()}", "exit 0")
            self.m.log_take(name, now, None, now)
        else:
            self.check(f"{what}: `take {name}` at {self.m.iso(now)} is refused", r.returncode == 65,
                       f"exit {r.returncode}: {r.stdout.strip()} {r.stderr.strip()}", "exit 65")
        return r

    def add(self, now: datetime, name: str, args: list, version: Version, per_dose=100, stock=None, per_dose_times=None):
        self.ok(now, "add", name, *args)
        self.m.add(name, None, version, added=now, per_dose=per_dose, stock=stock, per_dose_times=per_dose_times)

    def close(self, keep: bool):
        if keep or self.failed:
            print(f"  (leaflet/{self.name}: kept {self.root})")
        else:
            shutil.rmtree(self.root, ignore_errors=True)


# --------------------------------------------------------------------------- the scenarios


def bedtime_after_midnight(p: Person):
    """Yaz at 22:00, taken at 00:30: last night's dose, taken late; tonight's stays upcoming."""
    p.add(p.at(9, 0, D - timedelta(days=2)), "Yaz", ["--at", "22:00"],
          Version(date.min, "daily", ("22:00",), start=D - timedelta(days=2)))
    p.take_as_model_says(p.at(22, 5, D - timedelta(days=1)), "Yaz", "the evening before")
    y = D  # the 22:00 dose of the 20th, not taken by midnight
    p.doses(p.at(0, 20, y + timedelta(days=1)), "00:20: last night's 22:00 is carried, late")
    p.history(p.at(0, 20, y + timedelta(days=1)), y, y, "00:20: the 20th is pending, not missed")
    now = p.at(0, 30, y + timedelta(days=1))
    kind, s = p.m.pick_take("Yaz", now)
    assert (kind, s.day, s.time) == ("slot", y, "22:00")     # the model's own reading of the leaflet rule
    r = p.take_as_model_says(now, "Yaz", "00:30")
    p.check("the confirmation names the 22:00 dose", "22:00" in r.stdout, r.stdout.strip(), "…22:00…")
    p.doses(p.at(0, 31, y + timedelta(days=1)), "00:31: tonight's 22:00 upcoming, nothing carried")
    p.history(p.at(0, 31, y + timedelta(days=1)), y - timedelta(days=1), y, "00:31: the 20th is done, taken late")
    p.csv(p.at(12, 0, y + timedelta(days=1)), y - timedelta(days=1), y + timedelta(days=1), "the report")
    # A second click at 00:40 records nothing: tonight's dose is 21 h away.
    p.take_as_model_says(p.at(0, 40, y + timedelta(days=1)), "Yaz", "00:40, a second click")


def catch_up_one_dose(p: Person):
    """Amoxicillin 08/14/20, 14:00 forgotten; `take --next` at 20:10 records one dose (stock -1)."""
    p.add(p.at(7, 0), "Amoxicillin", ["--at", "08:00,14:00,20:00", "--stock", "20"],
          Version(date.min, "daily", ("08:00", "14:00", "20:00"), start=D), stock=2000)
    p.take_as_model_says(p.at(8, 5), "Amoxicillin", "08:05")
    now = p.at(20, 10)
    picks = p.m.pick_all(now, True)
    assert [(n, s.time) for n, s in picks.items()] == [("Amoxicillin", "20:00")]
    r = p.run(now, "take", "--next")
    p.check("`take --next` at 20:10 exits 0", r.returncode == 0, f"exit {r.returncode}: {r.stderr.strip()}", "exit 0")
    for n, s in picks.items():
        p.m.log_take(n, now, s, now)
    p.stock(p.at(20, 11), "Amoxicillin", "one dose per click")
    p.doses(p.at(20, 11), "14:00 missed, 20:00 taken")
    p.csv(p.at(20, 11), D, D, "the 14:00 row: missed, late_minutes = C - T")


def back_dating_refused(p: Person):
    """Metformin 08/20, 08:00 taken at 07:50; at 12:40 `take Metformin --at 08:05` exits 65 naming 08:00."""
    p.add(p.at(6, 0), "Metformin", ["--at", "08:00,20:00"], Version(date.min, "daily", ("08:00", "20:00"), start=D))
    p.take_as_model_says(p.at(7, 50), "Metformin", "07:50")
    now, x = p.at(12, 40), p.at(8, 5)
    kind, s, e = p.m.pick_at("Metformin", x, now)
    assert kind == "refuse" and s.time == "08:00"
    r = p.run(now, "take", "Metformin", "--at", "08:05")
    p.check("`take Metformin --at 08:05` at 12:40 exits 65", r.returncode == 65,
            f"exit {r.returncode}: {r.stdout.strip()} {r.stderr.strip()}", "exit 65")
    p.check("the refusal names the 08:00 dose and its take at 07:50",
            "08:00" in r.stderr and "07:50" in r.stderr, r.stderr.strip(), "…08:00… 07:50…")
    p.doses(p.at(12, 41), "nothing recorded: 20:00 still upcoming")


def tracking_from_add(p: Person):
    """`add Yaz --cycle 21/7 --from <19 days ago>`: no misses before it was added."""
    frm = D - timedelta(days=19)
    p.add(p.at(10, 0), "Yaz", ["--at", "22:00", "--cycle", "21/7", "--from", frm.isoformat()],
          Version(date.min, "cycle", ("22:00",), active=21, rest=7, start=frm))
    now = p.at(10, 5)
    p.history(now, frm, D, "no day before the add is missed")
    got = p.json(now, "stats", "--days", "30", "--json") or {}
    want = p.m.stats(30, now)["overall"]
    p.check("stats: no adherence figure, no miss", (got.get("overall") or {}).get("adherence") == want["adherence"]
            and (got.get("overall") or {}).get("missed") == want["missed"], got.get("overall"), want)
    p.csv(now, frm, D, "no report row before the add")
    # A back-dated take of an untracked slot makes it a normal one.
    x = p.at(22, 30, D - timedelta(days=1))
    kind, s, _ = p.m.pick_at("Yaz", x, now)
    p.ok(now, "take", "Yaz", "--at", p.m.local(x).strftime("%Y-%m-%dT%H:%M"))
    p.m.log_take("Yaz", x, s, now)
    p.history(p.at(10, 6), frm, D, "the back-dated day counts")
    # Day 20 of 21 at 23:00: tonight's dose is due; the back-dated 19th is not carried.
    p.doses(p.at(23, 0), "tonight")


def half_tablets(p: Person):
    """`--per-dose 0.5 --stock 10`: a take leaves 9.5, refill 2.25 makes 11.75, exact."""
    p.add(p.at(9, 0), "Warfarin", ["--at", "18:00", "--per-dose", "0.5", "--stock", "10"],
          Version(date.min, "daily", ("18:00",), start=D), per_dose=50, stock=1000)
    r = p.take_as_model_says(p.at(18, 10), "Warfarin", "18:10")
    p.check("the confirmation says 9.5 left", "9.5" in r.stdout, r.stdout.strip(), "…9.5…")
    p.stock(p.at(18, 11), "Warfarin", "half a tablet")
    p.ok(p.at(18, 12), "refill", "Warfarin", "2.25")
    p.m.refill("Warfarin", 225)
    p.stock(p.at(18, 13), "Warfarin", "refill 2.25")


def amount_per_time(p: Person):
    """`--at 22:30,20:00 --per-dose 1,0.5 --stock 10`: amounts pair with the times as typed; the
    20:00 take uses 0.5, the 22:30 take 1; days left = stock ÷ the day's sum (1.5)."""
    p.add(p.at(9, 0), "Melatonin", ["--at", "22:30,20:00", "--per-dose", "1,0.5", "--stock", "10"],
          Version(date.min, "daily", ("20:00", "22:30"), start=D), per_dose=50, stock=1000,
          per_dose_times={"20:00": 50, "22:30": 100})
    p.take_as_model_says(p.at(20, 5), "Melatonin", "20:05")
    p.stock(p.at(20, 6), "Melatonin", "the 20:00 dose")
    p.take_as_model_says(p.at(22, 35), "Melatonin", "22:35")
    p.stock(p.at(22, 36), "Melatonin", "the 22:30 dose")
    snap = p.json(p.at(22, 37), "today", "--json") or {}
    got = next((s.get("days_left") for s in snap.get("stock", []) if s.get("medication") == "Melatonin"), None)
    want = p.m.meds["Melatonin"].stock // p.m.per_day("Melatonin")
    p.check("days_left from the day's sum", got == want, got, want)
    p.ok(p.at(22, 38), "undo", "Melatonin")
    p.m.undo("Melatonin")
    p.stock(p.at(22, 39), "Melatonin", "undo gives back the 22:30 dose's 1")


def forced_over_limit(p: Person):
    """A third dose over --max-per-day 2: refused (65, naming --force); with --force recorded,
    over_limit true in the report."""
    p.add(p.at(8, 0), "Ibuprofen", ["--as-needed", "--max-per-day", "2"],
          Version(date.min, "as_needed", start=D, max_per_day=2))
    p.take_as_model_says(p.at(9, 0), "Ibuprofen", "first")
    p.take_as_model_says(p.at(14, 0), "Ibuprofen", "second")
    assert p.m.over_limit("Ibuprofen", p.at(20, 0)) == "max_per_day"
    p.take_as_model_says(p.at(20, 0), "Ibuprofen", "third")
    now = p.at(20, 1)
    p.ok(now, "take", "Ibuprofen", "--force")
    p.m.log_take("Ibuprofen", now, None, now, over_limit=True)
    p.csv(p.at(20, 2), D, D, "the forced dose is in the report, over_limit true")


def forced_within_interval(p: Person):
    """--min-interval 4h: a dose 2 h after the last is refused (65, naming --force); forced, it is
    recorded and marked; the next one 4 h after the forced one is allowed again."""
    p.add(p.at(8, 0), "Paracetamol", ["--as-needed", "--min-interval", "4h"],
          Version(date.min, "as_needed", start=D, min_interval=240))
    p.take_as_model_says(p.at(10, 0), "Paracetamol", "first")
    assert p.m.over_limit("Paracetamol", p.at(12, 0)) == "min_interval"
    p.take_as_model_says(p.at(12, 0), "Paracetamol", "2 h later")
    p.ok(p.at(12, 1), "take", "Paracetamol", "--force")
    p.m.log_take("Paracetamol", p.at(12, 1), None, p.at(12, 1), over_limit=True)
    p.take_as_model_says(p.at(16, 30), "Paracetamol", "4 h 29 min after the forced one")
    p.csv(p.at(20, 2), D, D, "the forced dose is in the report, over_limit true")


SCENARIOS = [bedtime_after_midnight, catch_up_one_dose, back_dating_refused, tracking_from_add, half_tablets, amount_per_time,
             forced_over_limit, forced_within_interval]


def run_all(binary: str, keep: bool = False) -> tuple[int, int]:
    results: list = []
    for sc in SCENARIOS:
        p = Person(binary, sc.__name__, results)
        sc(p)
        p.close(keep)
    passed = sum(1 for x in results if x)
    return passed, len(results) - passed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=None)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    binary = os.path.abspath(a.binary or os.path.join(here, "..", "..", ".build", "debug", "dosebar"))
    passed, failed = run_all(binary, a.keep)
    print(f"leaflet scenarios: {passed} checks passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
