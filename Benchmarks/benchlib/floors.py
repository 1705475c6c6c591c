"""The floors every dosebar time is held against: `cat`, a C hello, a Swift hello with Foundation
(dynamic and static), the sqlite3 CLI inserting one row, `dosebar --version`.
"""

import os
import shutil
import subprocess

from .common import log, sh


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


# Every ratio divides by a floor, so a floor gets more runs than a row, even under --quick: with 5, one
# slow run of the insert (4.5 ms among 2.6) moved its mean to 3.0 ms and every ratio by a fifth.
FLOOR_RUNS, FLOOR_WARMUP = 30, 3


def measure(hf, run_dir, binary, linked):
    """Measures the floors; returns the programs (and the floor database) they ran."""
    progs = floors_programs(run_dir)
    env0 = dict(os.environ)
    runs, warmup = max(hf.runs, FLOOR_RUNS), max(hf.warmup, FLOOR_WARMUP)

    def floor(key, label, command, env=None):
        hf.measure(key, label, command, env=env, runs=runs, warmup=warmup)

    floor("cat", "cat of a 1 KB file", f"cat {run_dir}/1k.txt")
    if "c" in progs:
        floor("c", "C hello", progs["c"])
    for kind in ("dynamic", "static"):
        if f"swift-{kind}" in progs:
            floor(f"swift-{kind}", f"Swift hello with Foundation ({kind})", progs[f"swift-{kind}"])
    floor("insert", "sqlite3 CLI: insert one row (WAL)",
          f"sqlite3 {progs['sqlite-db']} \"INSERT INTO t (x, at) VALUES (1, unixepoch())\"")
    floor("insert-normal", "sqlite3 CLI: insert one row (WAL, synchronous=NORMAL)",
          f"sqlite3 {progs['sqlite-db']} \"PRAGMA synchronous = NORMAL; INSERT INTO t (x, at) VALUES (1, unixepoch())\"")
    floor("version", f"dosebar --version ({linked})", f"{binary} --version", env=env0)
    return progs
