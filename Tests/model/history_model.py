"""An independent model of DESIGN §2 (which dose a take records) and §3 (Slots, Status of a slot with
its cut-off, tracking start, Streak, History, Reports, Adherence, Stock).

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
- The cut-off (issue 21): an unresolved slot (T, window W) is open (`due`, then `late`) until
  C = max(T + W, min(T' - W, T + 24 h)), T' the medicine's next slot after T by the schedule versions
  in force (none when its course ends or it is archived: C = T + 24 h); then `missed`, and a missed
  slot's late_minutes is C - T. A slot belongs to T's day whatever the day of its take.
- Tracking start: a medicine is tracked from the instant it was added; a slot before that without an
  event is untracked (in no figure, no row); an event makes it a normal slot.
- Amounts (stock, per dose) are integers of hundredths, never floats.
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
    min_interval: int | None = None  # minutes

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
    added: datetime | None = None                  # tracking start (UTC instant of `add`)
    per_dose: int = 100                            # hundredths
    per_dose_times: dict | None = None             # "HH:MM" -> hundredths when the amount differs by time
    stock: int | None = None                       # hundredths; None: not tracked
    clamped: bool = False                          # stock ever hit the floor of 0 (undo is then path-dependent)

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
    amount: int = 0            # hundredths one take of this slot uses (its time's, `--per-dose 0.5,1`)


# --------------------------------------------------------------------------- the model


class Model:
    def __init__(self, zone: str):
        self.zone = zone
        self.tz = ZoneInfo(zone)
        self.changes: list[tuple] = []   # the zone log after its first zone: (instant, tzinfo, name)
        self.meds: dict[str, Medicine] = {}
        self.events: list[Event] = []
        self._by_slot: dict[tuple, list[Event]] = {}

    # ----- time

    # The zone log (DESIGN §3 "Where the person is"): `self.tz` from the beginning, then each change
    # (instant, zone) from its instant on. A wall time (D, h) is placed change after change: if its
    # instant in the zone before is before the change it stays; else its instant in the new zone if
    # that is at or after the change; else the change's instant itself.

    def change_zone(self, at: datetime, zone: str):
        """The person is in `zone` from `at` on (a flight; `dosebar zone`)."""
        current = self.changes[-1][2] if self.changes else self.zone
        if zone != current:
            self.changes.append((at, ZoneInfo(zone), zone))
            self.changes.sort(key=lambda c: c[0])

    def tz_at(self, at: datetime):
        tz = self.tz
        for c_at, c_tz, _ in self.changes:
            if c_at <= at:
                tz = c_tz
        return tz

    def zone_name_at(self, at: datetime) -> str:
        name = self.zone
        for c_at, _, c_name in self.changes:
            if c_at <= at:
                name = c_name
        return name

    def offsets(self, naive: datetime, tz=None):
        tz = tz or self.tz
        return {naive.replace(tzinfo=tz, fold=f).utcoffset() for f in (0, 1)}

    def wall_kind(self, naive: datetime, tz=None) -> str:
        """'ok', 'gap' (does not exist) or 'repeated' (exists twice)."""
        tz = tz or self.tz
        valid = [o for o in self.offsets(naive, tz)
                 if (naive - o).replace(tzinfo=UTC).astimezone(tz).replace(tzinfo=None) == naive]
        return "gap" if not valid else ("repeated" if len(valid) > 1 else "ok")

    @staticmethod
    def wall_instant(tz, d: date, minutes: int) -> datetime:
        """The UTC instant of a wall minute of day `d` in one zone (DESIGN §3 Slots)."""
        naive = datetime(d.year, d.month, d.day) + timedelta(minutes=minutes)
        offs = {naive.replace(tzinfo=tz, fold=f).utcoffset() for f in (0, 1)}
        valid = [(naive - o).replace(tzinfo=UTC) for o in offs
                 if (naive - o).replace(tzinfo=UTC).astimezone(tz).replace(tzinfo=None) == naive]
        if valid:
            return min(valid)                       # a repeated time: its first occurrence
        # A gap: the clock jumped forward from the smaller offset to the larger; moving the time
        # forward by the gap is reading it with the offset in force before the jump.
        return (naive - min(offs)).replace(tzinfo=UTC)

    def instant(self, d: date, t: str, minutes: int | None = None) -> datetime:
        """The UTC instant of wall time `t` on local day `d`, placed through the zone log."""
        if minutes is None:
            h, m = hhmm(t)
            minutes = h * 60 + m
        x = self.wall_instant(self.tz, d, minutes)
        for c_at, c_tz, _ in self.changes:
            if x < c_at:
                break
            there = self.wall_instant(c_tz, d, minutes)
            x = there if there >= c_at else c_at
        return x

    def start_of_day(self, d: date) -> datetime:
        return self.instant(d, "00:00")

    def end_of_day(self, d: date) -> datetime:
        return self.start_of_day(d + timedelta(days=1))

    def local(self, at: datetime) -> datetime:
        return at.astimezone(self.tz_at(at))

    def local_date(self, at: datetime) -> date:
        """The day whose start is the latest at or before `at` (after a westward change the clock
        reads an earlier date than the day already lived)."""
        wall = self.local(at).date()
        if not self.changes:
            return wall
        d = wall + timedelta(days=2)
        while d > wall - timedelta(days=3) and self.start_of_day(d) > at:
            d -= timedelta(days=1)
        return d

    def iso(self, at: datetime) -> str:
        return self.local(at).isoformat()

    # ----- recording what the user did

    def add(self, name: str, dose: str | None, version: Version, added: datetime | None = None,
            per_dose: int = 100, stock: int | None = None, per_dose_times: dict | None = None):
        """`added`: the instant of `add` (tracking start); None: tracked from the beginning of time.
        `per_dose_times`: {"HH:MM": hundredths} when each time has its own amount (DESIGN §2 `--per-dose N[,N…]`)."""
        assert name not in self.meds
        self.meds[name] = Medicine(name, dose, [replace(version, effective=date.min)], added=added,
                                   per_dose=per_dose, per_dose_times=per_dose_times, stock=stock)

    def amount(self, name: str, slot: Slot | None) -> int:
        """Hundredths a take uses: its slot time's own amount, else the one per-dose amount."""
        m = self.meds[name]
        if slot is not None and m.per_dose_times and slot.time in m.per_dose_times:
            return m.per_dose_times[slot.time]
        return m.per_dose

    def per_day(self, name: str) -> int:
        """Hundredths a day of the (daily) schedule in force uses: the sum of its times' amounts."""
        m = self.meds[name]
        v = m.versions[-1]
        return sum(m.per_dose_times.get(t, m.per_dose) if m.per_dose_times else m.per_dose for t in v.times)

    def refill(self, name: str, amount: int):
        med = self.meds[name]
        if med.stock is not None:
            med.stock += amount

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
        e.amount = self.amount(med, slot)
        m = self.meds[med]
        if m.stock is not None:          # DESIGN §3 Stock: never below 0
            if m.stock < e.amount:
                m.clamped = True
            m.stock = max(0, m.stock - e.amount)
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
            m = self.meds[med]
            if e.kind != "skip" and m.stock is not None:
                m.stock += e.amount
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

    # ----- the cut-off and tracking start (DESIGN §3)

    def slots_between(self, name: str, d1: date, d2: date) -> list[Slot]:
        out = []
        for d in self.days(d1, d2):
            out.extend(self.slots(name, d))
        out.sort(key=lambda s: s.at)
        return out

    def next_slot(self, slot: Slot):
        """T': the medicine's first slot after T by the schedule versions in force, or None. Only a
        T' before T + 24 h + W can matter for the cut-off, so three days ahead is enough."""
        for s in self.slots_between(slot.med, slot.day, slot.day + timedelta(days=3)):
            if s.at > slot.at:
                return s
        return None

    def cutoff(self, slot: Slot) -> datetime:
        w, day = timedelta(minutes=slot.window), timedelta(hours=24)
        nxt = self.next_slot(slot)
        if nxt is None:
            return slot.at + day
        return max(slot.at + w, min(nxt.at - w, slot.at + day))

    def tracked(self, slot: Slot, now: datetime) -> bool:
        added = self.meds[slot.med].added
        return added is None or slot.at >= added or self.final_event(slot, now) is not None

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
        if now < slot.at:
            return "upcoming", None
        if now < slot.at + w:
            return "due", None
        if now < self.cutoff(slot):
            return "late", None
        return "missed", None

    def late_minutes(self, slot: Slot, status: str, e: Event | None):
        if status == "taken_late":
            return int((e.at - slot.at).total_seconds() // 60)
        if status == "missed":
            return int((self.cutoff(slot) - slot.at).total_seconds() // 60)
        return None

    def is_open(self, slot: Slot, now: datetime) -> bool:
        return self.tracked(slot, now) and self.status(slot, now)[0] in ("due", "late")

    # ----- which dose a command records (DESIGN §2)

    def scheduled(self, name: str, d: date) -> bool:
        v = self.meds[name].version_on(d)
        return v is not None and v.kind != "as_needed"

    def open_slots(self, name: str, now: datetime) -> list[Slot]:
        d = self.local_date(now)
        return [s for s in self.slots_between(name, d - timedelta(days=3), d) if self.is_open(s, now)]

    def next_unresolved(self, name: str, now: datetime, horizon: int = 40):
        d = self.local_date(now)
        for s in self.slots_between(name, d, d + timedelta(days=horizon)):
            if s.at > now and self.final_event(s, now) is None:
                return s
        return None

    def pick_take(self, name: str, now: datetime):
        """What `take NAME` (or `skip NAME`) at `now` records: ("slot", s), ("as_needed", None) or
        ("refuse", why). The earliest open slot, whatever its day; else the next slot if it opens
        within the window (T - W <= now); else an as-needed dose; else exit 65."""
        op = self.open_slots(name, now)
        if op:
            return "slot", op[0]
        nxt = self.next_unresolved(name, now)
        if nxt is not None and nxt.at - timedelta(minutes=nxt.window) <= now:
            return "slot", nxt
        if self.as_needed_on(name, self.local_date(now)):
            return "as_needed", None
        return "refuse", "nothing due" + (f" (next {self.iso(nxt.at)})" if nxt else "")

    def pick_skip(self, name: str, now: datetime):
        """What `skip NAME` at `now` records: its earliest open slot, whatever its day; else its next
        unresolved slot today (skipping tonight's dose ahead of time is a decision, not a guess); else
        exit 65."""
        op = self.open_slots(name, now)
        if op:
            return "slot", op[0]
        d = self.local_date(now)
        for s in self.slots_between(name, d, d):
            if s.at > now and self.tracked(s, now) and self.final_event(s, now) is None:
                return "slot", s
        return "refuse", "nothing open and nothing left today"

    def pick_at(self, name: str, x: datetime, now: datetime):
        """What `take/skip NAME --at x` records (DESIGN §2): the slot `take NAME` would have picked at
        x, ignoring whether it is resolved (every slot counts as unresolved, untracked ones too); exit 65
        when that slot is already taken or skipped. Returns (kind, slot, event): ("slot", s, None),
        ("refuse", s, the event that resolved s), ("refuse", None, None) or ("as_needed", None, None).
        pick_at_other is the other way to read DESIGN's sentence (as take NAME at x with the events
        taken by x); the driver stays off the rare instants where the two differ (two slots less than
        2 W apart, e.g. 23:30 and 02:30)."""
        d = self.local_date(x)
        near = self.slots_between(name, d - timedelta(days=3), d + timedelta(days=3))
        pick = None
        for s in near:
            if s.at <= x < self.cutoff(s):
                pick = s
                break
        if pick is None:
            after = [s for s in near if s.at > x]
            if after and after[0].at - timedelta(minutes=after[0].window) <= x:
                pick = after[0]
        if pick is not None:
            e = self.final_event(pick, now)
            if e is not None:
                return "refuse", pick, e
            return "slot", pick, None
        if self.as_needed_on(name, d):
            return "as_needed", None, None
        return "refuse", None, None

    def pick_at_other(self, name: str, x: datetime, now: datetime):
        """The other reading of `--at x`: `take NAME` at x with the events of now that were taken at
        or before x (tracking ignored). ("slot", s) / ("refuse", s-or-None)."""
        d = self.local_date(x)
        near = self.slots_between(name, d - timedelta(days=3), d + timedelta(days=3))
        def resolved(s):
            e = self.final_event(s, now)
            return e is not None and e.at <= x
        for s in near:
            if s.at <= x < self.cutoff(s) and not resolved(s):
                return "slot", s
        for s in near:
            if s.at > x and not resolved(s):
                if s.at - timedelta(minutes=s.window) <= x:
                    return "slot", s
                break
        return "refuse", None

    def find_slot(self, name: str, d: date, t: str):
        for s in self.slots(name, d):
            if s.time == t:
                return s
        return None

    def pick_all(self, now: datetime, nxt: bool) -> dict:
        """`take` without names (`--next`): {name: slot}, at most one dose per medicine. Each
        medicine's earliest open slot (a slot whose window has begun but whose time has not come is
        `upcoming`, not open: DESIGN §2 "records, for each medicine, its open slot"); with --next and
        nothing open at all, the next slot(s): every medicine's unresolved slot at the earliest next
        instant, one each."""
        picks = {}
        for n in self.names():
            op = self.open_slots(n, now)
            if op:
                picks[n] = op[0]
        if not picks and nxt:
            # Never a dose before its window (DESIGN §2, issue 42): T - W <= now.
            cands = [(s.at, n, s) for n in self.names() if self.meds[n].present_on(self.local_date(now))
                     for s in [self.next_unresolved(n, now)]
                     if s is not None and s.at - timedelta(minutes=s.window) <= now]
            if cands:
                first = min(c[0] for c in cands)
                picks = {n: s for at, n, s in cands if at == first}
        return picks

    def over_limit(self, name: str, now: datetime):
        """Why an as-needed dose taken now is beyond its limits (DESIGN §2), or None: --max-per-day
        doses already that day, or the last dose less than --min-interval ago."""
        d = self.local_date(now)
        v = self.meds[name].version_on(d)
        if v.max_per_day is not None and self.as_needed_count(name, d, now) >= v.max_per_day:
            return "max_per_day"
        if v.min_interval is not None:
            last = max((e.at for e in self.events if e.med == name and e.kind == "as_needed" and not e.undone
                        and e.at <= now), default=None)
            if last is not None and now - last < timedelta(minutes=v.min_interval):
                return "min_interval"
        return None

    def as_needed_count(self, name: str, d: date, now: datetime) -> int:
        return sum(1 for e in self.events if e.med == name and e.kind == "as_needed" and not e.undone
                   and e.at <= now and self.local_date(e.at) == d)

    # ----- days, figures

    def today(self, now: datetime) -> date:
        return self.local_date(now)

    def names(self):
        return list(self.meds)

    def judged(self, d: date, now: datetime, names=None):
        """[(slot, status, event)] of the tracked slots of the selection on day d, in time order."""
        out = []
        for n in (names if names is not None else self.names()):
            for s in self.slots(n, d):
                if not self.tracked(s, now):
                    continue
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
        is_open = any(st in ("due", "late") for _, st, _ in js)
        if total == 0:
            state = "rest" if any(self.resting(n, d) for n in names) else "none"
        elif d >= self.today(now):
            state = "done" if c["missed"] == 0 and taken >= 1 and taken + c["skipped"] == total else "pending"
        elif is_open:
            state = "pending"
        elif c["missed"] == 0 and taken >= 1 and taken + c["skipped"] == total:
            state = "done"
        elif c["skipped"] == total:
            state = "skipped"
        elif taken == 0 and c["missed"] >= 1:
            state = "missed"
        else:
            state = "partial"
        row = {"day": d.isoformat(), "state": state, "total": total, "taken": taken,
               "on_time": c["taken"], "late": c["taken_late"], "early": c["taken_early"],
               "skipped": c["skipped"], "missed": c["missed"]}
        # Skips recorded after their dose closed as missed (DESIGN §2 skip --slot): only when there is one.
        late_skips = sum(1 for s, st, e in js if self.decided_after_close(s, st, e))
        if late_skips:
            row["decided_after_close"] = late_skips
        return row

    def decided_after_close(self, s, st, e) -> bool:
        """A skip recorded at an instant after the slot's cut-off: it had closed as missed."""
        return st == "skipped" and e is not None and e.at > self.cutoff(s)

    def streak(self, now: datetime):
        """(current, today, doubtful) of DESIGN §3 Streak. `doubtful`: a day of the chain is both
        pending and has a missed slot, or today is all skipped (the text does not say)."""
        today = self.today(now)
        first = min((self.local_date(m.added) for m in self.meds.values() if m.added), default=today)
        first = min([first] + [self.local_date(e.at) for e in self.events])
        doubt = False

        def kind(d):
            nonlocal doubt
            js = self.judged(d, now)
            sts = [st for _, st, _ in js]
            taken = sum(1 for st in sts if st in TAKEN)
            if d == today and "missed" in sts:
                return "broken"          # today breaks as soon as one of its slots closes unresolved
            if any(st in ("due", "late", "upcoming") for st in sts):
                if "missed" in sts:
                    doubt = True
                    return "broken"
                return "pending"
            if "missed" in sts:
                return "broken"
            if sts and taken >= 1:
                return "complete"
            return "neutral"
        k_today = kind(today)
        if k_today == "neutral" and self.judged(today, now):
            doubt = True
        t = {"complete": "done", "pending": "pending", "broken": "broken", "neutral": "none"}[k_today]
        if k_today == "broken":
            return 0, t, doubt
        n = 1 if k_today == "complete" else 0
        d = today - timedelta(days=1)
        while d >= first:
            k = kind(d)
            if k == "broken":
                break
            if k == "complete":
                n += 1
            d -= timedelta(days=1)
        return n, t, doubt

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
                if self.judged(d, now, [n]) or self.as_needed_on(n, d):
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
                             "time_known": True if st in TAKEN else None, "over_limit": False,
                             "decided_after_close": self.decided_after_close(s, st, e),
                             "double_dose": False})
        extra = [e for e in self.events if e.kind == "as_needed" and not e.undone and e.at <= now
                 and d1 <= self.local_date(e.at) <= d2]
        extra.sort(key=lambda e: (e.at, e.med))
        for e in extra:
            rows.append({"date": self.local_date(e.at).isoformat(), "scheduled": None, "medication": e.med,
                         "dose": self.meds[e.med].dose, "status": "as_needed", "taken_at": self.iso(e.at),
                         "late_minutes": None, "time_known": True, "over_limit": e.over_limit,
                         "decided_after_close": False,
                         "double_dose": False})
        return rows

    # double_dose: one device here, so never a slot taken on two (DESIGN §10).
    CSV_HEADER = ["date", "scheduled", "medication", "dose", "status", "taken_at", "late_minutes", "time_known",
                  "over_limit", "decided_after_close", "double_dose"]

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
        return {"from": d1.isoformat(), "to": d2.isoformat(), "timezone": self.changes[-1][2] if self.changes else self.zone, "medications": meds,
                "days": self.history(d1, d2, now), "slots": self.report_rows(d1, d2, now)}


