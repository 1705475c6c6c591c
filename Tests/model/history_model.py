"""An independent model of DESIGN §3 (Slots, Status of a slot, History, Reports, Adherence).

It knows nothing of dosebar's code or database: a driver records into it what a user did
(medicines with their schedule versions, takes, skips, undos, archives) and it computes, for an
instant `now`, what `history --json`, `stats --json` and `report --format csv|json` must say.

Python 3 standard library only (zoneinfo for the zone rules).

Conventions (DESIGN §3 and the definitions of issue 12):
- A slot is (medicine, local date, written time "HH:MM"); its instant is that wall time in the
  zone, a time in a spring-forward gap moved forward by the gap (02:30 -> 03:30), a repeated time
  its first occurrence.
- An event resolves one slot (a take or a skip) or is an as-needed dose; an undone event counts for
  nothing; when two events resolve the same slot, the latest logged wins.
- Figures count known outcomes only (taken*, skipped, missed); percents round half away from zero.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, timezone
from fractions import Fraction
from zoneinfo import ZoneInfo

UTC = timezone.utc
WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
TAKEN = ("taken", "taken_early", "taken_late")
KNOWN = TAKEN + ("skipped", "missed")


def round_half_away(x: Fraction) -> int:
    """Swift's `.rounded()` (to nearest, ties away from zero), computed exactly."""
    if x >= 0:
        return int((x + Fraction(1, 2)).__floor__())
    return -int((-x + Fraction(1, 2)).__floor__())


def percent(part: int, whole: int):
    return None if whole == 0 else round_half_away(Fraction(100 * part, whole))


def hhmm(t: str) -> tuple[int, int]:
    h, m = t.split(":")
    return int(h), int(m)


# --------------------------------------------------------------------------- schedules


@dataclass(frozen=True)
class Version:
    """One schedule version of a medicine, in force from `effective` on (until the next one)."""

    effective: date
    kind: str                      # daily | days | every_d | every_w | every_m | cycle | as_needed
    times: tuple = ()              # written times "HH:MM", as the user gave them
    weekdays: frozenset = frozenset()
    n: int = 1                     # every N (days, weeks, months)
    active: int = 0                # cycle
    rest: int = 0
    start: date = date.min         # --from
    until: date | None = None      # --until, inclusive
    window: int = 120              # minutes
    max_per_day: int | None = None

    def in_course(self, d: date) -> bool:
        return d >= self.start and (self.until is None or d <= self.until)

    def scheduled_on(self, d: date) -> bool:
        if not self.in_course(d) or self.kind == "as_needed":
            return False
        k = (d - self.start).days
        if self.kind == "daily":
            return True
        if self.kind == "days":
            return d.weekday() in self.weekdays
        if self.kind == "every_d":
            return k % self.n == 0
        if self.kind == "every_w":
            return k % (7 * self.n) == 0
        if self.kind == "every_m":
            months = (d.year - self.start.year) * 12 + d.month - self.start.month
            if months < 0 or months % self.n:
                return False
            last = calendar.monthrange(d.year, d.month)[1]
            return d.day == min(self.start.day, last)
        if self.kind == "cycle":
            return k % (self.active + self.rest) < self.active
        raise ValueError(self.kind)

    def resting_on(self, d: date) -> bool:
        if self.kind != "cycle" or not self.in_course(d):
            return False
        return (d - self.start).days % (self.active + self.rest) >= self.active


@dataclass
class Medicine:
    name: str
    dose: str | None
    versions: list = field(default_factory=list)   # sorted by effective
    archived_on: date | None = None                # `remove` on that local day

    def version_on(self, d: date):
        v = None
        for x in self.versions:
            if x.effective <= d:
                v = x
        return v

    def present_on(self, d: date) -> bool:
        return self.archived_on is None or d < self.archived_on


@dataclass(frozen=True)
class Slot:
    med: str
    day: date
    time: str          # as written
    at: datetime       # UTC instant after the DST rules
    window: int        # minutes

    @property
    def key(self):
        return (self.med, self.day, self.time)


@dataclass
class Event:
    seq: int
    med: str
    kind: str                  # take | skip | as_needed
    at: datetime               # UTC instant (taken at / skipped at)
    slot: tuple | None         # slot key for take/skip
    logged: datetime | None = None   # when the command ran (DOSEBAR_NOW)
    undone: bool = False
    over_limit: bool = False   # an as-needed dose recorded with --force beyond its limits


# --------------------------------------------------------------------------- the model


