"""What every part of the benchmark shares: paths, the scenario clock, hyperfine, formatting, and
running dosebar in a scenario's environment.
"""

import json
import os
import shutil
import subprocess
import sys


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "Benchmarks")
NOW = "2026-11-20T12:10:00+09:00"       # generate.py's "now": Aspirin's 12:00 dose is due
TODAY = "2026-11-20"
TZ = "Asia/Seoul"
HISTORY_NAMES = {"1m": "1 month", "20y": "20 years"}


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


def size_text(n):
    return f"{n / 1e6:.1f} MB" if n >= 1e7 else f"{n / 1e6:.2f} MB" if n >= 1e6 else f"{n / 1e3:.1f} KB"


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


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


def source_state():
    """The commit benchmarked, and whether Sources/ or Package.swift had uncommitted changes."""
    if not shutil.which("git"):
        return "unknown commit (no git)"
    git = lambda *args: subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown commit"
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift")
    return head + (" + uncommitted changes in Sources/" if dirty else "")


def shared_files(binary):
    """The files of the shared directory, from the format registry (`status --list-formats`)."""
    r = subprocess.run([binary, "status", "--list-formats"], capture_output=True, text=True, check=True)
    return ["timeline.json"] + [line.split("\t")[1] for line in r.stdout.splitlines() if "\t" in line]