# --------------------------------------------------------------------------- self-test


def selftest():
    """Hand-computed cases (zdump for the DST edges); raises AssertionError on a wrong rule."""
    ny, ldn = Model("America/New_York"), Model("Europe/London")
    assert ny.iso(ny.instant(date(2026, 3, 8), "02:30")) == "2026-03-08T03:30:00-04:00"    # gap: forward by it
    assert ny.iso(ny.instant(date(2026, 11, 1), "01:30")) == "2026-11-01T01:30:00-04:00"   # repeated: first
    assert ny.iso(ny.instant(date(2026, 11, 1), "02:30")) == "2026-11-01T02:30:00-05:00"
    assert ldn.iso(ldn.instant(date(2026, 3, 29), "01:30")) == "2026-03-29T02:30:00+01:00"
    # The zone log: Seoul, then New York from 2026-12-07 01:00Z (issue 43's flight). The past stays in
    # Seoul, 12-07's 22:00 comes at 22:00 New York time (38 h after 12-06's), and 12-07 lasts until
    # New York's midnight although the clock read 12-06 20:00 at the change.
    kr = Model("Asia/Seoul")
    c = datetime(2026, 12, 7, 1, 0, tzinfo=UTC)
    before = kr.instant(date(2026, 12, 7), "08:00")
    kr.change_zone(c, "America/New_York")
    assert kr.instant(date(2026, 12, 7), "08:00") == before
    assert kr.instant(date(2026, 12, 7), "22:00") - kr.instant(date(2026, 12, 6), "22:00") == timedelta(hours=38)
    assert kr.local_date(c) == date(2026, 12, 7) and kr.iso(c) == "2026-12-06T20:00:00-05:00"
    assert kr.iso(kr.end_of_day(date(2026, 12, 7))) == "2026-12-08T00:00:00-05:00"
    # East: New York, then Seoul from 2026-12-08 00:00Z: a time the clock jumped over comes at the change.
    us = Model("America/New_York")
    e = datetime(2026, 12, 8, 0, 0, tzinfo=UTC)
    us.change_zone(e, "Asia/Seoul")
    assert us.instant(date(2026, 12, 7), "22:00") == e and us.instant(date(2026, 12, 8), "08:00") == e
    assert us.iso(us.instant(date(2026, 12, 8), "10:00")) == "2026-12-08T10:00:00+09:00"
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
    at = lambda hh, mm, off=-5, day=1: datetime(2026, 11, day, hh, mm, tzinfo=timezone(timedelta(hours=off))).astimezone(UTC)
    noon = at(12, 0)
    # 01:30 EDT = 05:30Z; its next slot 23:30 EST = 04:30Z on the 2nd: C = max(07:30Z, min(02:30Z, 05:30Z)) on
    # the 2nd = 21:30 EST on the 1st. 23:30's next slot is 01:30 EST on the 2nd (06:30Z): C = T + W = 01:30.
    assert m.cutoff(s130) == at(21, 30) and m.cutoff(s2330) == at(1, 30, day=2)
    assert m.pick_at("A", at(2, 30), noon) == ("slot", s130, None)
    e130 = m.log_take("A", at(2, 31), s130, noon)
    assert m.status(s130, noon)[0] == "taken_late"
    assert m.late_minutes(s130, *m.status(s130, noon)) == 121
    assert m.pick_at("A", at(3, 0), noon) == ("refuse", s130, e130)          # resolved: refused, named
    assert m.status(s2330, noon)[0] == "upcoming" and m.status(s2330, at(23, 31))[0] == "due"
    assert m.status(s2330, at(1, 29, day=2))[0] == "due"                      # past midnight, still open
    assert m.day_row(d, at(0, 30, day=2))["state"] == "pending"               # a past day with an open slot
    closed = at(1, 30, day=2)
    assert m.status(s2330, closed)[0] == "missed" and m.late_minutes(s2330, "missed", None) == 120
    assert m.day_row(d, noon)["state"] == "pending"
    assert m.day_row(d, closed)["state"] == "pending"       # C's 08:00 is open until 08:00 on the 2nd
    assert m.day_row(d, closed, ["A"])["state"] == "partial"
    closed = at(8, 0, day=2)
    assert m.day_row(d, closed)["state"] == "partial"
    assert m.day_row(d + timedelta(days=1), closed + timedelta(hours=12), ["C"])["state"] == "rest"
    e = m.log_skip("A", at(23, 0), s2330, at(23, 1))
    assert m.day_row(d, closed) == {"day": "2026-11-01", "state": "partial", "total": 3, "taken": 1, "on_time": 0,
                                    "late": 1, "early": 0, "skipped": 1, "missed": 1}
    m.undo("A")
    assert e.undone and m.status(s2330, closed)[0] == "missed"
    f = m.figures(d, d, closed)
    assert (f["adherence"], f["on_time"], f["mean_late_minutes"]) == (33, 0, 121)
    assert m.most_late_slot("A", d, d, closed) == "01:30"   # 1 late + 0 vs 1 missed: a tie, the earlier time

    # The cases (issue 21), New York in November (EST, -05:00).
    n = Model("America/New_York")
    a20 = lambda hh, mm, day=20: at(hh, mm, day=day)
    n.add("Yaz", None, Version(date.min, "daily", ("22:00",), start=date(2026, 11, 1)), added=a20(9, 0, 1))
    y20 = n.slots("Yaz", date(2026, 11, 20))[0]
    assert n.cutoff(y20) == a20(20, 0, 21)                    # late until 20:00 the next evening
    assert n.pick_take("Yaz", a20(0, 30, 21)) == ("slot", y20)  # 00:30: last night's dose
    n.log_take("Yaz", a20(0, 30, 21), y20, a20(0, 30, 21))
    assert n.status(y20, a20(0, 31, 21))[0] == "taken_late"
    assert n.status(n.slots("Yaz", date(2026, 11, 21))[0], a20(0, 31, 21))[0] == "upcoming"
    assert n.pick_take("Yaz", a20(0, 31, 21))[0] == "refuse"

    n.add("Amox", None, Version(date.min, "daily", ("08:00", "14:00", "20:00"), start=date(2026, 11, 20)),
          added=a20(7, 0), stock=3000)
    s8, s14, s20 = n.slots("Amox", date(2026, 11, 20))
    n.log_take("Amox", a20(8, 0), s8, a20(8, 0))
    assert n.cutoff(s14) == a20(18, 0) and n.status(s14, a20(20, 10))[0] == "missed"
    assert n.pick_all(a20(20, 10), True)["Amox"] == s20       # one dose of Amox, not two
    assert n.late_minutes(s14, "missed", None) == 240 and n.meds["Amox"].stock == 2900

    n.add("Met", None, Version(date.min, "daily", ("08:00", "20:00"), start=date(2026, 11, 20)), added=a20(6, 0))
    m8 = n.slots("Met", date(2026, 11, 20))[0]
    em = n.log_take("Met", a20(7, 50), m8, a20(7, 50))
    assert n.pick_at("Met", a20(8, 5), a20(12, 40)) == ("refuse", m8, em)
    assert n.pick_at_other("Met", a20(8, 5), a20(12, 40)) == ("refuse", None)

    # Tracking start: a 21/7 cycle from the 1st, added on the 20th at 10:00.
    n.add("Cyc", None, Version(date.min, "cycle", ("22:00",), active=21, rest=7, start=date(2026, 11, 1)),
          added=a20(10, 0))
    assert n.day_row(date(2026, 11, 5), a20(12, 0), ["Cyc"])["state"] == "none"
    assert n.figures(date(2026, 11, 1), date(2026, 11, 20), a20(12, 0), ["Cyc"])["adherence"] is None
    c19 = n.slots("Cyc", date(2026, 11, 19))[0]
    assert n.pick_at("Cyc", a20(22, 30, 19), a20(12, 0)) == ("slot", c19, None)   # back-dating: untracked too
    n.log_take("Cyc", a20(22, 30, 19), c19, a20(12, 0))
    assert n.day_row(date(2026, 11, 19), a20(12, 0), ["Cyc"])["taken"] == 1

    # Streak: a pending past day is neutral; a closed one breaks.
    k = Model("UTC")
    u = lambda day, hh, mm=0: datetime(2026, 11, day, hh, mm, tzinfo=UTC)
    k.add("E", None, Version(date.min, "daily", ("22:00",), start=date(2026, 11, 10)), added=u(10, 8))
    for day in (10, 11):
        k.log_take("E", u(day, 22, 5), k.slots("E", date(2026, 11, day))[0], u(day, 22, 5))
    assert k.streak(u(13, 0, 30)) == (2, "pending", False)      # the 12th's 22:00 is still open: neutral
    k.log_take("E", u(13, 0, 30), k.slots("E", date(2026, 11, 12))[0], u(13, 0, 30))
    assert k.streak(u(13, 0, 31)) == (3, "pending", False)
    assert k.streak(u(14, 20, 0)) == (0, "pending", False)      # the 13th closed at 20:00 on the 14th: missed


if __name__ == "__main__":
    selftest()
    print("history_model self-test passed")
