"""The sync rows (DESIGN §10): `sync now` on a fresh device with another device's whole history,
then with one new take; and another device's N takes of one slot (linear in the lines read).
"""

import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

from .common import HISTORY_NAMES, ROOT, dosebar_env, log, ms, run_ok, size_text
from .scenarios import checkpoint, fresh_copy, scenario_key


# What writes a device's sync file: the cached file is made again when one of them changes.
SYNC_SOURCES = ["Sources/DoseApp/Sync/SyncJournal.swift", "Sources/DoseApp/Sync/OperationIDs.swift",
                "Sources/DoseApp/Sync/SyncOperation.swift", "Sources/DoseApp/Sync/SyncService.swift", "Sources/DoseCore/Sync/SyncClock.swift"]


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
    hf.results[("sync-daemon", n, history)] = daemon_first_sync(binary, env, reset, name)
    millis = int(inf["last_stamp"].split("-")[0])
    hf.measure(("sync-one", n, history), f"sync now, one new take: {name}", f"{binary} sync now", env=env,
               prepare=f"{sys.executable} {appender} {other} {inf['device']} {inf['aspirin']} {millis}")
    shutil.rmtree(work)


def daemon_first_sync(binary, env, reset, name, timeout=300):
    """`dosebar daemon` on the fresh device with the other device's whole file in its folder: the
    seconds its log gives for applying it, and its VmRSS (and anonymous part) once done, against
    DESIGN §8's 30 MB (the daemon lives on after), with its peak (VmHWM). None when it fails."""
    from .daemon import NO_NUDGES, memory, wait_for
    run_ok(["sh", reset], env)
    # The bars' nudges off: on a shared machine they would signal other people's waybar and tmux.
    config = os.path.join(env["XDG_CONFIG_HOME"], "dosebar")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "config.toml"), "w") as f:
        f.write(NO_NUDGES)
    denv = dict(env)
    denv.pop("DOSEBAR_NOW", None)   # the daemon's timers run on the real clock
    errpath = env["DOSEBAR_DB"] + ".daemon.stderr"
    with open(errpath, "w") as err:
        d = subprocess.Popen([binary, "daemon"], env=denv, stdout=subprocess.DEVNULL, stderr=err)
    text = lambda: open(errpath, errors="replace").read()
    try:
        ends = lambda: [l for l in text().splitlines() if " done in " in l and "operations" in l]
        done = lambda: bool(ends())
        if not wait_for(done, timeout):
            log(f"  (daemon, {name}: no end of the apply in its log: {text().strip()[-300:]})")
            return None
        time.sleep(2)             # its refresh after, and the memory given back
        m = memory(d.pid)
        with open(f"/proc/{d.pid}/status") as f:
            peak = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:"))
        line = ends()[-1]
        seconds = float(line.rsplit(" done in ", 1)[1].split()[0])
        log(f"  daemon applying it: {seconds:.1f} s, then VmRSS {size_text(m['VmRSS'])} "
            f"({size_text(m['RssAnon'])} anonymous), peak {size_text(peak)}")
        return {"seconds": seconds, "rss": m["VmRSS"], "anon": m["RssAnon"], "peak": peak}
    finally:
        d.terminate()
        d.wait(10)


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
        daemon = res.get(("sync-daemon", n, h))
        if daemon:
            ok = daemon["rss"] <= 30e6
            checks.append((f"daemon VmRSS after applying another device's {name} ≤ 30 MB", ok, size_text(daemon["rss"])))
            L.append(f"  {'  … the daemon applying it, VmRSS after (peak)':<52} {size_text(daemon['rss']):>10} "
                     f"({size_text(daemon['peak'])})   ({daemon['seconds']:.1f} s; {size_text(daemon['anon'])} anonymous; "
                     f"≤30 MB: {'ok' if ok else 'MISSED'})")
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
