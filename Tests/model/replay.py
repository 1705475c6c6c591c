#!/usr/bin/env python3
"""Replays random histories through the real `dosebar` binary and compares, day by day, what
`history --json`, `stats --json` and `report --format csv|json` say with an independent model of
DESIGN §3 (Tests/model/history_model.py).

Every action (add, edit, remove, take, skip, undo, as-needed doses) is recorded in the model by
this driver itself, from what it asked for and the rules of DESIGN §2/§3; the database and the
binary's output are never read into the model. The clock is DOSEBAR_NOW, the zone TZ.

    python3 Tests/model/replay.py --binary .build/debug/dosebar          # full: 6 runs, ~45 days
    python3 Tests/model/replay.py --binary .build/debug/dosebar --quick  # 2 short runs (DST days)
    options: --seed N (base seed), --only NAME (a run), --keep (keep temp dirs), -v (log commands,
             and why actions were left out), -j N (parallel runs, default 3, 2 with --quick),
             --no-leaflet (skip the issue-21 scenarios of leaflet_scenarios.py, run first otherwise)

The commands are a person's (issue 21): `take NAME` at the moment (bedtime doses after midnight,
catch-ups just before and after a slot's cut-off), `take`/`take --next` clicks, `--slot [DATE ]HH:MM`,
`--at` back-dating (refused with 65 when the slot it picks is already resolved), medicines added
in the middle with a past `--from` (daily and a 21/7 cycle), half tablets with a fractional stock
and refills of 2.25, an as-needed dose forced over its limit. The model decides, by DESIGN §2,
what each command records or that it is refused (exit 65, checked too). A few commands whose
outcome DESIGN leaves open are left out ("dropped", counted; -v says why).

Prints the first mismatch of each check (the day or row and both values), then
`N checks passed, M failed`; exits 1 on any failure. A failed run keeps its temporary directory,
with `commands.sh`, a shell script that replays the same commands.
"""

from __future__ import annotations

import argparse
import csv
import heapq
import io
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from history_model import Model, Version, Slot, selftest  # noqa: E402
import leaflet_scenarios  # noqa: E402

UTC = timezone.utc


@dataclass
class RunSpec:
    name: str
    zone: str
    start: date
    length: int      # days, the first is `start`, the last is "today" at the end
    flights: tuple = ()  # (day index, zone): the laptop's clock moves to `zone` that day (issue 43)


FULL = [
    RunSpec("new-york-fall", "America/New_York", date(2026, 10, 5), 45),     # 2026-11-01 falls back
    RunSpec("new-york-spring", "America/New_York", date(2026, 2, 12), 45),   # 2026-03-08 springs forward
    RunSpec("london-fall", "Europe/London", date(2026, 10, 1), 40),          # 2026-10-25 falls back
    RunSpec("london-spring", "Europe/London", date(2026, 3, 15), 21),        # 2026-03-29 springs forward
    RunSpec("seoul", "Asia/Seoul", date(2026, 10, 20), 30),
    RunSpec("utc", "UTC", date(2026, 10, 20), 30),
    # Travel (issue 43): west and east, half-hour and 45-minute zones, a DST day on either side.
    RunSpec("seoul-new-york-back", "Asia/Seoul", date(2026, 10, 20), 24, ((8, "America/New_York"), (16, "Asia/Seoul"))),
    RunSpec("new-york-kathmandu-st-johns", "America/New_York", date(2026, 10, 24), 20,
            ((4, "Asia/Kathmandu"), (9, "America/St_Johns"), (14, "Europe/London"))),
]
QUICK = [
    RunSpec("new-york-fall", "America/New_York", date(2026, 10, 22), 16),
    RunSpec("new-york-spring", "America/New_York", date(2026, 2, 27), 14),
    RunSpec("seoul-new-york-back", "Asia/Seoul", date(2026, 10, 26), 12, ((4, "America/New_York"), (8, "Asia/Kolkata"))),
]


def hm(minutes: int) -> timedelta:
    return timedelta(minutes=minutes)


