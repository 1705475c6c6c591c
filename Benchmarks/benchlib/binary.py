"""The binary measured: the release build (static Swift runtime, as `make install` ships it) and
its size, as built and stripped.
"""

import os
import shutil
import subprocess
import sys

from .common import ROOT, log, sh, size_text


def build(static):
    """The release binary. Static: as `make install` ships it (DESIGN §6), built by
    scripts/swift-release in its own scratch folder: its flags change every compile command, so
    sharing `.build` with the usual dynamic release build would recompile everything at each
    switch. Dynamic (--dynamic): a plain `swift build -c release`."""
    if static:
        args = [os.path.join(ROOT, "scripts", "swift-release"), "--product", "dosebar", "--scratch-path", ".build-bench"]
        show = args[:1] + args[3:] + ["--show-bin-path"]
    else:
        args = ["swift", "build", "-c", "release", "--product", "dosebar"]
        show = args[:4] + ["--show-bin-path"]
    log(f"$ {' '.join(args)}")
    if subprocess.run(args, cwd=ROOT, stdout=sys.stderr).returncode != 0:
        sys.exit("bench: the release build failed (above); a source file being edited meanwhile? run again, "
                 "or pass --bin PATH")
    path = subprocess.run(show, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(path, "dosebar")


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
