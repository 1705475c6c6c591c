"""Instruction counts (valgrind --tool=callgrind): flatness in history length, immune to load.
"""

import os
import subprocess
import tempfile

from .common import log, sh


def instructions(args, env, prepare=None, threads=None):
    """Instructions executed in user space (valgrind --tool=callgrind), one run: unlike wall time
    it does not move with the other core's load, so it shows flatness in history length
    exactly. It does not see time spent waiting on the kernel (fsync, page faults).
    The count is of every thread. A command's export computes part of its work on a second thread
    (DESIGN §8: both cores): with `threads` (a dict), threads["main"] gets the main thread's own
    count, the work a person waits for when the other thread keeps up."""
    if prepare:
        prepare()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        r = subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}", *args],
                           env=env, capture_output=True, text=True)
        if threads is not None:
            # One file per thread, numbered in the order they started: -01 is the main thread.
            try:
                with open(out + "-01") as f:
                    threads["main"] = next(int(line.split()[1]) for line in f if line.startswith("totals:"))
            except (OSError, StopIteration, ValueError):
                pass
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
