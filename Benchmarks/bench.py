#!/usr/bin/env python3
"""dosebar's benchmark (DESIGN §8): floors, `take` and `export` over scenario databases,
and what users do today, measured with hyperfine in one run and printed as one table of
means and ratios. Run it through `scripts/bench`; `--help` lists the knobs.
"""

import argparse
import ctypes
import glob
import datetime
import hashlib
import json
import os
import platform
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "Benchmarks")
NOW = "2026-11-20T12:10:00+09:00"       # generate.py's "now": Aspirin's 12:00 dose is due
TODAY = "2026-11-20"
TZ = "Asia/Seoul"
SHARED_FILES = ["timeline.json", "snapshot.json", "snapshot.txt", "waybar.json", "polybar.txt",
                "tmux.txt", "conky.txt", "i3blocks.txt"]
HISTORY_NAMES = {"1m": "1 month", "20y": "20 years"}


# What `history`, `stats` and `report` are measured with: a year ending at NOW ({from} = 364 days before).
YEAR_COMMANDS = [("history", ["history", "--from", "{from}", "--json"]),
                 ("stats", ["stats", "--days", "365", "--json"]),
                 ("report", ["report", "--from", "{from}", "--format", "html"])]

def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Hyperfine:
    """Runs hyperfine (no intermediate shell: -N), keeps its full output in a log file."""

    def __init__(self, run_dir, runs, warmup):
        self.run_dir, self.runs, self.warmup = run_dir, runs, warmup
        self.logfile = open(os.path.join(run_dir, "hyperfine.log"), "w")
        self.results = {}

    def measure(self, key, label, command, env=None, prepare=None, runs=None, warmup=None):
        out = os.path.join(self.run_dir, "hf.json")
        args = ["hyperfine", "-N", "--style", "basic", "--export-json", out,
                "--warmup", str(self.warmup if warmup is None else warmup),
                "--runs", str(self.runs if runs is None else runs), "--command-name", label]
        if prepare:
            args += ["--prepare", prepare]
        args.append(command)
        self.logfile.write(f"\n### {label}\n$ {' '.join(args)}\n")
        self.logfile.flush()
        r = subprocess.run(args, env=env, stdout=self.logfile, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            sys.exit(f"bench: hyperfine failed on '{label}' (see {self.logfile.name})")
        with open(out) as f:
            res = json.load(f)["results"][0]
        self.results[key] = res
        log(f"  {label:<52} {ms(res['mean']):>9} ± {ms(res['stddev'])}")
        return res


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


# DESIGN §4: timeline.json ≤ 100 KB with 50 medicines, ≤ 2 MB with 1,000.
TIMELINE_BUDGET = {50: 100_000, 1000: 2_000_000}


def size_text(n):
    return f"{n / 1e6:.1f} MB" if n >= 1e7 else f"{n / 1e6:.2f} MB" if n >= 1e6 else f"{n / 1e3:.1f} KB"


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


# --- building --------------------------------------------------------------------------------

def build(static):
    """The release binary. Static (as `make install` ships it, DESIGN §6) builds in its own
    scratch folder: --static-swift-stdlib changes every compile command, so sharing `.build`
    with the usual dynamic release build would recompile everything at each switch."""
    args = ["swift", "build", "-c", "release", "--product", "dosebar"]
    if static:
        args += ["--static-swift-stdlib", "--scratch-path", ".build-bench"]
    log(f"$ {' '.join(args)}")
    if subprocess.run(args, cwd=ROOT, stdout=sys.stderr).returncode != 0:
        sys.exit("bench: the release build failed (above); a source file being edited meanwhile? run again, "
                 "or pass --bin PATH")
    path = subprocess.run(args[:4] + args[6:] + ["--show-bin-path"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(path, "dosebar")


def floors_programs(work):
    """Compiles the hello programs of the floors in a temporary directory."""
    progs = {}
    c = os.path.join(work, "hello.c")
    with open(c, "w") as f:
        f.write('#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n')
    if shutil.which("cc"):
        sh(["cc", "-O2", "-o", os.path.join(work, "hello-c"), c])
        progs["c"] = os.path.join(work, "hello-c")
    else:
        log("  (C hello left out: no C compiler `cc`; apt-get install gcc)")
    s = os.path.join(work, "hello.swift")
    with open(s, "w") as f:
        f.write('import Foundation\nprint("hello \\(Date().timeIntervalSince1970)")\n')
    for kind, extra in (("dynamic", []), ("static", ["-static-stdlib"])) if shutil.which("swiftc") else ():
        out = os.path.join(work, f"hello-swift-{kind}")
        r = subprocess.run(["swiftc", "-O", *extra, "-o", out, s], capture_output=True, text=True)
        if r.returncode == 0:
            progs[f"swift-{kind}"] = out
        else:
            log(f"  (Swift hello, {kind}: does not build here, left out: {r.stderr.strip()[:200]})")
    with open(os.path.join(work, "1k.txt"), "w") as f:
        f.write(("dosebar floor " * 80)[:1023] + "\n")
    db = os.path.join(work, "floor.sqlite")
    sh(["sqlite3", db, "PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER, at REAL);"],
       stdout=subprocess.DEVNULL)
    progs["sqlite-db"] = db
    return progs


# --- scenarios -------------------------------------------------------------------------------

def scenario_key():
    h = hashlib.sha256()
    for p in ("Benchmarks/generate.py", "Sources/DoseStore/Schema.swift"):
        with open(os.path.join(ROOT, p), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:10]


def scenario(data, binary, meds, history, extras):
    """The cached scenario directory, generated on first use."""
    d = os.path.join(data, "scenarios", f"{meds}-{history}-{scenario_key()}")
    if not os.path.exists(os.path.join(d, "info.json")):
        for old in glob.glob(os.path.join(data, "scenarios", f"{meds}-{history}-*")):
            shutil.rmtree(old)      # made by an older generator or schema: up to 770 MB each
        log(f"  generating {meds} medicines × {HISTORY_NAMES[history]} into {d} (once) …")
        args = [sys.executable, os.path.join(BENCH, "generate.py"), "--dosebar", binary, "--meds", str(meds),
                "--history", history, "--out", d]
        if extras:
            args += ["--jsonl", "--habitrack"]
        sh(args)
    with open(os.path.join(d, "info.json")) as f:
        return d, json.load(f)


def checkpoint(db):
    """Moves what the log (-wal) holds into the database file, so that the file alone is the whole
    database: dosebar leaves its log in place when it exits (no checkpoint at close), as SQLite
    does while another connection, the daemon's, is open."""
    sh(["sqlite3", db, "PRAGMA wal_checkpoint(TRUNCATE)"], capture_output=True)


def fresh_copy(src_dir, dst_dir):
    """Copies the scenario's database so every run starts from the same state."""
    if os.path.exists(dst_dir):
        shutil.rmtree(dst_dir)
    os.makedirs(dst_dir)
    checkpoint(os.path.join(src_dir, "dosebar.sqlite"))
    shutil.copyfile(os.path.join(src_dir, "dosebar.sqlite"), os.path.join(dst_dir, "dosebar.sqlite"))
    os.chmod(os.path.join(dst_dir, "dosebar.sqlite"), 0o600)
    return os.path.join(dst_dir, "dosebar.sqlite")


# What writes a device's sync file: the cached file is made again when one of them changes.
SYNC_SOURCES = ["Sources/DoseApp/Sync/SyncJournal.swift", "Sources/DoseApp/Sync/SyncOperation.swift",
                "Sources/DoseApp/Sync/SyncService.swift", "Sources/DoseCore/Sync/SyncClock.swift"]


def sync_file(data, binary, src, meds, history):
    """Another device's sync file (DESIGN §10) holding a scenario's whole history: `dosebar sync
    init` run once on a copy of the scenario's database, cached beside the scenarios under a key of
    the scenario and the code that writes the file. Returns its directory and info.json (the
    device, the operations, Aspirin's global id and the last stamp: what a forged take needs)."""
    h = hashlib.sha256(scenario_key().encode())
    for p in SYNC_SOURCES:
        with open(os.path.join(ROOT, p), "rb") as f:
            h.update(f.read())
    d = os.path.join(data, "scenarios", f"{meds}-{history}-sync-{h.hexdigest()[:10]}")
    if not os.path.exists(os.path.join(d, "info.json")):
        for old in glob.glob(os.path.join(data, "scenarios", f"{meds}-{history}-sync-*")):
            shutil.rmtree(old)
        log(f"  writing the sync file of {meds} medicines × {HISTORY_NAMES[history]} into {d} (once) …")
        tmp = d + ".tmp"
        db = fresh_copy(src, tmp)
        started = time.monotonic()
        run_ok([binary, "sync", "init", os.path.join(tmp, "Sync")], dosebar_env(db, os.path.join(tmp, "shared")))
        seconds = time.monotonic() - started
        [path] = glob.glob(os.path.join(tmp, "Sync", "dosebar", "*.jsonl"))
        info = {"device": os.path.basename(path)[:-len(".jsonl")], "operations": 0, "bytes": os.path.getsize(path),
                "init_seconds": round(seconds, 2)}
        with open(path) as f:
            for line in f:
                op = json.loads(line)
                info["operations"] += 1
                info["last_stamp"] = op["stamp"]
                if op["kind"] == "add" and op.get("name") == "Aspirin":
                    info["aspirin"] = op["medicine"]
        os.makedirs(d)
        os.rename(path, os.path.join(d, info["device"] + ".jsonl"))
        with open(os.path.join(d, "info.json"), "w") as f:
            json.dump(info, f)
        shutil.rmtree(tmp)
    with open(os.path.join(d, "info.json")) as f:
        return d, json.load(f)


# Run by hyperfine before each `sync now` of one new operation: the other device appends one take
# of Aspirin's 12:00 dose (2026-11-20T12:00:00+09:00 = 1795143600, a second later each run; a new id,
# a stamp after every one before) to its file.
APPEND_TAKE = """import json, sys, uuid
path, device, gid, millis = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(path + ".count", "a+") as f:
    f.seek(0)
    n = len(f.read())
    f.write("x")
op = {"at": 1795143600 + n, "day": "2026-11-20", "device": device, "id": str(uuid.uuid4()), "kind": "take",
      "medicine": gid, "slot": "12:00", "stamp": f"{millis + n + 1:013d}-00000-{device}", "units": 1}
with open(path, "a") as f:
    f.write(json.dumps(op, sort_keys=True, separators=(",", ":")) + "\\n")
"""


def fresh_device(binary, run_dir, shm, name):
    """A device that has nothing yet, syncing through an empty folder (`sync init`), and a script
    that puts its database back as it is now, for hyperfine's --prepare.
    Returns (work directory, environment, sync folder, reset script)."""
    work = os.path.join(run_dir, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "dosebar.sqlite")
    env = dosebar_env(db, os.path.join(shm, name))
    folder = os.path.join(work, "Sync")
    run_ok([binary, "sync", "init", folder], env)
    fresh = os.path.join(work, "fresh.sqlite")
    checkpoint(db)
    shutil.copyfile(db, fresh)
    reset = os.path.join(work, "reset.sh")
    with open(reset, "w") as f:
        f.write(f"cp {fresh} {db} && rm -f {db}-wal {db}-shm\n")
    return work, env, folder, reset


def sync_bench(hf, binary, data, src, run_dir, shm, n, history, a):
    """`sync now` on a device that has nothing yet, with another device's whole history in its
    folder; then `sync now` with one new take in that file, to hold against `take`."""
    d, inf = sync_file(data, binary, src, n, history)
    name = f"{n} med{'s' if n > 1 else ''} × {HISTORY_NAMES[history]}"
    work, env, folder, reset = fresh_device(binary, run_dir, shm, f"sync-{n}-{history}")
    other = os.path.join(folder, "dosebar", inf["device"] + ".jsonl")
    shutil.copyfile(os.path.join(d, inf["device"] + ".jsonl"), other)
    log(f"  (another device's file: {inf['operations']:,} operations, {size_text(inf['bytes'])}; "
        f"its sync init took {ms(inf['init_seconds'])})")
    hf.measure(("sync-all", n, history), f"sync now, a fresh device: {name}", f"{binary} sync now", env=env,
               prepare=f"sh {reset}", runs=min(a.runs, 3), warmup=0)
    hf.results[("sync-all-info", n, history)] = inf
    appender = os.path.join(work, "append-take.py")
    with open(appender, "w") as f:
        f.write(APPEND_TAKE)
    millis = int(inf["last_stamp"].split("-")[0])
    hf.measure(("sync-one", n, history), f"sync now, one new take: {name}", f"{binary} sync now", env=env,
               prepare=f"{sys.executable} {appender} {other} {inf['device']} {inf['aspirin']} {millis}")
    shutil.rmtree(work)


# Another device's file of N takes of one slot (DESIGN §10: applying costs time linear in the lines
# read): a medicine it added, then N takes of its 08:00 dose of 2026-11-20, a second apart — one dose
# and N − 1 duplicates, every one of which the slot's set of doses must be checked against.
SLOT_FILE = """import json, sys, uuid
path, n = sys.argv[1], int(sys.argv[2])
# Each line is stamped just after what it records (a take's instant may not be after its stamp).
device, gid, at = "0123456789abcdef", str(uuid.uuid4()), 1795129200
def line(op, millis):
    op.update({"device": device, "id": str(uuid.uuid4()), "medicine": gid, "stamp": f"{millis:013d}-00000-{device}"})
    return json.dumps(op, sort_keys=True, separators=(",", ":")) + "\\n"
with open(path, "w") as f:
    f.write(line({"kind": "add", "name": "Aspirin", "per_dose": 1, "low_days": 7}, at * 1000 - 2))
    f.write(line({"kind": "schedule", "effective": "2026-11-01", "schedule": {"kind": "daily", "start": "2026-11-01",
                                                                             "times": ["08:00"], "window": 7200}}, at * 1000 - 1))
    for i in range(n):
        f.write(line({"kind": "take", "day": "2026-11-20", "slot": "08:00", "at": at + i, "units": 1}, (at + i) * 1000 + 500))
"""

SLOT_COUNTS = (1_000, 5_000)
SLOT_BUDGET = 1.0   # seconds for 5,000 takes of one slot (DESIGN §10: linear; "well under a second")


def slot_bench(hf, binary, run_dir, shm, a):
    """`sync now` on a fresh device with another device's file of N takes of one slot."""
    for n in SLOT_COUNTS:
        work, env, folder, reset = fresh_device(binary, run_dir, shm, f"slot-{n}")
        writer = os.path.join(work, "slot-file.py")
        with open(writer, "w") as f:
            f.write(SLOT_FILE)
        run_ok([sys.executable, writer, os.path.join(folder, "dosebar", "0123456789abcdef.jsonl"), str(n)], env)
        hf.measure(("sync-slot", n), f"sync now, {n:,} takes of one slot", f"{binary} sync now", env=env,
                   prepare=f"sh {reset}", runs=min(a.runs, 5), warmup=0)
        # What was timed must be the work: every line applied, none skipped, the slot taken once.
        status = subprocess.run([binary, "sync", "status"], env=env, capture_output=True, text=True).stdout
        day = json.loads(subprocess.run([binary, "history", "--json", "--from", "2026-11-20", "--to", "2026-11-20"],
                                        env=env, capture_output=True, text=True).stdout)[0]
        if f"{n + 2} operations applied" not in status or "skipped" in status or day.get("taken") != 1:
            sys.exit(f"bench: the {n:,}-take sync file did not apply as written (sync status: {status!r}; day: {day})")
        shutil.rmtree(work)


# --- import dosage ------------------------------------------------------------------------------

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


def dosebar_env(db, shared):
    env = dict(os.environ, DOSEBAR_DB=db, DOSEBAR_DIR=shared, DOSEBAR_NOW=NOW, TZ=TZ, LANG="C.UTF-8",
               XDG_CONFIG_HOME=os.path.join(os.path.dirname(db), "config"))
    env.pop("LC_ALL", None)
    return env


def run_ok(args, env):
    r = subprocess.run(args, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


# --- instruction counts -----------------------------------------------------------------------

def instructions(args, env, prepare=None):
    """Instructions executed in user space (valgrind --tool=callgrind), one run: unlike wall time
    it does not move with the other core's load, so it shows flatness in history length
    exactly. It does not see time spent waiting on the kernel (fsync, page faults)."""
    if prepare:
        prepare()
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args],
                       env=env, capture_output=True, text=True)
    for line in r.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    log(f"  (callgrind failed on {' '.join(args)}: {r.stderr.strip()[-300:]})")
    return None


def no_debug_copy(binary, run_dir):
    """valgrind 3.19 cannot read the DWARF 5 of Swift binaries: a copy without debug info (the
    symbol table stays, so profiles still name functions)."""
    out = os.path.join(run_dir, "dosebar-nodebug")
    sh(["objcopy", "--strip-debug", binary, out])
    return out


# --- binary size ------------------------------------------------------------------------------

def binary_sizes(binary, run_dir):
    """The binary as built and as `make install` ships it (`strip`: no symbol table, no debug
    info; the loaded segments are byte-identical, so every time measured here holds for both),
    and what the installed bytes are (`size -A`, `nm -S`)."""
    if not (shutil.which("strip") and shutil.which("size") and shutil.which("nm")):
        log("  (binary size left out: strip/size/nm missing; apt-get install binutils)")
        return None
    stripped = os.path.join(run_dir, "dosebar-stripped")
    sh(["strip", "-o", stripped, binary])
    sections = {}
    for line in subprocess.run(["size", "-A", binary], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1].isdigit():
            sections[f[0]] = int(f[1])
    icu = 0
    for line in subprocess.run(["nm", "-S", binary], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[3].startswith("icudt"):
            icu += int(f[1], 16)
    out = {"unstripped": os.path.getsize(binary), "stripped": os.path.getsize(stripped), "icu": icu,
           "debug": sum(v for k, v in sections.items() if k.startswith(".debug")),
           "text": sections.get(".text", 0), "rodata": sections.get(".rodata", 0),
           "eh_frame": sections.get(".eh_frame", 0) + sections.get(".eh_frame_hdr", 0)}
    log(f"  binary: {size_text(out['unstripped'])} as built, {size_text(out['stripped'])} stripped (as installed)")
    return out


# --- inotify ----------------------------------------------------------------------------------

IN_MODIFY, IN_MOVED_TO = 0x2, 0x80


class Inotify:
    """inotify through libc (ctypes): watches on directories, events stamped when read."""

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_CLOEXEC | os.O_NONBLOCK)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")

    def watch(self, path, mask):
        wd = self.libc.inotify_add_watch(self.fd, path.encode(), mask)
        if wd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_add_watch {path}")
        return wd

    def drain(self):
        while select.select([self.fd], [], [], 0)[0]:
            os.read(self.fd, 65536)

    def read(self):
        """[(wd, mask, name)] of one read (call when select says the fd is readable)."""
        buf, out, i = os.read(self.fd, 65536), [], 0
        while i < len(buf):
            wd, mask, _, length = struct.unpack_from("iIII", buf, i)
            out.append((wd, mask, buf[i + 16:i + 16 + length].rstrip(b"\0").decode()))
            i += 16 + length
        return out

    def close(self):
        os.close(self.fd)


# --- take → file changed, without the daemon ---------------------------------------------------

def take_to_file(binary, env, shared, n, target="waybar.json"):
    """Instant from starting `dosebar take` to `target` being renamed into place (inotify on the
    directory), and to the process exit. Each take is preceded by an untimed undo."""
    try:
        ino = Inotify()
        ino.watch(shared, IN_MOVED_TO)
    except OSError as e:
        log(f"  (take → file left out: {e})")
        return None
    changed, exited = [], []
    try:
        for _ in range(n):
            run_ok([binary, "undo", "Aspirin"], env)
            ino.drain()
            t0 = time.perf_counter()
            p = subprocess.Popen([binary, "take", "Aspirin"], env=env, stdout=subprocess.DEVNULL)
            seen = None
            while seen is None:
                if not select.select([ino.fd], [], [], 5)[0]:
                    break
                events = ino.read()
                t = time.perf_counter()
                if any(name == target and mask & IN_MOVED_TO for _, mask, name in events):
                    seen = t
            p.wait()
            t2 = time.perf_counter()
            if seen is None or p.returncode != 0:
                return None
            changed.append(seen - t0)
            exited.append(t2 - t0)
    finally:
        ino.close()
    return {"changed": statistics.mean(changed), "changed_median": statistics.median(changed),
            "exited": statistics.mean(exited), "n": n}


# --- the daemon on the real clock ---------------------------------------------------------------

NO_NUDGES = "[nudge]\nwaybar_signal = 0\npolybar = false\ntmux = false\ni3blocks_signal = 0\n"


def memory(pid):
    """VmRSS of a process and its anonymous part (RssAnon: heap, stacks; the rest is mostly the
    binary's own pages, clean and shared), in bytes."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmRSS", "RssAnon", "RssFile"):
                out[key] = int(line.split()[1]) * 1024
    return out


def cpu_seconds(pid):
    """User + system CPU time of a process so far (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(condition, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def counters(text):
    """The fields of the daemon's last counters line (`wakeups=… deadlines=… epoll_returns=…`)."""
    lines = [l for l in text.splitlines() if "wakeups=" in l]
    if not lines:
        return None
    return {k: int(v) for k, v in (f.split("=", 1) for f in lines[-1].split() if "=" in f) if v.isdigit()}


def daemon_bench(binary, run_dir, shm, n, takes=20, idle=5.0):
    """`dosebar daemon` on the real clock (no DOSEBAR_NOW: the daemon's timer needs one), on n
    medicines × 1 month generated to end now (generate.py --now: days without data since the
    last one would make every refresh costlier, and more so as the real date moves on) plus an
    as-needed Ibuprofen. Taking Ibuprofen changes every bar file at any hour (the tooltip counts
    it), so what is measured does not depend on when the bench runs.

    1. start → VmRSS; 2. `idle` seconds alone, then SIGUSR1 → its counters line (wake-ups that
    were not timeline entries: the SIGUSR1 itself only); 3. `dosebar watch --format waybar` on
    a pipe, then `takes` × `dosebar take Ibuprofen` from another process whose DOSEBAR_DIR is
    elsewhere, so only the daemon writes the watched directory: the instants of the take's spawn,
    its first database write (IN_MODIFY on the database directory), snapshot.json and
    waybar.json renamed into the shared directory (IN_MOVED_TO), and the watch's next line;
    4. VmRSS after the takes. The bars' nudges are off: they come after the write, and on a
    shared machine they would signal other people's waybar and tmux."""
    work = os.path.join(run_dir, f"daemon-{n}")
    now = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
    sh([sys.executable, os.path.join(BENCH, "generate.py"), "--dosebar", binary, "--meds", str(n),
        "--history", "1m", "--now", now, "--out", work], stderr=subprocess.DEVNULL)
    db = os.path.join(work, "dosebar.sqlite")
    shared = os.path.join(shm, f"daemon-{n}")
    env = dosebar_env(db, shared)
    del env["DOSEBAR_NOW"]
    os.makedirs(os.path.join(work, "config", "dosebar"))
    with open(os.path.join(work, "config", "dosebar", "config.toml"), "w") as f:
        f.write(NO_NUDGES)
    run_ok([binary, "add", "Ibuprofen", "--as-needed"], env)
    take_env = dict(env, DOSEBAR_DIR=os.path.join(work, "elsewhere"))
    res = {"n": n, "takes": takes, "idle": idle}
    errpath = os.path.join(work, "daemon.stderr")
    stderr_text = lambda: open(errpath, errors="replace").read()
    procs = []
    ino = None
    try:
        with open(errpath, "w") as err:
            d = subprocess.Popen([binary, "daemon"], env=env, stdout=subprocess.DEVNULL, stderr=err)
        procs.append(d)
        lock = os.path.join(shared, "daemon.lock")

        def ready():
            try:
                with open(lock) as f:
                    return f.read().strip() == str(d.pid) and os.path.exists(os.path.join(shared, "waybar.json"))
            except OSError:
                return False
        if not wait_for(ready, 20):
            log(f"  (daemon, {n} meds: did not start: {stderr_text().strip()[-300:]})")
            return None
        time.sleep(0.2)
        res["mem_start"] = memory(d.pid)

        time.sleep(idle)
        os.kill(d.pid, signal.SIGUSR1)
        if wait_for(lambda: counters(stderr_text()) is not None, 5):
            c = counters(stderr_text())
            res["idle_counters"] = c
            res["idle_line"] = [l for l in stderr_text().splitlines() if "wakeups=" in l][-1]
        else:
            log(f"  (daemon, {n} meds: no counters line after SIGUSR1: {stderr_text().strip()[-300:]})")

        w = subprocess.Popen([binary, "watch", "--format", "waybar"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        procs.append(w)
        wfd = w.stdout.fileno()
        os.set_blocking(wfd, False)
        if not select.select([wfd], [], [], 10)[0] or b"\n" not in os.read(wfd, 1 << 20):
            log(f"  (daemon, {n} meds: dosebar watch printed no first line)")
            return None
        ino = Inotify()
        db_wd = ino.watch(os.path.dirname(db), IN_MODIFY)
        dir_wd = ino.watch(shared, IN_MOVED_TO)
        rows = []
        cpu0 = cpu_seconds(d.pid)
        for _ in range(takes):
            time.sleep(0.1)       # the previous change has settled
            ino.drain()
            while select.select([wfd], [], [], 0)[0] and os.read(wfd, 1 << 20):
                pass
            t = {}
            t0 = time.perf_counter()
            p = subprocess.Popen([binary, "take", "Ibuprofen"], env=take_env, stdout=subprocess.DEVNULL)
            while time.perf_counter() - t0 < 5 and not ({"waybar", "snapshot", "line"} <= t.keys() and "exit" in t):
                ready_fds = select.select([ino.fd, wfd], [], [], 0.002)[0]
                now = time.perf_counter()
                if "exit" not in t and p.poll() is not None:
                    t["exit"] = now
                if ino.fd in ready_fds:
                    for wd, mask, name in ino.read():
                        if wd == db_wd and "write" not in t:
                            t["write"] = now
                        if wd == dir_wd and name == "waybar.json":
                            t.setdefault("waybar", now)
                        if wd == dir_wd and name == "snapshot.json":
                            t.setdefault("snapshot", now)
                if wfd in ready_fds and "line" not in t and b"\n" in os.read(wfd, 1 << 20):
                    t["line"] = now
            p.wait()
            if p.returncode != 0 or not {"write", "waybar", "line"} <= t.keys():
                log(f"  (daemon, {n} meds: a take did not reach the directory or the watch: got {sorted(t)}, "
                    f"take exit {p.returncode}; {stderr_text().strip()[-300:]})")
                return None
            rows.append({k: v - t0 for k, v in t.items()})
        res["rows"] = rows
        res["cpu_per_take"] = (cpu_seconds(d.pid) - cpu0) / takes
        res["mem_after"] = memory(d.pid)
        d.send_signal(signal.SIGTERM)
        d.wait(10)
        res["exit_line"] = [l for l in stderr_text().splitlines() if "wakeups=" in l][-1:]
        return res
    finally:
        if ino:
            ino.close()
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()


# --- main --------------------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description="dosebar benchmark (DESIGN §8)")
    p.add_argument("--bin", help="benchmark this dosebar binary instead of building one")
    p.add_argument("--dynamic", action="store_true",
                   help="build without --static-swift-stdlib (default: static, as `make install` ships it)")
    p.add_argument("--meds", help="medicine counts (default 1,50,1000; --quick: 1,50)")
    p.add_argument("--histories", default="1m,20y", help="history lengths (default 1m,20y)")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--no-compare", action="store_true", help="skip bash+jq and habitrack")
    p.add_argument("--no-instructions", action="store_true", help="skip the callgrind instruction counts")
    p.add_argument("--no-daemon", action="store_true",
                   help="skip the daemon rows (take → file and → watch line, RSS, idle wake-ups)")
    p.add_argument("--quick", action="store_true", help="1 and 50 medicines, 5 runs: a smoke test")
    p.add_argument("--sizes", action="store_true",
                   help="only the timeline.json size rows (50 and 1,000 medicines × 1 month against the DESIGN §4 "
                        "budget): no timing, no floors; any build will do (--bin .build/debug/dosebar)")
    p.add_argument("--data", default=os.environ.get("DOSEBAR_BENCH_DATA", "/var/tmp/dosebar-bench"),
                   help="where scenario databases are cached and runs happen (a disk, like a real database)")
    a = p.parse_args()
    if a.quick:
        a.runs, a.warmup = 5, 1
    a.meds = a.meds or ("1,50" if a.quick else "1,50,1000")
    meds = [int(x) for x in a.meds.split(",")]
    histories = a.histories.split(",")
    if not a.no_instructions and not (shutil.which("valgrind") and shutil.which("objcopy")):
        log("bench: valgrind or objcopy missing: no instruction counts (apt-get install valgrind binutils)")
        a.no_instructions = True
    for tool in () if a.sizes else ("hyperfine", "sqlite3"):    # scripts/bench installs them when missing
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} is missing (apt-get install -y {tool})")
    if not a.bin and not shutil.which("swift"):
        sys.exit("bench: no Swift toolchain (`swift` not on PATH) to build dosebar; or pass --bin PATH")

    binary_src = a.bin or build(static=not a.dynamic)
    os.makedirs(a.data, exist_ok=True)
    run_dir = os.path.join(a.data, "run")
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    binary = os.path.join(run_dir, "dosebar")       # a copy: a rebuild meanwhile cannot swap it
    shutil.copy2(binary_src, binary)
    if a.sizes:
        sizes_only(a, binary, run_dir)
        return
    sizes = binary_sizes(binary, run_dir)
    linked = "static Swift runtime" if "libswiftCore" not in subprocess.run(
        ["ldd", binary], capture_output=True, text=True).stdout else "dynamic Swift runtime"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    shm_base = runtime if runtime and os.path.isdir(runtime) else "/dev/shm"
    shm = tempfile.mkdtemp(prefix="dosebar-bench-", dir=shm_base)
    hf = Hyperfine(run_dir, a.runs, a.warmup)
    hf.results["load"] = [loadavg()]
    if sizes:
        hf.results["binary"] = sizes
    info = {}
    try:
        log(f"\n== floors ({run_dir}, shared directories in {shm}) ==")
        progs = floors_programs(run_dir)
        env0 = dict(os.environ)
        hf.measure("cat", "cat of a 1 KB file", f"cat {run_dir}/1k.txt")
        if "c" in progs:
            hf.measure("c", "C hello", progs["c"])
        for kind in ("dynamic", "static"):
            if f"swift-{kind}" in progs:
                hf.measure(f"swift-{kind}", f"Swift hello with Foundation ({kind})", progs[f"swift-{kind}"])
        hf.measure("insert", "sqlite3 CLI: insert one row (WAL)",
                   f"sqlite3 {progs['sqlite-db']} \"INSERT INTO t (x, at) VALUES (1, unixepoch())\"")
        hf.measure("insert-normal", "sqlite3 CLI: insert one row (WAL, synchronous=NORMAL)",
                   f"sqlite3 {progs['sqlite-db']} \"PRAGMA synchronous = NORMAL; INSERT INTO t (x, at) VALUES (1, unixepoch())\"")
        hf.measure("version", f"dosebar --version ({linked})", f"{binary} --version", env=env0)
        nodebug = None if a.no_instructions else no_debug_copy(binary, run_dir)
        ir = hf.results.setdefault("ir", {})
        if nodebug:
            ir["insert"] = instructions(["sqlite3", progs["sqlite-db"], "INSERT INTO t (x, at) VALUES (1, unixepoch())"], env0)
            ir["version"] = instructions([nodebug, "--version"], env0)

        log("\n== sync: another device's takes of one slot ==")
        slot_bench(hf, binary, run_dir, shm, a)
        log("\n== import dosage: 3 years ==")
        import_bench(hf, binary, run_dir, shm, a)

        for n in meds:                   # 1 month and 20 years back to back: same load on the machine
            for history in histories:
                extras = history == "20y" and n <= 50 and not a.no_compare
                src, inf = scenario(a.data, binary, n, history, extras)
                info[(n, history)] = inf
                name = f"{n} med{'s' if n > 1 else ''} × {HISTORY_NAMES[history]}"
                log(f"\n== {name}: {inf['events']} events, {inf['db_bytes'] / 1e6:.0f} MB ==")
                work = os.path.join(run_dir, f"{n}-{history}")
                db = fresh_copy(src, work)
                shared = os.path.join(shm, f"{n}-{history}")
                env = dosebar_env(db, shared)
                run_ok([binary, "export", "--quiet"], env)
                timeline_size(hf, shared, n, history)
                rm = "rm -f " + " ".join(os.path.join(shared, f) for f in SHARED_FILES)
                hf.measure(("export", n, history), f"export, {name}", f"{binary} export --quiet",
                           env=env, prepare=rm)
                hf.measure(("export-same", n, history), f"export unchanged, {name}",
                           f"{binary} export --quiet", env=env)
                hf.measure(("today", n, history), f"today --json, {name}", f"{binary} today --json", env=env)
                if n <= 50:       # DESIGN §8: history, stats and report over a year ≤ 50 ms
                    year_ago = (datetime.date.fromisoformat(NOW[:10]) - datetime.timedelta(days=364)).isoformat()
                    for kind, args in YEAR_COMMANDS:
                        cmd = " ".join([binary] + [a.replace("{from}", year_ago) for a in args])
                        hf.measure((kind, n, history), f"{' '.join(args[:1])} over a year, {name}", cmd, env=env)
                run_ok([binary, "take", "Aspirin"], env)
                hf.measure(("take", n, history), f"take, {name}", f"{binary} take Aspirin", env=env,
                           prepare=f"{binary} undo Aspirin")
                if history == "20y" and n <= 50:
                    r = take_to_file(binary, env, shared, a.runs)
                    if r:
                        hf.results[("take-file", n, history)] = r
                        log(f"  {'take → waybar.json renamed, ' + name:<52} {ms(r['changed']):>9} "
                            f"(process exit {ms(r['exited'])}, {r['n']} runs)")
                run_ok([binary, "undo", "Aspirin"], env)
                if nodebug:
                    ir[("export", n, history)] = instructions(
                        [nodebug, "export", "--quiet"], env,
                        prepare=lambda: [os.remove(os.path.join(shared, f)) for f in SHARED_FILES])
                    ir[("take", n, history)] = instructions([nodebug, "take", "Aspirin"], env)
                    run_ok([binary, "undo", "Aspirin"], env)
                    log(f"  instructions: export {ir[('export', n, history)] or 0:,}, take {ir[('take', n, history)] or 0:,}")
                if extras:
                    compare(hf, src, work, n, a)
                shutil.rmtree(work)
                if history == "20y" and n <= 50:
                    sync_bench(hf, binary, a.data, src, run_dir, shm, n, history, a)
        for n in [] if a.no_daemon else [n for n in meds if n <= 50]:
            log(f"\n== daemon, {n} med{'s' if n > 1 else ''} × 1 month to now + Ibuprofen as needed, real clock ==")
            r = daemon_bench(binary, run_dir, shm, n)
            if r:
                hf.results[("daemon", n)] = r
                log_daemon(r)
        for n in sorted(set(TIMELINE_BUDGET) - set(meds)):   # --quick: the size alone, on 1 month
            src, _ = scenario(a.data, binary, n, "1m", False)
            log(f"\n== {n} medicines × 1 month: timeline.json only ==")
            db = fresh_copy(src, os.path.join(run_dir, f"{n}-1m"))
            shared = os.path.join(shm, f"{n}-1m")
            run_ok([binary, "export", "--quiet"], dosebar_env(db, shared))
            timeline_size(hf, shared, n, "1m")
            shutil.rmtree(os.path.dirname(db))
    finally:
        shutil.rmtree(shm, ignore_errors=True)

    hf.results["load"].append(loadavg())
    table = report(hf.results, info, meds, histories, a, linked)
    print(table)
    with open(os.path.join(run_dir, "results.txt"), "w") as f:
        f.write(table + "\n")
    log(f"\n(full hyperfine output: {hf.logfile.name}; table: {run_dir}/results.txt)")


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


def timeline_size(hf, shared, n, history):
    path = os.path.join(shared, "timeline.json")
    size = os.path.getsize(path)
    hf.results[("timeline-bytes", n, history)] = size
    with open(path) as f:
        hf.results["timeline-schema"] = json.load(f).get("schema")
    log(f"  {'timeline.json, ' + str(n) + ' meds × ' + HISTORY_NAMES[history]:<52} {size_text(size):>9}")


def log_daemon(r):
    rows = r["rows"]
    med = lambda f: ms(statistics.median(f(x) for x in rows))
    log(f"  {'daemon: take → waybar.json renamed, median':<52} {med(lambda x: x['waybar']):>9} "
        f"(from the first db write {med(lambda x: x['waybar'] - x['write'])})")
    log(f"  {'daemon: take → watch line, median':<52} {med(lambda x: x['line']):>9} "
        f"(from the first db write {med(lambda x: x['line'] - x['write'])})")
    log(f"  {'daemon: RSS at start / after ' + str(r['takes']) + ' takes':<52} "
        f"{size_text(r['mem_start']['VmRSS']):>9} / {size_text(r['mem_after']['VmRSS'])}")
    if "idle_line" in r:
        log(f"  daemon after {r['idle']:.0f} s idle + SIGUSR1: {r['idle_line']}")


def compare(hf, src, work, n, a):
    """What users do today, on the same 20-year history: a bash + jq streak script over a
    JSON-lines log, and habitrack (PyPI) logging one entry."""
    name = f"{n} med{'s' if n > 1 else ''} × 20 years"
    slow_runs = max(3, min(a.runs, 5)) if n > 1 else a.runs
    if shutil.which("jq"):
        hf.measure(("jq", n), f"bash+jq streak script, {name}",
                   f"bash {BENCH}/compare/streak.sh {src}/doses.jsonl {TODAY}",
                   runs=slow_runs, warmup=1)
    else:
        log("  (bash+jq streak script left out: jq is missing; apt-get install jq)")
    venv = habitrack_venv(a.data)
    if not venv:
        return
    hdir = os.path.join(work, "habitrack")
    shutil.copytree(os.path.join(src, "habitrack"), hdir)
    env = dict(os.environ, HABIT_DIR=hdir)
    hf.measure(("habitrack", n), f"habitrack done aspirin, {name}", f"{venv}/bin/habitrack done aspirin",
               env=env, runs=slow_runs, warmup=1)
    hf.measure("python", "python3 start (habitrack's interpreter)", f"{venv}/bin/python -c pass")


_HABITRACK = {}


def habitrack_venv(data):
    """habitrack 1.0.0 from PyPI in a venv next to the data (once); None, said why, when it cannot
    be had (no venv module, no PyPI): the comparison row is left out, the rest goes on."""
    if data not in _HABITRACK:
        _HABITRACK[data] = install_habitrack(os.path.join(data, "habitrack-venv"))
    return _HABITRACK[data]


def install_habitrack(venv):
    if os.path.exists(os.path.join(venv, "bin", "habitrack")):
        return venv
    log("  installing habitrack 1.0.0 from PyPI into a venv (once) …")
    shutil.rmtree(venv, ignore_errors=True)
    r = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True, text=True)
    if r.returncode != 0:
        log(f"  (habitrack left out: `{sys.executable} -m venv` failed — on Debian: apt-get install python3-venv; "
            f"{r.stderr.strip()[-200:]})")
        return None
    r = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "habitrack==1.0.0"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        log(f"  (habitrack left out: pip could not install habitrack==1.0.0 from PyPI: {r.stderr.strip()[-300:]})")
        shutil.rmtree(venv, ignore_errors=True)
        return None
    return venv


def source_state():
    """The commit benchmarked, and whether Sources/ or Package.swift had uncommitted changes."""
    if not shutil.which("git"):
        return "unknown commit (no git)"
    git = lambda *args: subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown commit"
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift")
    return head + (" + uncommitted changes in Sources/" if dirty else "")


# --- the table ---------------------------------------------------------------------------------

def report(res, info, meds, histories, a, linked):
    L = []
    mean = lambda k: res[k]["mean"] if k in res else None
    ins = mean("insert")
    cores = os.cpu_count()
    L.append("")
    L.append(f"dosebar benchmark — {platform.machine()}, {cores} cores, hyperfine "
             f"{subprocess.run(['hyperfine', '--version'], capture_output=True, text=True).stdout.split()[-1]}, "
             f"{a.runs} runs after {a.warmup} warm-ups (mean ± σ); binary: release, {linked}")
    L.append(f"DOSEBAR_NOW={NOW} TZ={TZ}; databases on disk ({a.data}), shared directory on tmpfs")
    L.append(f"sources: {source_state()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    load = res.get("load", [])
    if len(load) == 2:
        L.append(f"load average (1 min) at start {load[0]:.2f}, at end {load[1]:.2f}"
                 + (" — the machine was busy: wall times are noisy, trust the instruction counts for ratios"
                    if max(load) > 1.5 else ""))
    L.append("")
    L.append("Floors")
    for k, label in (("cat", "cat of a 1 KB file"), ("c", "C hello"),
                     ("swift-dynamic", "Swift hello + Foundation, dynamic"),
                     ("swift-static", "Swift hello + Foundation, static"),
                     ("insert", "sqlite3 CLI: insert one row (WAL)"),
                     ("insert-normal", "  … with synchronous=NORMAL, as dosebar"), ("version", "dosebar --version"),
                     ("python", "python3 start")):
        if k in res:
            L.append(f"  {label:<42} {ms(res[k]['mean']):>10} ± {ms(res[k]['stddev'])}")
    L.append("")
    hdr = f"  {'':<24}" + "".join(f"{HISTORY_NAMES[h]:>22}" for h in histories)
    if "1m" in histories and "20y" in histories:
        hdr += f"{'20y / 1m':>10}"
    hdr += "   target"
    checks = []

    def row(kind, n, label, target_fn):
        cells, vals = [], {}
        for h in histories:
            v = mean((kind, n, h))
            vals[h] = v
            noisy = v is not None and res[(kind, n, h)]["stddev"] > 0.25 * v
            cells.append(f"{ms(v):>9}{'~' if noisy else ' '}({v / ins:4.1f}× ins)" if v is not None else f"{'—':>22}")
        line = f"  {label:<24}" + "".join(f"{c:>22}" for c in cells)
        if vals.get("1m") and vals.get("20y"):
            ratio = vals["20y"] / vals["1m"]
            line += f"{ratio:>10.2f}"
        t = target_fn(vals) if target_fn else ""
        return line + ("   " + t if t else "")

    def flat(vals, what, kind, n):
        """Judged on instructions when counted (wall time on a shared machine moves more than 10 %
        between two runs of the same thing), else on wall time."""
        ir = res.get("ir", {})
        i1, i20 = ir.get((kind, n, "1m")), ir.get((kind, n, "20y"))
        if i1 and i20:
            r = i20 / i1
            ok = r <= 1.10
            wall = f", wall {vals['20y'] / vals['1m']:.2f}" if vals.get("1m") and vals.get("20y") else ""
            checks.append((f"{what}: 20 years ≤ 1.10 × 1 month", ok, f"{r:.3f} in instructions{wall}"))
            return "ok" if ok else "MISSED"
        if vals.get("1m") and vals.get("20y"):
            r = vals["20y"] / vals["1m"]
            ok = r <= 1.10
            checks.append((f"{what}: 20 years ≤ 1.10 × 1 month", ok, f"{r:.2f} in wall time"))
            return "ok" if ok else "MISSED"
        return ""

    L.append("dosebar (ratios: × the sqlite3 insert floor; ~ marks σ > 25 % of the mean)")
    L.append(hdr)
    for n in meds:
        nm = f"{n} med{'s' if n > 1 else ''}"

        def take_target(vals, n=n):
            out = []
            for h, v in vals.items():
                if v is not None and n <= 50:
                    ok = v <= 3 * ins
                    checks.append((f"take, {nm}, {HISTORY_NAMES[h]} ≤ 3× insert", ok, f"{v / ins:.1f}×"))
                    out.append("ok" if ok else "MISSED")
            f = flat(vals, f"take, {nm}", "take", n)
            return ("≤3× ins: " + "/".join(out) if out else "") + ("; flat: " + f if f else "")

        def export_target(vals, n=n):
            budget = {50: 0.050, 1000: 0.150}.get(n)
            out = []
            if budget:
                for h, v in vals.items():
                    if v is not None:
                        ok = v <= budget
                        checks.append((f"export, {nm}, {HISTORY_NAMES[h]} ≤ {budget * 1000:.0f} ms", ok, ms(v)))
                        out.append("ok" if ok else "MISSED")
            f = flat(vals, f"export, {nm}", "export", n)
            return (f"≤{budget * 1000:.0f} ms: " + "/".join(out) if out else "") + ("; flat: " + f if f else "")

        def year_target(vals, n=n, kind=None):
            out = []
            for h, v in vals.items():
                if v is not None:
                    ok = v <= 0.050
                    checks.append((f"{kind}, {nm}, {HISTORY_NAMES[h]}, a year ≤ 50 ms", ok, ms(v)))
                    out.append("ok" if ok else "MISSED")
            return "≤50 ms: " + "/".join(out) if out else ""

        L.append(row("take", n, f"take, {nm}", take_target))
        L.append(row("export", n, f"export, {nm}", export_target))
        L.append(row("export-same", n, f"  export unchanged", None))
        L.append(row("today", n, f"  today --json", None))
        if n <= 50:
            for kind, args in YEAR_COMMANDS:
                L.append(row(kind, n, f"  {kind} (a year)", lambda vals, k=kind: year_target(vals, kind=k)))
    L.append("")
    ir = res.get("ir", {})
    if any(isinstance(k, tuple) for k in ir):
        L.append("Instructions executed (valgrind --tool=callgrind, user space, one run: immune to the other core's load)")
        fl = [f"{label}: {ir[k] / 1e6:.1f} M" for k, label in (("insert", "sqlite3 insert"), ("version", "dosebar --version"))
              if ir.get(k)]
        if fl:
            L.append("  floors — " + "; ".join(fl))
        hdr = f"  {'':<24}" + "".join(f"{HISTORY_NAMES[h]:>22}" for h in histories)
        if "1m" in histories and "20y" in histories:
            hdr += f"{'20y / 1m':>10}"
        L.append(hdr)
        for n in meds:
            for kind in ("take", "export"):
                vals = {h: ir.get((kind, n, h)) for h in histories}
                line = f"  {kind + ', ' + str(n) + (' meds' if n > 1 else ' med'):<24}" + "".join(
                    f"{(f'{v / 1e6:.1f} M' if v else '—'):>22}" for v in vals.values())
                if vals.get("1m") and vals.get("20y"):
                    line += f"{vals['20y'] / vals['1m']:>10.3f}"
                L.append(line)
        L.append("")
    firsts = [(k, v) for k, v in info.items() if "first_export_seconds" in v]
    if firsts:
        L.append("First run after the history was imported (summarises every past day once, then cached):")
        L.append("  " + ", ".join(f"{n} med{'s' if n > 1 else ''} × {HISTORY_NAMES[h]}: {ms(v['first_export_seconds'])}"
                                  for (n, h), v in sorted(firsts)))
        L.append("")
    L += timeline_report(res, histories, checks)
    L += sync_report(res, ins, checks)
    L += import_report(res, ins, checks)
    L += daemon_report(res, checks)
    b = res.get("binary")
    if b:
        L.append(f"Binary: {size_text(b['unstripped'])} as built, {size_text(b['stripped'])} as `make install` ships it "
                 f"(stripped: debug info {size_text(b['debug'])} and symbol table "
                 f"{size_text(b['unstripped'] - b['stripped'] - b['debug'])}, never loaded)")
        L.append(f"  of the installed bytes: ICU data {size_text(b['icu'])} (in .rodata {size_text(b['rodata'])}), "
                 f"code (.text) {size_text(b['text'])}, unwind tables {size_text(b['eh_frame'])}; see Benchmarks/README.md")
        L.append("")
    tf = [(k, v) for k, v in res.items() if isinstance(k, tuple) and k[0] == "take-file"]
    if tf:
        L.append("take → waybar.json renamed into place (inotify on the directory, no daemon; from spawn):")
        for (_, n, h), v in tf:
            L.append(f"  {n} med{'s' if n > 1 else ''} × {HISTORY_NAMES[h]}: {ms(v['changed'])} "
                     f"(median {ms(v['changed_median'])}; process exit {ms(v['exited'])})")
        L.append("")
    cmp_rows = []
    for n in meds:
        take = mean(("take", n, "20y"))
        today = mean(("today", n, "20y"))
        if ("jq", n) in res and today:
            v = res[("jq", n)]["mean"]
            cmp_rows.append(f"  bash+jq streak, {n} med{'s' if n > 1 else ''} × 20 y   {ms(v):>10}   "
                            f"{v / today:6.1f}× dosebar today --json ({ms(today)})")
        if ("habitrack", n) in res and take:
            v = res[("habitrack", n)]["mean"]
            cmp_rows.append(f"  habitrack done, {n} task{'s' if n > 1 else ''} × 20 y   {ms(v):>10}   "
                            f"{v / take:6.1f}× dosebar take ({ms(take)})")
    if cmp_rows:
        L.append("What users do today (same 20-year history)")
        L += cmp_rows
        L.append("")
    if checks:
        L.append("DESIGN targets (§8; timeline.json §4)")
        for what, ok, val in checks:
            L.append(f"  [{'ok' if ok else 'MISSED'}] {what}: {val}")
    return "\n".join(L)


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


# Issue 15: applying another device's 20 years × 50 medicines once takes "a few seconds at most".
SYNC_ALL_BUDGET = 5.0


def sync_report(res, ins, checks):
    """The sync rows (DESIGN §10): `sync now` on a fresh device with another device's whole history
    in its folder, and `sync now` applying one new take, held against `take` of the same scenario."""
    keys = sorted(k for k in res if isinstance(k, tuple) and k[0] == "sync-all")
    slots = {k[1]: res[k] for k in res if isinstance(k, tuple) and k[0] == "sync-slot"}
    if not keys and not slots:
        return []
    L = ["Sync: `sync now` applying another device's file (× the sqlite3 insert floor; × `take` in the same scenario)"]
    if slots:
        small, large = min(slots), max(slots)
        ratio = slots[large]["mean"] / slots[small]["mean"]
        ok = slots[large]["mean"] <= SLOT_BUDGET
        checks.append((f"sync now, {large:,} takes of one slot ≤ {SLOT_BUDGET:.0f} s", ok, ms(slots[large]["mean"])))
        for n in sorted(slots):
            L.append(f"  {f'{n:,} takes of one slot, fresh device':<52} {ms(slots[n]['mean']):>10} ± {ms(slots[n]['stddev'])}"
                     f"   ({slots[n]['mean'] / ins:.1f}× ins)")
        L.append(f"  {large:,} ÷ {small:,} takes: {ratio:.1f}× the time for {large / small:.0f}× the lines "
                 f"(linear ≈ {large / small:.0f}, quadratic ≈ {(large / small) ** 2:.0f}); ≤{SLOT_BUDGET:.0f} s: {'ok' if ok else 'MISSED'}")
    for _, n, h in keys:
        name = f"{n} med{'s' if n > 1 else ''} × {HISTORY_NAMES[h]}"
        inf = res[("sync-all-info", n, h)]
        whole, one, take = res[("sync-all", n, h)], res.get(("sync-one", n, h)), res.get(("take", n, h))
        ok = whole["mean"] <= SYNC_ALL_BUDGET
        checks.append((f"sync now, another device's {name}, fresh device ≤ {SYNC_ALL_BUDGET:.0f} s", ok, ms(whole["mean"])))
        L.append(f"  {name + ', fresh device: its whole file':<52} {ms(whole['mean']):>10} ± {ms(whole['stddev'])}"
                 f"   ({inf['operations']:,} operations, {size_text(inf['bytes'])}; ≤{SYNC_ALL_BUDGET:.0f} s: "
                 f"{'ok' if ok else 'MISSED'})")
        if one and take:
            ok = one["mean"] <= take["mean"]
            checks.append((f"sync now applying one take, {name} ≤ take", ok,
                           f"{ms(one['mean'])}, {one['mean'] / take['mean']:.2f}× take ({ms(take['mean'])})"))
            L.append(f"  {'  … then one new take in it':<52} {ms(one['mean']):>10} ± {ms(one['stddev'])}"
                     f"   ({one['mean'] / ins:.1f}× ins, {one['mean'] / take['mean']:.2f}× take; ≤ take: {'ok' if ok else 'MISSED'})")
    if keys:
        L.append("  (the other device's file is made once by `sync init` on a copy of the scenario: "
                 + ", ".join(f"{n} meds × {HISTORY_NAMES[h]} {ms(res[('sync-all-info', n, h)]['init_seconds'])}"
                             for _, n, h in keys) + ")")
    L.append("")
    return L


def daemon_report(res, checks):
    """The daemon rows: take → file and → watch line, CPU, RSS, idle wake-ups (DESIGN §5, §8)."""
    ds = sorted((k[1], v) for k, v in res.items() if isinstance(k, tuple) and k[0] == "daemon")
    if not ds:
        return []
    L = []
    takes = ds[0][1]["takes"]
    L.append(f"Daemon (real clock, bar nudges off) on N medicines × 1 month ending now + Ibuprofen as needed: "
             f"{takes} × `take Ibuprofen` from another process (its DOSEBAR_DIR elsewhere: only the daemon writes "
             f"the watched directory); median (90th percentile)")
    names = {n: f"{n} med{'s' if n > 1 else ''} + 1 as needed" for n, _ in ds}
    L.append(f"  {'':<50}" + "".join(f"{names[n]:>26}" for n, _ in ds) + "   target")

    def stat(r, f):
        xs = sorted(f(x) for x in r["rows"])
        p90 = xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]
        return statistics.median(xs), p90

    def line(label, f, budget=None, what=None, only=None):
        cells, verdicts = [], []
        for n, r in ds:
            m, p90 = stat(r, f)
            cells.append(f"{ms(m)} ({ms(p90)})")
            if budget and (only is None or n == only):
                ok = m <= budget
                checks.append((f"{what}, {n} med{'s' if n > 1 else ''} ≤ {budget * 1000:.0f} ms (median)", ok, ms(m)))
                verdicts.append("ok" if ok else "MISSED")
        target = f"≤{budget * 1000:.0f} ms{f' ({only} meds)' if only else ''}: " + "/".join(verdicts) if verdicts else ""
        L.append(f"  {label:<50}" + "".join(f"{c:>26}" for c in cells) + (f"   {target}" if target else ""))

    line("take spawned → its first database write", lambda x: x["write"])
    line("take → waybar.json renamed (from spawn)", lambda x: x["waybar"], 0.016,
         "bar click → waybar.json renamed (from spawn)", only=50)
    line("  … from the take's first database write", lambda x: x["waybar"] - x["write"], 0.016,
         "take's first db write → waybar.json renamed", only=50)
    line("take → `watch --format waybar` line (from spawn)", lambda x: x["line"], 0.050, "take → watch line (from spawn)")
    line("  … from the take's first database write", lambda x: x["line"] - x["write"], 0.050,
         "take's first db write → watch line")
    line("take process exit (it writes its own copy)", lambda x: x["exit"])
    cells = []
    for n, r in ds:
        idle = r.get("idle_counters") or {}
        end = counters("\n".join(r.get("exit_line", []))) or {}
        per = (end.get("refreshes", 0) - idle.get("refreshes", 0)) / takes if end and idle else None
        cells.append(f"{r['cpu_per_take'] * 1000:.0f} ms, {per:.1f} refreshes" if per is not None
                     else f"{r['cpu_per_take'] * 1000:.0f} ms")
    L.append(f"  {'daemon CPU (user+sys) and refreshes per take':<50}" + "".join(f"{c:>26}" for c in cells))
    cells, verdicts = [], []
    anon = []
    for n, r in ds:
        a, b = r["mem_start"], r["mem_after"]
        cells.append(f"{size_text(a['VmRSS'])} / {size_text(b['VmRSS'])}")
        anon.append(f"{size_text(a.get('RssAnon', 0))} / {size_text(b.get('RssAnon', 0))}")
        for when, v in (("at start", a["VmRSS"]), (f"after {takes} takes", b["VmRSS"])):
            ok = v <= 30e6
            checks.append((f"daemon RSS {when}, {n} med{'s' if n > 1 else ''} ≤ 30 MB", ok, size_text(v)))
            verdicts.append("ok" if ok else "MISSED")
    L.append(f"  {'daemon VmRSS at start / after ' + str(takes) + ' takes':<50}" + "".join(f"{c:>26}" for c in cells)
             + "   ≤30 MB: " + "/".join(verdicts))
    L.append(f"  {'  … of which anonymous (RssAnon)':<50}" + "".join(f"{c:>26}" for c in anon))
    cells, verdicts = [], []
    for n, r in ds:
        c = r.get("idle_counters")
        if not c:
            cells.append("no counters")
            continue
        other = c["wakeups"] - c["deadlines"]
        cells.append(f"{other} (entries {c['deadlines']}, epoll {c.get('epoll_returns', '?')})")
        ok = other == 1
        checks.append((f"daemon idle {r['idle']:.0f} s, {n} med{'s' if n > 1 else ''}: wake-ups not from timeline "
                       f"entries = 1 (the SIGUSR1)", ok, f"{other}; {c['wakeups']} wake-ups, {c['deadlines']} entries, "
                       f"{c.get('epoll_returns', '?')} epoll returns since start"))
        verdicts.append("ok" if ok else "MISSED")
    idle_s = ds[0][1]["idle"]
    L.append(f"  {f'idle {idle_s:.0f} s, SIGUSR1: wake-ups not from entries':<50}" + "".join(f"{c:>26}" for c in cells)
             + ("   =1 (SIGUSR1): " + "/".join(verdicts) if verdicts else ""))
    L.append("")
    return L


if __name__ == "__main__":
    main()