class Model:
    def __init__(self, zone: str):
        self.zone = zone
        self.tz = ZoneInfo(zone)
        self.meds: dict[str, Medicine] = {}
        self.events: list[Event] = []
        self._by_slot: dict[tuple, list[Event]] = {}

    # ----- time

    def offsets(self, naive: datetime):
        return {naive.replace(tzinfo=self.tz, fold=f).utcoffset() for f in (0, 1)}

    def wall_kind(self, naive: datetime) -> str:
        """'ok', 'gap' (does not exist) or 'repeated' (exists twice)."""
        valid = [o for o in self.offsets(naive)
                 if (naive - o).replace(tzinfo=UTC).astimezone(self.tz).replace(tzinfo=None) == naive]
        return "gap" if not valid else ("repeated" if len(valid) > 1 else "ok")

    def instant(self, d: date, t: str) -> datetime:
        """The UTC instant of wall time `t` on local day `d` (DESIGN §3 Slots)."""
        h, m = hhmm(t)
        naive = datetime(d.year, d.month, d.day, h, m)
        offs = self.offsets(naive)
        valid = [(naive - o).replace(tzinfo=UTC) for o in offs
                 if (naive - o).replace(tzinfo=UTC).astimezone(self.tz).replace(tzinfo=None) == naive]
        if valid:
            return min(valid)                       # a repeated time: its first occurrence
        # A gap: the clock jumped forward from the smaller offset to the larger; moving the time
        # forward by the gap is reading it with the offset in force before the jump.
        return (naive - min(offs)).replace(tzinfo=UTC)

    def start_of_day(self, d: date) -> datetime:
        return self.instant(d, "00:00")

    def end_of_day(self, d: date) -> datetime:
        return self.start_of_day(d + timedelta(days=1))

    def local(self, at: datetime) -> datetime:
        return at.astimezone(self.tz)

    def local_date(self, at: datetime) -> date:
        return self.local(at).date()

    def iso(self, at: datetime) -> str:
        return self.local(at).isoformat()

    # ----- recording what the user did

    def add(self, name: str, dose: str | None, version: Version):
        assert name not in self.meds
        self.meds[name] = Medicine(name, dose, [replace(version, effective=date.min)])

    def edit(self, name: str, effective: date, **changes):
        """A schedule change from `effective` on: the version then in force with `changes`."""
        med = self.meds[name]
        base = med.version_on(effective) or med.versions[0]
        new = replace(base, effective=effective, **changes)
        med.versions = [v for v in med.versions if v.effective < effective] + [new]

    def remove(self, name: str, day: date):
        self.meds[name].archived_on = day

    def _log(self, med, kind, at, slot, logged) -> Event:
        e = Event(len(self.events) + 1, med, kind, at, slot, logged)
        self.events.append(e)
        if slot is not None:
            self._by_slot.setdefault(slot, []).append(e)
        return e

    def log_take(self, med: str, at: datetime, slot: Slot | None, logged: datetime, over_limit: bool = False) -> Event:
        e = self._log(med, "take" if slot else "as_needed", at, slot.key if slot else None, logged)
        e.over_limit = over_limit
        return e

    def log_skip(self, med: str, at: datetime, slot: Slot, logged: datetime) -> Event:
        return self._log(med, "skip", at, slot.key, logged)

    def undo_target(self, med: str) -> Event | None:
        """The most recent (logged) take/skip of `med` that is not undone."""
        for e in reversed(self.events):
            if e.med == med and not e.undone:
                return e
        return None

    def undo(self, med: str) -> Event | None:
        e = self.undo_target(med)
        if e is not None:
            e.undone = True
        return e

    # ----- slots

    def slots(self, name: str, d: date) -> list[Slot]:
        med = self.meds[name]
        if not med.present_on(d):
            return []
        v = med.version_on(d)
        if v is None or not v.scheduled_on(d):
            return []
        return [Slot(name, d, t, self.instant(d, t), v.window) for t in v.times]

    def resting(self, name: str, d: date) -> bool:
        med = self.meds[name]
        v = med.version_on(d)
        return med.present_on(d) and v is not None and v.resting_on(d)

    def as_needed_on(self, name: str, d: date) -> bool:
        med = self.meds[name]
        v = med.version_on(d)
        return med.present_on(d) and v is not None and v.kind == "as_needed" and v.in_course(d)

    def max_per_day(self, name: str, d: date):
        v = self.meds[name].version_on(d)
        return v.max_per_day if v else None

    def final_event(self, slot: Slot, now: datetime) -> Event | None:
        best = None
        for e in self._by_slot.get(slot.key, ()):
            if not e.undone and e.at <= now and (best is None or e.seq > best.seq):
                best = e
        return best

    def status(self, slot: Slot, now: datetime):
        """(status, event) of a slot at `now` (DESIGN §3 Status of a slot)."""
        e = self.final_event(slot, now)
        w = timedelta(minutes=slot.window)
        if e is not None:
            if e.kind == "skip":
                return "skipped", e
            if e.at < slot.at - w:
                return "taken_early", e
            if e.at > slot.at + w:
                return "taken_late", e
            return "taken", e
        if now >= self.end_of_day(slot.day):
            return "missed", None
        if now < slot.at:
            return "upcoming", None
        if now < slot.at + w:
            return "due", None
        return "late", None

    def late_minutes(self, slot: Slot, status: str, e: Event | None):
        if status == "taken_late":
            return int((e.at - slot.at).total_seconds() // 60)
        if status == "missed":
            return int((self.end_of_day(slot.day) - slot.at).total_seconds() // 60)
        return None

    def unresolved(self, name: str, d: date, now: datetime) -> list[Slot]:
        return [s for s in self.slots(name, d) if self.final_event(s, now) is None]

    def resolve(self, name: str, x: datetime, now: datetime):
        """Which slot `take/skip NAME --at x` resolves (DESIGN §2): the unresolved slot of x's day
        whose window holds x, else the unresolved slot of that day nearest to x.
        Returns (slot or None, why-ambiguous or None)."""
        d = self.local_date(x)
        cands = self.unresolved(name, d, now)
        if not cands:
            return None, None
        inside = [s for s in cands if s.at - timedelta(minutes=s.window) <= x <= s.at + timedelta(minutes=s.window)]
        if len(inside) == 1:
            return inside[0], None
        if len(inside) > 1:
            return None, "in two windows"
        dist = sorted(cands, key=lambda s: abs((x - s.at).total_seconds()))
        if len(dist) > 1 and abs((x - dist[0].at).total_seconds()) == abs((x - dist[1].at).total_seconds()):
            return None, "equally near two slots"
        # Nearest by instant and nearest by wall clock must agree (they can differ on DST days).
        lx = self.local(x).replace(tzinfo=None)
        def wall(s):
            h, m = hhmm(s.time)
            return abs((lx - datetime(d.year, d.month, d.day, h, m)).total_seconds())
        if min(cands, key=wall) is not dist[0] or (len(cands) > 1 and sorted(map(wall, cands))[0] == sorted(map(wall, cands))[1]):
            return None, "nearest depends on DST reading"
        return dist[0], None

    def as_needed_count(self, name: str, d: date, now: datetime) -> int:
        return sum(1 for e in self.events if e.med == name and e.kind == "as_needed" and not e.undone
                   and e.at <= now and self.local_date(e.at) == d)

    # ----- days, figures

    def today(self, now: datetime) -> date:
        return self.local_date(now)

    def names(self):
        return list(self.meds)

    def judged(self, d: date, now: datetime, names=None):
        """[(slot, status, event)] of the selection on day d, in time order."""
        out = []
        for n in (names if names is not None else self.names()):
            for s in self.slots(n, d):
                st, e = self.status(s, now)
                out.append((s, st, e))
        out.sort(key=lambda r: (r[0].at, r[0].med))
        return out

    def day_row(self, d: date, now: datetime, names=None) -> dict:
        names = names if names is not None else self.names()
        js = self.judged(d, now, names)
        c = {k: sum(1 for _, st, _ in js if st == k) for k in KNOWN}
        total = len(js)
        taken = c["taken"] + c["taken_early"] + c["taken_late"]
        if total == 0:
            state = "rest" if any(self.resting(n, d) for n in names) else "none"
        elif c["missed"] == 0 and taken >= 1 and taken + c["skipped"] == total:
            state = "done"
        elif d == self.today(now):
            state = "pending"
        elif c["skipped"] == total:
            state = "skipped"
        elif taken == 0 and c["missed"] >= 1:
            state = "missed"
        else:
            state = "partial"
        return {"day": d.isoformat(), "state": state, "total": total, "taken": taken,
                "on_time": c["taken"], "late": c["taken_late"], "early": c["taken_early"],
                "skipped": c["skipped"], "missed": c["missed"]}

    def history(self, d1: date, d2: date, now: datetime, names=None) -> list[dict]:
        d2 = min(d2, self.today(now))
        out, d = [], d1
        while d <= d2:
            out.append(self.day_row(d, now, names))
            d += timedelta(days=1)
        return out

    @staticmethod
    def days(d1: date, d2: date):
        d = d1
        while d <= d2:
            yield d
            d += timedelta(days=1)

    def figures(self, d1: date, d2: date, now: datetime, names=None) -> dict:
        taken = on_time = late = early = skipped = missed = 0
        late_mins = []
        for d in self.days(d1, min(d2, self.today(now))):
            for s, st, e in self.judged(d, now, names):
                if st in TAKEN:
                    taken += 1
                if st == "taken":
                    on_time += 1
                elif st == "taken_early":
                    early += 1
                elif st == "taken_late":
                    late += 1
                    late_mins.append(self.late_minutes(s, st, e))
                elif st == "skipped":
                    skipped += 1
                elif st == "missed":
                    missed += 1
        return {"adherence": percent(taken, taken + skipped + missed),
                "on_time": percent(on_time, taken),
                "taken": taken, "late": late, "early": early, "skipped": skipped, "missed": missed,
                "mean_late_minutes": (round_half_away(Fraction(sum(late_mins), len(late_mins)))
                                      if late_mins else None)}

    def most_late_slot(self, name: str, d1: date, d2: date, now: datetime):
        count: dict[str, int] = {}
        for d in self.days(d1, min(d2, self.today(now))):
            for s, st, e in self.judged(d, now, [name]):
                if st in ("taken_late", "missed"):
                    count[s.time] = count.get(s.time, 0) + 1
        if not count:
            return None
        best = max(count.values())
        return min(t for t, c in count.items() if c == best)

    def listed(self, d1: date, d2: date, now: datetime) -> list[str]:
        """Medicines with a slot, or as-needed and in force, on some day of [d1, d2] (archived too),
        sorted by lowercased name."""
        out = []
        for n in self.names():
            for d in self.days(d1, min(d2, self.today(now))):
                if self.slots(n, d) or self.as_needed_on(n, d):
                    out.append(n)
                    break
        return sorted(out, key=lambda n: (n.lower(), n))

    def stats(self, n_days: int, now: datetime) -> dict:
        to = self.today(now)
        frm = to - timedelta(days=n_days - 1)
        pto = frm - timedelta(days=1)
        pfrm = pto - timedelta(days=n_days - 1)
        meds = []
        for name in self.listed(frm, to, now):
            m = {"name": name, "most_late_slot": self.most_late_slot(name, frm, to, now)}
            m.update(self.figures(frm, to, now, [name]))
            meds.append(m)
        return {"days": n_days, "from": frm.isoformat(), "to": to.isoformat(),
                "overall": self.figures(frm, to, now), "previous": self.figures(pfrm, pto, now),
                "medications": meds}

    # ----- reports

    def report_rows(self, d1: date, d2: date, now: datetime) -> list[dict]:
        """The CSV rows as dicts (None for an empty field), in order."""
        d2 = min(d2, self.today(now))
        rows = []
        for d in self.days(d1, d2):
            for s, st, e in self.judged(d, now):
                rows.append({"date": d.isoformat(), "scheduled": self.iso(s.at), "medication": s.med,
                             "dose": self.meds[s.med].dose, "status": st,
                             "taken_at": self.iso(e.at) if st in TAKEN else None,
                             "late_minutes": self.late_minutes(s, st, e),
                             "time_known": True if st in TAKEN else None, "over_limit": False})
        extra = [e for e in self.events if e.kind == "as_needed" and not e.undone and e.at <= now
                 and d1 <= self.local_date(e.at) <= d2]
        extra.sort(key=lambda e: (e.at, e.med))
        for e in extra:
            rows.append({"date": self.local_date(e.at).isoformat(), "scheduled": None, "medication": e.med,
                         "dose": self.meds[e.med].dose, "status": "as_needed", "taken_at": self.iso(e.at),
                         "late_minutes": None, "time_known": True, "over_limit": e.over_limit})
        return rows

    CSV_HEADER = ["date", "scheduled", "medication", "dose", "status", "taken_at", "late_minutes", "time_known",
                  "over_limit"]

    def report_csv_rows(self, d1: date, d2: date, now: datetime) -> list[list[str]]:
        out = [list(self.CSV_HEADER)]
        for r in self.report_rows(d1, d2, now):
            out.append(["" if r[k] is None else ("true" if r[k] else "false") if isinstance(r[k], bool) else str(r[k])
                        for k in self.CSV_HEADER])
        return out

    def report_json(self, d1: date, d2: date, now: datetime) -> dict:
        d2 = min(d2, self.today(now))
        meds = []
        for name in self.listed(d1, d2, now):
            f = self.figures(d1, d2, now, [name])
            m = {"name": name, "dose": self.meds[name].dose}
            for k in ("adherence", "on_time", "taken", "late", "early", "skipped", "missed"):
                m[k] = f[k]
            m["as_needed"] = sum(1 for e in self.events if e.med == name and e.kind == "as_needed"
                                 and not e.undone and e.at <= now and d1 <= self.local_date(e.at) <= d2)
            meds.append(m)
        return {"from": d1.isoformat(), "to": d2.isoformat(), "timezone": self.zone, "medications": meds,
                "days": self.history(d1, d2, now), "slots": self.report_rows(d1, d2, now)}


# --------------------------------------------------------------------------- self-test


def selftest():
    """Hand-computed cases (zdump for the DST edges); raises AssertionError on a wrong rule."""
    ny, ldn = Model("America/New_York"), Model("Europe/London")
    assert ny.iso(ny.instant(date(2026, 3, 8), "02:30")) == "2026-03-08T03:30:00-04:00"    # gap: forward by it
    assert ny.iso(ny.instant(date(2026, 11, 1), "01:30")) == "2026-11-01T01:30:00-04:00"   # repeated: first
    assert ny.iso(ny.instant(date(2026, 11, 1), "02:30")) == "2026-11-01T02:30:00-05:00"
    assert ldn.iso(ldn.instant(date(2026, 3, 29), "01:30")) == "2026-03-29T02:30:00+01:00"
    assert ldn.iso(ldn.instant(date(2026, 10, 25), "01:30")) == "2026-10-25T01:30:00+01:00"
    assert ny.end_of_day(date(2026, 11, 1)) - ny.start_of_day(date(2026, 11, 1)) == timedelta(hours=25)
    assert ny.end_of_day(date(2026, 3, 8)) - ny.start_of_day(date(2026, 3, 8)) == timedelta(hours=23)
    assert ny.wall_kind(datetime(2026, 11, 1, 1, 10)) == "repeated" and ny.wall_kind(datetime(2026, 3, 8, 2, 10)) == "gap"
    assert [round_half_away(Fraction(n, 2)) for n in (1, 3, 5, -5)] == [1, 2, 3, -3]
    assert (percent(1, 8), percent(2, 3), percent(0, 0), percent(1, 200)) == (13, 67, None, 1)

    m = Model("America/New_York")
    d = date(2026, 11, 1)
    m.add("A", None, Version(date.min, "daily", ("01:30", "23:30"), start=d))
    m.add("C", "x", Version(date.min, "cycle", ("08:00",), active=1, rest=1, start=d))
    s130, s2330 = m.slots("A", d)
    at = lambda hh, mm, off=-5: datetime(2026, 11, 1, hh, mm, tzinfo=timezone(timedelta(hours=off))).astimezone(UTC)
    noon = at(12, 0)
    # 01:30 EDT = 05:30Z, window 2 h: 07:30Z = 02:30 EST is the last on-time minute.
    assert m.resolve("A", at(2, 30), noon) == (s130, None)
    m.log_take("A", at(2, 31), s130, noon)
    assert m.status(s130, noon)[0] == "taken_late"
    assert m.late_minutes(s130, *m.status(s130, noon)) == 121
    assert m.status(s2330, noon)[0] == "upcoming" and m.status(s2330, at(23, 31))[0] == "due"
    end = m.end_of_day(d)
    assert m.status(s2330, end)[0] == "missed" and m.late_minutes(s2330, "missed", None) == 30
    assert m.day_row(d, noon)["state"] == "pending"
    assert m.day_row(d, end)["state"] == "partial"
    assert m.day_row(d + timedelta(days=1), end + timedelta(hours=12), ["C"])["state"] == "rest"
    e = m.log_skip("A", at(23, 0), s2330, at(23, 1))
    assert m.day_row(d, end) == {"day": "2026-11-01", "state": "partial", "total": 3, "taken": 1, "on_time": 0,
                                 "late": 1, "early": 0, "skipped": 1, "missed": 1}
    m.undo("A")
    assert e.undone and m.status(s2330, end)[0] == "missed"
    f = m.figures(d, d, end)
    assert (f["adherence"], f["on_time"], f["mean_late_minutes"]) == (33, 0, 121)
    assert m.most_late_slot("A", d, d, end) == "01:30"   # 1 late + 0 vs 1 missed: a tie, the earlier time


if __name__ == "__main__":
    selftest()
    print("history_model self-test passed")
