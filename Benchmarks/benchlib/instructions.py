"""Instruction counts (valgrind --tool=callgrind): flatness in history length, immune to load.
"""

import os
import subprocess

from .common import log, sh


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
