"""What users do today, on the same 20-year history: a bash + jq streak script and habitrack (PyPI).
"""

import os
import shutil
import subprocess
import sys

from .common import BENCH, TODAY, log


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
