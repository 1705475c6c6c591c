"""The scenario databases (generate.py, cached under a key of the generator and the schema), their
fresh copies, the commands measured on them, and take → file changed without the daemon.
"""

import glob
import hashlib
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import time

from .common import BENCH, HISTORY_NAMES, ROOT, log, run_ok, sh
from .inotify import IN_MOVED_TO, Inotify


# What `history`, `stats` and `report` are measured with: a year ending at NOW ({from} = 364 days before).
YEAR_COMMANDS = [("history", ["history", "--from", "{from}", "--json"]),
                 ("stats", ["stats", "--days", "365", "--json"]),
                 ("report", ["report", "--from", "{from}", "--format", "html"])]


def scenario_key():
    h = hashlib.sha256()
    for p in ("Benchmarks/generate.py", "Sources/DoseStore/Schema.swift"):
        with open(os.path.join(ROOT, p), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:10]


def scenario(data, binary, meds, history, extras):
    """The cached scenario directory, generated on first use."""
    d = os.path.join(data, "scenarios", f"{meds}-{history}-{scenario_key()}")
    # A cache made without the comparisons' files (--no-compare, --smoke) is made again when they are asked.
    lacks = extras and not (os.path.exists(os.path.join(d, "doses.jsonl"))
                            and os.path.exists(os.path.join(d, "habitrack", "habits.json")))
    if lacks or not os.path.exists(os.path.join(d, "info.json")):
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