class Replay:
    def __init__(self, spec: RunSpec, seed: int, binary: str, verbose: bool, keep: bool):
        self.spec, self.seed, self.binary, self.verbose, self.keep = spec, seed, binary, verbose, keep
        self.rng = random.Random(seed)
        self.m = Model(spec.zone)
        self.root = tempfile.mkdtemp(prefix=f"dosebar-replay-{spec.name}-")
        self.db = os.path.join(self.root, "data", "dosebar.sqlite")
        # An explicit database path's directory must exist (only the default location's are created).
        os.makedirs(os.path.dirname(self.db), mode=0o700, exist_ok=True)
        self.dir = os.path.join(self.root, "shared")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.root, "LANG": "C.UTF-8",
                    "TZ": spec.zone, "XDG_CONFIG_HOME": os.path.join(self.root, "config"),
                    "XDG_DATA_HOME": os.path.join(self.root, "xdg-data"),
                    "XDG_STATE_HOME": os.path.join(self.root, "xdg-state"), "NO_COLOR": "1"}
        self.out: list[str] = []
        self.passed = 0
        self.failed = 0
        self.calls = 0
        self.actions = {"take": 0, "skip": 0, "undo": 0, "as_needed": 0, "over_limit": 0, "click": 0, "slot": 0,
                        "backdate": 0, "refill": 0, "refused": 0, "dropped": 0}
        self.script = [f"export TZ={shlex.quote(spec.zone)} LANG=C.UTF-8 HOME={shlex.quote(self.root)}",
                       f"B={shlex.quote(binary)}"]
        self.dropped: dict[str, int] = {}
        self.heap: list = []
        self.counter = 0
        self.last_event = None     # (event) created by the previous action, for an undo right after
        self.final_now: datetime | None = None

    # ------------------------------------------------------------------ plumbing

    def say(self, line: str):
        self.out.append(line)

    def cli(self, args: list[str], now: datetime) -> subprocess.CompletedProcess:
        nowiso = self.m.iso(now)
        env = dict(self.env, DOSEBAR_NOW=nowiso)
        full = [self.binary] + args + ["--db", self.db, "--dir", self.dir]
        self.script.append(f"DOSEBAR_NOW={nowiso} $B " + " ".join(shlex.quote(a) for a in args)
                           + f" --db {shlex.quote(self.db)} --dir {shlex.quote(self.dir)}")
        r = subprocess.run(full, env=env, capture_output=True)   # bytes: text mode would turn CRLF into LF
        r.stdout, r.stderr = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        self.calls += 1
        if self.verbose:
            self.say(f"  [{nowiso}] dosebar {' '.join(args)} -> {r.returncode} {r.stderr.strip()[:120]}")
        return r

    def expect_ok(self, what: str, args: list[str], now: datetime) -> bool:
        r = self.cli(args, now)
        if r.returncode != 0:
            self.fail(f"action `dosebar {' '.join(args)}` at {self.m.iso(now)}",
                      f"exit {r.returncode}: {r.stderr.strip()}", "exit 0 (the model accepted it)")
            return False
        return True

    def drop(self, why: str):
        """An action left out because DESIGN does not decide it (or it no longer applies)."""
        self.actions["dropped"] += 1
        self.dropped[why] = self.dropped.get(why, 0) + 1

    def fail(self, check: str, got, want):
        self.failed += 1
        self.say(f"MISMATCH {self.spec.name} {check}\n    dosebar: {got}\n    model:   {want}")

    def push(self, at: datetime, kind: str, payload=None):
        self.counter += 1
        heapq.heappush(self.heap, (at, self.counter, kind, payload))

    def local_at(self, d: date, t: str) -> datetime:
        return self.m.instant(d, t)

    def wall(self, x: datetime) -> str:
        return self.m.local(x).strftime("%Y-%m-%dT%H:%M")

    def at_arg(self, x: datetime) -> str:
        """`--at` as a wall time; after a flight as an instant with its offset (a wall time may have
        come twice, in each zone: dosebar then asks, DESIGN §3 Where the person is)."""
        return self.m.iso(x) if self.m.changes else self.wall(x)

    def wall_ok(self, x: datetime) -> bool:
        return self.m.wall_kind(self.m.local(x).replace(tzinfo=None)) == "ok"

    # ------------------------------------------------------------------ the scenario

    def medicines(self):
        """(name, args, dose, Version, per_dose, stock) of the medicines added at the start."""
        S, L = self.spec.start, self.spec.length
        V = Version
        meds = [
            ("Aspirin", ["--at", "08:00,20:00"], "100 mg", V(date.min, "daily", ("08:00", "20:00"), start=S), 100, None),
            ("Metformin", ["--at", "01:30,13:30", "--window", "90m"], "500 mg, with food",
             V(date.min, "daily", ("01:30", "13:30"), start=S, window=90), 100, None),
            ("Nightly", ["--at", "02:30,23:30"], None, V(date.min, "daily", ("02:30", "23:30"), start=S), 100, None),
            ("Magnesium", ["--at", "21:00", "--days", "mon,wed,fri"], '1 "big" tablet',
             V(date.min, "days", ("21:00",), frozenset({0, 2, 4}), start=S), 100, None),
            # From the day before it is added: that day's 09:00 is untracked (tracking starts at `add`).
            ("Vitamin D", ["--at", "09:00", "--every", "3d", "--from", (S - timedelta(days=1)).isoformat()], "1000 IU",
             V(date.min, "every_d", ("09:00",), n=3, start=S - timedelta(days=1)), 100, None),
            ("Omega", ["--at", "12:00", "--every", "1w"], "1 capsule", V(date.min, "every_w", ("12:00",), n=1, start=S),
             100, None),
            # A 5/2 cycle from 4 days before it is added: S-4..S-1 and S's 00:00 are untracked (none in
            # history, no misses); S+1 and S+2 rest.
            ("Cyclo", ["--at", "00:00", "--cycle", "5/2", "--from", (S - timedelta(days=4)).isoformat()], None,
             V(date.min, "cycle", ("00:00",), active=5, rest=2, start=S - timedelta(days=4)), 100, None),
            ("Ibuprofen", ["--as-needed", "--max-per-day", "3"], "400 mg",
             V(date.min, "as_needed", start=S, max_per_day=3), 100, None),
            # lowercase: lists are sorted by lowercased name, so it comes between Aspirin and Ibuprofen
            ("course", ["--at", "18:00", "--until", (S + timedelta(days=L // 3)).isoformat()], None,
             V(date.min, "daily", ("18:00",), start=S, until=S + timedelta(days=L // 3)), 100, None),
            # Half tablets at bedtime, with a fractional stock (refilled by 2.25 when low).
            ("Warfarin", ["--at", "22:30", "--per-dose", "0.5", "--stock", "10.5"], "half of 5 mg",
             V(date.min, "daily", ("22:30",), start=S), 50, 1050),
        ]
        return meds

    def setup(self):
        S, L, r = self.spec.start, self.spec.length, self.rng
        add_at = self.local_at(S, f"{r.randint(5, 8):02d}:{r.randint(0, 59):02d}") + timedelta(seconds=17)
        self.push(add_at, "add_all")
        for i in range(L):
            self.push(self.local_at(S + timedelta(days=i), "00:06"), "plan", S + timedelta(days=i))
        # Medicines added in the middle of the period; two with a past --from (issue 21: no misses
        # before they were added; a back-dated dose of an untracked slot makes it a normal one).
        d_add = S + timedelta(days=max(1, L // 5))
        self.push(self.local_at(d_add, "12:00"), "add",
                  ("비타민C", ["--at", "07:00"], "500 mg", Version(date.min, "daily", ("07:00",), start=d_add), 100, None))
        d = S + timedelta(days=max(2, L // 4))
        self.push(self.local_at(d, f"15:{r.randint(0, 59):02d}") + timedelta(seconds=5), "add",
                  ("Amoxicillin", ["--at", "08:00,14:00,20:00", "--from", (d - timedelta(days=6)).isoformat(),
                                   "--stock", "30"], "500 mg",
                   Version(date.min, "daily", ("08:00", "14:00", "20:00"), start=d - timedelta(days=6)), 100, 3000))
        self.push(self.local_at(d, "16:20"), "cmd", {"kind": "skip", "name": "Amoxicillin", "slot": (None, "08:00")})
        d = S + timedelta(days=max(3, L // 3))
        self.push(self.local_at(d, f"16:{r.randint(0, 59):02d}") + timedelta(seconds=9), "add",
                  ("Yaz", ["--at", "22:00", "--cycle", "21/7", "--from", (d - timedelta(days=19)).isoformat()], None,
                   Version(date.min, "cycle", ("22:00",), active=21, rest=7, start=d - timedelta(days=19)), 100, None))
        y = d - timedelta(days=1)
        self.push(self.local_at(d, "17:30"), "cmd",
                  {"kind": "take", "name": "Yaz", "at": self.local_at(y, "22:40"), "no_undo": True})
        d = S + timedelta(days=int(L * 0.3))
        self.push(self.local_at(d, "10:15"), "edit",
                  ("Aspirin", ["--at", "09:00,21:00"], d + timedelta(days=2), {"times": ("09:00", "21:00")}))
        d = S + timedelta(days=int(L * 0.45))
        self.push(self.local_at(d, "19:40"), "edit",
                  ("Magnesium", ["--days", "tue,thu,sat"], d + timedelta(days=1),
                   {"kind": "days", "weekdays": frozenset({1, 3, 5})}))
        d = S + timedelta(days=int(L * 0.55))
        self.push(self.local_at(d, "00:05"), "edit",
                  ("Metformin", ["--at", "01:30,13:30,19:00"], d, {"times": ("01:30", "13:30", "19:00")}))
        d = S + timedelta(days=int(L * 0.6))
        self.push(self.local_at(d, "00:03"), "remove", "Omega")
        d = S + timedelta(days=int(L * 0.8))
        self.push(self.local_at(d, "00:03"), "remove", "Ibuprofen")
        for i in range(2, L, 3):
            self.push(self.local_at(S + timedelta(days=i), "12:40"), "refill", "Warfarin")
        # Flights: the laptop's clock moves, the person says so with `zone here` (DESIGN §3).
        for day, zone in self.spec.flights:
            self.push(self.local_at(S + timedelta(days=day), f"{r.randint(9, 11):02d}:{r.randint(0, 59):02d}") + timedelta(seconds=3),
                      "fly", zone)
        # Checkpoints: two in the middle, then the end ("now" of the last day, in the afternoon).
        last = S + timedelta(days=L - 1)
        self.final_now = self.local_at(last, f"{r.randint(13, 17):02d}:{r.randint(0, 59):02d}")
        self.push(self.local_at(S + timedelta(days=L // 3), f"23:{r.randint(40, 59):02d}"), "check", "mid-1")
        self.push(self.local_at(S + timedelta(days=(2 * L) // 3), f"{r.randint(0, 1):02d}:{r.randint(10, 59):02d}"),
                  "check", "mid-2 (after midnight)")
        self.push(self.final_now, "check", "final")
        # One refused future --at and one refused 4th as-needed dose, then forced.
        d = S + timedelta(days=r.randint(2, L - 2))
        self.push(self.local_at(d, "09:10"), "future", None)
        d = S + timedelta(days=r.randint(1, int(L * 0.8) - 1))      # Ibuprofen is removed at 0.8 L
        self.push(self.local_at(d, "23:50"), "fourth", "Ibuprofen")

    # ----- planning a day of one medicine: commands at instants; the model decides what each records

    def plan_med(self, name: str, d: date, not_before: datetime):
        r, m = self.rng, self.m
        if m.as_needed_on(name, d):
            for _ in range(r.choice([0, 0, 0, 1, 1, 2, 3])):
                x = self.local_at(d, f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}")
                if x < not_before or not self.wall_ok(x) or m.local_date(x) != d:
                    continue
                with_at = r.random() < 0.5
                self.push(x + hm(r.randint(0, 30)) if with_at else x, "as_needed", (name, x if with_at else None))
            return
        for s in m.slots(name, d):
            W, T = s.window, s.at
            C = m.cutoff(s)
            b = r.choices(["take", "late", "early", "click", "skip", "backdate", "slot_backdate", "catchup",
                           "after_close", "skip_after_close", "missed"],
                          [34, 12, 6, 9, 6, 8, 4, 4, 3, 3, 11])[0]
            if s.time >= "22:00" and r.random() < 0.4:
                b = "after_midnight"            # a bedtime dose taken after midnight (issue 21)
            later = lambda x: max(x, not_before + hm(r.randint(0, 10)))
            if b == "missed":
                continue
            if b == "take":
                off = r.choice([-W, W, 0]) if r.random() < 0.2 else r.randint(-W, W)
                self.push(later(T + hm(off)), "cmd", {"kind": "take", "name": name})
            elif b == "late":
                self.push(later(T + hm(W + r.randint(1, 360))), "cmd", {"kind": "take", "name": name})
            elif b == "after_midnight":
                x = self.m.start_of_day(d + timedelta(days=1)) + hm(r.randint(1, 150))
                self.push(x, "cmd", {"kind": r.choice(["take", "take", "skip"]), "name": name})
            elif b == "catchup":
                # The forgotten dose taken just before it closes; its next one keeps its own plan.
                self.push(later(C - hm(r.randint(1, 40))), "cmd", {"kind": "take", "name": name})
            elif b == "after_close":
                # Just after the cut-off: `take NAME` is the next dose (or refused), never this one.
                self.push(later(C + hm(r.randint(0, 30))), "cmd", {"kind": "take", "name": name})
            elif b == "skip_after_close":
                # `skip --slot` of a dose that closed as missed (issue 42): a skip, marked decided_after_close.
                self.push(later(C + hm(r.randint(1, 600))), "cmd", {"kind": "skip", "name": name, "slot": (d, s.time)})
            elif b == "early":
                x = later(T - hm(W + r.randint(1, 240)))
                dated = m.local_date(x) != d or r.random() < 0.3
                self.push(x, "cmd", {"kind": "take", "name": name, "slot": (d if dated else None, s.time)})
            elif b == "click":
                x = later(T + hm(r.randint(-W, W + 60)))
                self.push(x, "cmd", {"kind": "take", "name": None, "next": r.random() < 0.7})
            elif b == "skip":
                self.push(later(T + hm(r.randint(-20, 20))), "cmd", {"kind": "skip", "name": name})
            elif b in ("backdate", "slot_backdate"):
                x = T + hm(r.randint(-W, W + 180))
                if not self.wall_ok(x):
                    continue
                log = max(x + hm(r.randint(1, 30)), self.local_at(d + timedelta(days=1), f"{r.randint(7, 11):02d}:{r.randint(0, 59):02d}")) \
                    if r.random() < 0.6 else x + hm(r.randint(1, 90))
                cmd = {"kind": r.choice(["take", "take", "skip"]), "name": name, "at": x}
                if b == "slot_backdate":
                    cmd["slot"] = (d, s.time)
                self.push(later(log), "cmd", cmd)

    # ----- executing

    def do_cmd(self, now: datetime, c: dict):
        """Runs one take/skip command; the model says what it records or that it is refused (65)."""
        m, kind, name = self.m, c["kind"], c.get("name")
        x, slot_arg, nxt = c.get("at"), c.get("slot"), c.get("next", False)
        args = [kind] + ([name] if name else [])
        if name is None:
            picks = m.pick_all(now, nxt)
            if nxt:
                args.append("--next")
            record = [(n, s, now) for n, s in picks.items()]
            label = "take --next" if nxt else "take"
            self.actions["click"] += 1
        elif slot_arg is not None:
            day, t = slot_arg
            day_of = day if day is not None else m.local_date(x if x is not None else now)
            s = m.find_slot(name, day_of, t)
            if s is None or m.final_event(s, now) is not None or (x is not None and not self.wall_ok(x)):
                self.drop("--slot resolved/absent")     # naming a resolved or absent slot: not written down
                return
            args += ["--slot", f"{day.isoformat()} {t}" if day is not None else t]
            if x is not None:
                args += ["--at", self.at_arg(x)]
            record = [(name, s, x if x is not None else now)]
            label = "--slot"
            # A dose of a day after the day of --at (else of now) is refused, 65 (DESIGN §2: a named
            # date to come is a typo more often than a plan).
            if day is not None and day > m.local_date(x if x is not None else now):
                record = []
                label = "--slot of a day to come"
            self.actions["slot"] += 1
        elif x is not None:
            if not self.wall_ok(x):
                self.drop("--at in a DST hour")
                return
            k, s, e = m.pick_at(name, x, now)
            k2, s2 = m.pick_at_other(name, x, now)
            if (k == "slot" and (k2, s2) != ("slot", s)) or (k == "refuse" and k2 != "refuse") or k == "as_needed":
                self.drop("--at readings differ")     # the two readings of --at differ here (see pick_at)
                return
            args += ["--at", self.at_arg(x)]
            record = [(name, s, x)] if k == "slot" else []
            label = f"--at {self.wall(x)}" + (f" (the {s.day} {s.time} dose was {'taken' if e.kind == 'take' else 'skipped'} at {self.wall(e.at)})" if e else "")
            self.actions["backdate"] += 1
        else:
            k, s = m.pick_take(name, now) if kind == "take" else m.pick_skip(name, now)
            if k == "as_needed":
                self.drop("as-needed")
                return
            record = [(name, s, now)] if k == "slot" else []
            # A refusal's `s` says why: nothing open, and the next dose opens later than T - W.
            label = f"{kind} NAME" + (f": {s}" if k == "refuse" else "")
        r = self.cli(args, now)
        if not record:
            self.actions["refused"] += 1
            if r.returncode != 65:
                self.fail(f"`dosebar {' '.join(args)}` at {m.iso(now)} ({label}: nothing to record)",
                          f"exit {r.returncode} {(r.stderr.strip() or r.stdout.strip())[:300]}", "exit 65")
                if r.returncode == 0:
                    self.cli(["undo"] + ([name] if name else []), now)
            return
        if r.returncode != 0:
            want = ", ".join(f"{n} {s.day} {s.time}" for n, s, _ in record)
            self.fail(f"`dosebar {' '.join(args)}` at {m.iso(now)} ({label})",
                      f"exit {r.returncode}: {r.stderr.strip()[:300]}", f"exit 0, recording {want}")
            return
        evs = []
        for n, s, when in record:
            evs.append(m.log_take(n, when, s, now) if kind == "take" else m.log_skip(n, when, s, now))
        self.actions[kind] += len(evs)
        self.last_event = evs[0] if len(evs) == 1 else None
        if len(evs) == 1 and not c.get("no_undo") and self.rng.random() < 0.06:
            self.push(now + hm(self.rng.randint(0, 3)), "undo", evs[0])

    def do_undo(self, now: datetime, e):
        m = self.m
        if m.undo_target(e.med) is not e or self.last_event is not e:
            self.drop("undo")
            return
        # Unambiguous whichever "most recent" the binary means (logged, taken at): this event is
        # the latest of its medicine both ways.
        others = [o for o in m.events if o.med == e.med and not o.undone and o is not e]
        if any(max(o.at, o.logged) >= e.at for o in others):
            self.drop("undo")
            return
        # Undoing the event that made an untracked slot tracked: whether it is untracked again is
        # not written down.
        added = m.meds[e.med].added
        if e.slot is not None and added is not None and m.instant(e.slot[1], e.slot[2]) < added:
            self.drop("undo")
            return
        if self.expect_ok("undo", ["undo", e.med], now):
            m.undo(e.med)
            self.actions["undo"] += 1
            self.last_event = None

    def do_refill(self, now: datetime, name: str):
        med = self.m.meds.get(name)
        if med is None or med.stock is None or med.stock >= 900:
            return
        if self.expect_ok("refill", ["refill", name, "2.25"], now):
            self.m.refill(name, 225)
            self.actions["refill"] += 1

    def do_as_needed(self, now: datetime, payload):
        name, x = payload
        m = self.m
        at = x if x is not None else now
        if not m.as_needed_on(name, m.local_date(at)):
            self.drop("as-needed")
            return
        if m.as_needed_count(name, m.local_date(at), now) >= m.max_per_day(name, m.local_date(at)):
            self.drop("as-needed")
            return
        args = ["take", name] + (["--at", self.at_arg(x)] if x is not None else [])
        if self.expect_ok("take", args, now):
            e = m.log_take(name, at, None, now)
            self.actions["as_needed"] += 1
            self.last_event = e
            if self.rng.random() < 0.1:
                self.push(now + hm(1), "undo", e)

    def do_fourth(self, now: datetime, name: str):
        m, d = self.m, self.m.local_date(now)
        if not m.as_needed_on(name, d):
            return
        while m.as_needed_count(name, d, now) < 3:
            x = now - hm(self.rng.randint(1, 600))
            if m.local_date(x) != d or not self.wall_ok(x):
                return
            if not self.expect_ok("take", ["take", name, "--at", self.at_arg(x)], now):
                return
            m.log_take(name, x, None, now)
            self.actions["as_needed"] += 1
        r = self.cli(["take", name], now)
        self.actions["refused"] += 1
        if r.returncode == 0:
            self.fail(f"`dosebar take {name}` at {m.iso(now)}: a 4th dose with --max-per-day 3",
                      "exit 0 (accepted)", "refused")
            self.cli(["undo", name], now)
        elif r.returncode != 65 or "limit 3 a day" not in r.stderr or "--force" not in r.stderr:
            self.fail(f"`dosebar take {name}` at {m.iso(now)}: a 4th dose with --max-per-day 3",
                      f"exit {r.returncode}: {r.stderr.strip()}", "exit 65 naming the limit and --force")
        elif self.expect_ok("take", ["take", name, "--force"], now):
            # A tracker records what happened: the forced dose is kept, marked over_limit.
            m.log_take(name, now, None, now, over_limit=True)
            self.actions["over_limit"] += 1
        self.last_event = None

    def do_future(self, now: datetime):
        m = self.m
        names = [n for n in m.names() if m.slots(n, m.local_date(now))]
        if not names:
            return
        x = now + hm(120)
        if m.local_date(x) != m.local_date(now) or not self.wall_ok(x):
            return
        name = names[0]
        r = self.cli(["take", name, "--at", self.at_arg(x)], now)
        self.actions["refused"] += 1
        if r.returncode == 0:
            self.fail(f"`dosebar take {name} --at {self.wall(x)}` at {m.iso(now)} (2 h in the future)",
                      "exit 0 (accepted)", "refused (DESIGN §2: --at in the future is refused)")
            self.cli(["undo", name], now)
        self.last_event = None

    def run(self):
        t0 = time.monotonic()
        self.setup()
        meds = {n: rest for n, *rest in self.medicines()}
        while self.heap:
            now, _, kind, payload = heapq.heappop(self.heap)
            if now > self.final_now:
                break
            if kind == "add_all":
                for n, (args, dose, v, per, stock) in meds.items():
                    a = ["add", n] + args + (["--dose", dose] if dose is not None else [])
                    if self.expect_ok("add", a, now):
                        self.m.add(n, dose, v, added=now, per_dose=per, stock=stock)
                        self.plan_med(n, self.m.local_date(now), now)
            elif kind == "add":
                n, args, dose, v, per, stock = payload
                if self.expect_ok("add", ["add", n] + args + ["--dose", dose] if dose else ["add", n] + args, now):
                    self.m.add(n, dose, v, added=now, per_dose=per, stock=stock)
                    self.plan_med(n, self.m.local_date(now), now)
            elif kind == "plan":
                for n in self.m.names():
                    self.plan_med(n, payload, now)
            elif kind == "edit":
                n, args, eff, changes = payload
                today = self.m.local_date(now)
                if eff == today and any(e.med == n and e.slot and e.slot[1] == today for e in self.m.events):
                    eff = today + timedelta(days=1)
                if self.expect_ok("edit", ["edit", n] + args + ["--effective", eff.isoformat()], now):
                    self.m.edit(n, eff, **changes)
            elif kind == "remove":
                if self.m.open_slots(payload, now):
                    # Whether an archived medicine's open slot of yesterday stays open is not written
                    # down: archive it when nothing of it is open.
                    self.push(now + timedelta(days=1), "remove", payload)
                elif self.expect_ok("remove", ["remove", payload], now):
                    self.m.remove(payload, self.m.local_date(now))
            elif kind == "cmd":
                self.do_cmd(now, payload)
            elif kind == "refill":
                self.do_refill(now, payload)
            elif kind == "undo":
                self.do_undo(now, payload)
            elif kind == "as_needed":
                self.do_as_needed(now, payload)
            elif kind == "fourth":
                self.do_fourth(now, payload)
            elif kind == "future":
                self.do_future(now)
            elif kind == "fly":
                self.env["TZ"] = payload
                self.script.append(f"export TZ={shlex.quote(payload)}")
                if self.expect_ok("zone", ["zone", "here"], now):
                    self.m.change_zone(now, payload)
            elif kind == "check":
                self.checks(now, payload)
        self.elapsed = time.monotonic() - t0
        ok = self.failed == 0
        with open(os.path.join(self.root, "commands.sh"), "w") as f:
            f.write("\n".join(self.script) + "\n")
        if ok and not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)
        else:
            self.say(f"  (kept {self.root}; commands.sh replays it)")
        return self

    # ------------------------------------------------------------------ checks

    def json_of(self, args: list[str], now: datetime, check: str):
        r = self.cli(args, now)
        if r.returncode != 0:
            self.fail(check, f"exit {r.returncode}: {r.stderr.strip()}", "exit 0")
            return None
        try:
            return json.loads(r.stdout)
        except ValueError as e:
            self.fail(check, f"not JSON ({e}): {r.stdout[:200]!r}", "JSON")
            return None

    def verdict(self, check: str, mismatch):
        if mismatch is None:
            self.passed += 1
        else:
            self.fail(check, mismatch[0], mismatch[1])

    @staticmethod
    def cmp_obj(label: str, got, want, keys):
        if not isinstance(got, dict):
            return (f"{label}: {got!r}", f"{label}: an object")
        for k in keys:
            if k not in got:
                return (f"{label}: no key {k!r} in {got}", f"{label}.{k} = {want[k]!r}")
            # A boolean only where the model has one (True == 1 in Python, never in JSON).
            if got[k] != want[k] or (type(got[k]) is bool) != (type(want[k]) is bool):
                return (f"{label}.{k} = {got[k]!r}   (row {json.dumps(got, ensure_ascii=False)})",
                        f"{label}.{k} = {want[k]!r}   (row {json.dumps({k2: want[k2] for k2 in keys}, ensure_ascii=False, default=str)})")
        return None

    def cmp_rows(self, label: str, got, want, keys, rowname):
        if not isinstance(got, list):
            return (f"{label}: {got!r:.200}", f"{label}: a list")
        for i, (g, w) in enumerate(zip(got, want)):
            mm = self.cmp_obj(f"{label}[{i}] ({rowname(w)})", g, w, keys)
            if mm:
                return mm
        if len(got) != len(want):
            i = min(len(got), len(want))
            return (f"{label}: {len(got)} rows" + (f", row {i} = {json.dumps(got[i], ensure_ascii=False)}" if i < len(got) else ""),
                    f"{label}: {len(want)} rows" + (f", row {i} = {json.dumps(want[i], ensure_ascii=False, default=str)}" if i < len(want) else ""))
        return None

    DAY_KEYS = ["day", "state", "total", "taken", "on_time", "late", "early", "skipped", "missed"]
    F_KEYS = ["adherence", "on_time", "taken", "late", "early", "skipped", "missed", "mean_late_minutes"]
    SLOT_KEYS = ["date", "scheduled", "medication", "dose", "status", "taken_at", "late_minutes", "over_limit",
                 "decided_after_close", "double_dose"]
    CSV_KEYS = ["date", "scheduled", "medication", "dose", "status", "taken_at", "late_minutes", "time_known", "over_limit",
                "decided_after_close", "double_dose"]
    RMED_KEYS = ["name", "dose", "adherence", "on_time", "taken", "late", "early", "skipped", "missed", "as_needed"]

    def checks(self, now: datetime, label: str):
        m = self.m
        today = m.local_date(now)
        d1 = self.spec.start - timedelta(days=9)
        tag = f"[{label} now={m.iso(now)}]"
        final = label == "final"

        # history, all medicines
        c = f"{tag} history --from {d1} --to {today} --json"
        got = self.json_of(["history", "--from", d1.isoformat(), "--to", today.isoformat(), "--json"], now, c)
        if got is not None:
            self.verdict(c, self.cmp_rows("history", got, m.history(d1, today, now), self.DAY_KEYS,
                                          lambda w: w["day"]))
        # history of each medicine (archived ones too)
        if label != "mid-1":
            for n in m.names():
                c = f"{tag} history {n!r} --from {d1} --json"
                got = self.json_of(["history", n, "--from", d1.isoformat(), "--json"], now, c)
                if got is not None:
                    self.verdict(c, self.cmp_rows(f"history {n}", got, m.history(d1, today, now, [n]),
                                                  self.DAY_KEYS, lambda w: w["day"]))
        if final:
            # default range: this week (Monday first) and the 4 before
            frm = today - timedelta(days=today.weekday() + 28)
            c = f"{tag} history --json (default: the last 5 weeks, from {frm})"
            got = self.json_of(["history", "--json"], now, c)
            if got is not None:
                self.verdict(c, self.cmp_rows("history", got, m.history(frm, today, now), self.DAY_KEYS,
                                              lambda w: w["day"]))
        # stats
        for n_days in (7, 30):
            c = f"{tag} stats --days {n_days} --json"
            got = self.json_of(["stats", "--days", str(n_days), "--json"], now, c)
            if got is not None:
                self.verdict(c, self.cmp_stats(got, m.stats(n_days, now)))
        # the snapshot now: today's slots and the carried ones (earlier days' open slots), the streak
        c = f"{tag} today --json (doses, streak)"
        got = self.json_of(["today", "--json"], now, c)
        if got is not None:
            self.verdict(c, self.cmp_snapshot(got, now))
        # stock, exact hundredths (half tablets, refills of 2.25)
        c = f"{tag} list --json (stock)"
        r = self.cli(["list", "--all", "--json"], now)
        if r.returncode != 0:
            self.fail(c, f"exit {r.returncode}: {r.stderr.strip()}", "exit 0")
        else:
            self.verdict(c, self.cmp_stock(r.stdout))
        # report csv and json
        r1 = self.spec.start - timedelta(days=5)
        for to in ([today, today + timedelta(days=3)] if final else [today]):
            c = f"{tag} report --format csv --from {r1} --to {to}"
            r = self.cli(["report", "--format", "csv", "--from", r1.isoformat(), "--to", to.isoformat()], now)
            if r.returncode != 0:
                self.fail(c, f"exit {r.returncode}: {r.stderr.strip()}", "exit 0")
            else:
                self.verdict(c, self.cmp_csv(r.stdout, m.report_csv_rows(r1, to, now)))
        for to in ([today, today + timedelta(days=3)] if final else [today]):
            c = f"{tag} report --format json --from {r1} --to {to}"
            got = self.json_of(["report", "--format", "json", "--from", r1.isoformat(), "--to", to.isoformat()], now, c)
            if got is not None:
                for part, mm in self.cmp_report(got, m.report_json(r1, to, now)):
                    self.verdict(f"{c} [{part}]", mm)

    def cmp_snapshot(self, got, now: datetime):
        m = self.m
        if not isinstance(got, dict) or not isinstance(got.get("doses"), list):
            return (repr(got)[:200], "a snapshot with doses")
        today = m.local_date(now)
        want = []
        for n in m.names():
            if not m.meds[n].present_on(today):
                continue
            for s in m.slots_between(n, today - timedelta(days=3), today):
                if not m.tracked(s, now):
                    continue
                st, _ = m.status(s, now)
                if s.day == today or st in ("due", "late"):
                    want.append((n, m.iso(s.at), st))
        gotl = sorted((d.get("medication"), d.get("scheduled"), d.get("status")) for d in got["doses"])
        want.sort()
        if gotl != want:
            extra = [x for x in gotl if x not in want]
            miss = [x for x in want if x not in gotl]
            return (f"doses (medication, scheduled, status) not in the model: {extra}",
                    f"doses missing from dosebar's: {miss}")
        cur, tday, doubt = m.streak(now)
        st = got.get("streak") or {}
        if not doubt and (st.get("current"), st.get("today")) != (cur, tday):
            return (f"streak current={st.get('current')!r} today={st.get('today')!r}",
                    f"streak current={cur} today={tday}")
        return None

    def cmp_stock(self, text: str):
        from decimal import Decimal
        try:
            rows = json.loads(text, parse_float=Decimal)
        except ValueError as e:
            return (f"not JSON ({e})", "JSON")
        by = {r.get("name"): r for r in rows if isinstance(r, dict)}
        for n, med in self.m.meds.items():
            if med.stock is None or med.clamped:
                continue
            g = by.get(n, {})
            want = Decimal(med.stock) / 100
            if not isinstance(g.get("stock"), (int, Decimal)) or Decimal(g["stock"]) != want:
                return (f"{n}: stock {g.get('stock')!r}", f"{n}: stock {want}")
            if Decimal(g.get("per_dose", 0)) != Decimal(med.per_dose) / 100:
                return (f"{n}: per_dose {g.get('per_dose')!r}", f"{n}: per_dose {Decimal(med.per_dose) / 100}")
        return None

    def cmp_stats(self, got, want):
        if not isinstance(got, dict):
            return (repr(got)[:200], "an object")
        for k in ("days", "from", "to"):
            if got.get(k) != want[k]:
                return (f"{k} = {got.get(k)!r}", f"{k} = {want[k]!r}")
        for k in ("overall", "previous"):
            mm = self.cmp_obj(k, got.get(k), want[k], self.F_KEYS)
            if mm:
                return mm
        gm = got.get("medications")
        if not isinstance(gm, list):
            return (f"medications = {gm!r}", "a list")
        gn, wn = [x.get("name") for x in gm], [x["name"] for x in want["medications"]]
        if gn != wn:
            return (f"medications = {gn}", f"medications = {wn}")
        for g, w in zip(gm, want["medications"]):
            mm = self.cmp_obj(f"medications[{w['name']}]", g, w, ["most_late_slot"] + self.F_KEYS)
            if mm:
                return mm
        return None

    def cmp_csv(self, text: str, want_rows):
        if text.count("\n") != text.count("\r\n") or not text.endswith("\r\n"):
            return ("a record not ended by CRLF", "every record ended by CRLF (RFC 4180; no field here spans lines)")
        lines = text.split("\n")
        if lines[0].rstrip("\r") != ",".join(want_rows[0]):
            return (f"header {lines[0]!r}", f"header {','.join(want_rows[0])!r}")
        try:
            got_rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
        except csv.Error as e:
            return (f"not RFC 4180 CSV: {e}", "RFC 4180 CSV")
        for i, (g, w) in enumerate(zip(got_rows, want_rows)):
            if g != w:
                j = next((k for k in range(min(len(g), len(w))) if g[k] != w[k]), min(len(g), len(w)))
                col = self.CSV_KEYS[j] if j < len(self.CSV_KEYS) else f"column {j}"
                return (f"line {i + 1} {col} = {g[j] if j < len(g) else None!r}   ({','.join(g)})",
                        f"line {i + 1} {col} = {w[j] if j < len(w) else None!r}   ({','.join(w)})")
        if len(got_rows) != len(want_rows):
            i = min(len(got_rows), len(want_rows))
            return (f"{len(got_rows)} lines" + (f", line {i + 1} = {','.join(got_rows[i])}" if i < len(got_rows) else ""),
                    f"{len(want_rows)} lines" + (f", line {i + 1} = {','.join(want_rows[i])}" if i < len(want_rows) else ""))
        return None

    def cmp_report(self, got, want):
        """One verdict per part: the header, the medicines, the days, the slots."""
        if not isinstance(got, dict):
            return [("all", (repr(got)[:200], "an object"))]
        out = []
        head = None
        for k in ("from", "to", "timezone"):
            if got.get(k) != want[k]:
                head = (f"{k} = {got.get(k)!r}", f"{k} = {want[k]!r}")
                break
        out.append(("from, to, timezone", head))
        gm, meds = got.get("medications"), None
        if not isinstance(gm, list):
            meds = (f"medications = {gm!r}", "a list")
        else:
            gn, wn = [x.get("name") for x in gm], [x["name"] for x in want["medications"]]
            if gn != wn:
                meds = (f"medications = {gn}", f"medications = {wn}")
            for g, w in zip(gm, want["medications"]):
                if meds:
                    break
                if not isinstance(g.get("schedule"), str) or not g["schedule"]:
                    meds = (f"medications[{w['name']}].schedule = {g.get('schedule')!r}", "a description")
                else:
                    meds = self.cmp_obj(f"medications[{w['name']}]", g, w, self.RMED_KEYS)
        out.append(("medications", meds))
        out.append(("days", self.cmp_rows("days", got.get("days"), want["days"], self.DAY_KEYS, lambda w: w["day"])))
        out.append(("slots", self.cmp_rows("slots", got.get("slots"), want["slots"], self.SLOT_KEYS,
                                           lambda w: f"{w['medication']} {w['scheduled'] or w['taken_at']}")))
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=None, help="the dosebar binary (default: .build/debug/dosebar)")
    ap.add_argument("--quick", action="store_true", help="two short runs (for swift test)")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("DOSEBAR_REPLAY_SEED", "12")))
    ap.add_argument("--only", default=None, help="run only the runs whose name contains this")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directories")
    ap.add_argument("-j", "--jobs", type=int, default=None, help="parallel runs (default 3; 2 with --quick)")
    ap.add_argument("--no-leaflet", action="store_true", help="skip the issue-21 scenarios (leaflet_scenarios.py)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    binary = a.binary or os.path.join(here, "..", "..", ".build", "debug", "dosebar")
    binary = os.path.abspath(binary)
    if not os.access(binary, os.X_OK):
        print(f"replay: no dosebar binary at {binary} (swift build, or --binary PATH)", file=sys.stderr)
        return 2
    selftest()   # the model's own hand-computed cases first
    specs = QUICK if a.quick else FULL
    if a.only:
        specs = [s for s in specs if a.only in s.name]
    t0 = time.monotonic()
    jobs = [Replay(s, a.seed * 1000 + i, binary, a.verbose, a.keep) for i, s in enumerate(specs)]
    with ThreadPoolExecutor(max_workers=max(1, a.jobs or (2 if a.quick else 3))) as pool:
        done = list(pool.map(lambda r: r.run(), jobs))
    passed = failed = 0
    if not a.no_leaflet:
        lp, lf = leaflet_scenarios.run_all(binary, a.keep)
        print(f"leaflet scenarios (issue 21): {lp} passed, {lf} failed")
        passed, failed = lp, lf
    for r in done:
        s = r.spec
        acts = ", ".join(f"{k} {v}" for k, v in r.actions.items())
        print(f"{s.name} ({s.zone}, {s.start} +{s.length} days, seed {r.seed}): "
              f"{r.passed} passed, {r.failed} failed; {r.calls} dosebar calls ({acts}); {r.elapsed:.1f} s")
        if a.verbose and r.dropped:
            print("  dropped: " + ", ".join(f"{k} {v}" for k, v in sorted(r.dropped.items())))
        for line in r.out:
            print(line)
        passed += r.passed
        failed += r.failed
    print(f"{passed} checks passed, {failed} failed ({time.monotonic() - t0:.1f} s)")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
