"""The daemon rows (DESIGN §5, §8) on the real clock: take → file and → watch line, CPU, RSS, idle
wake-ups.
"""

import os
import select
import signal
import statistics
import subprocess
import sys
import time

from .common import BENCH, dosebar_env, log, ms, run_ok, sh, size_text
from .inotify import IN_MODIFY, IN_MOVED_TO, Inotify


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
