#!/usr/bin/env bash
# What a long zone log costs history and stats (issue 43: no more than a log lookup): the 50 × 20
# years scenario of scripts/bench with its log as is, and with 100 changes Seoul <-> New York every
# 74 days from 2007; each run judges the year from a fresh copy (no cached outcome).
# Usage: B=/absolute/path/to/dosebar Benchmarks/zone-log.sh   (after one scripts/bench run made the scenario)
set -euo pipefail
B=${B:-/var/tmp/dosebar-bench/run/dosebar}
data=${DOSEBAR_BENCH_DATA:-/var/tmp/dosebar-bench}
SRC=$(ls -d "$data"/scenarios/50-20y-*/dosebar.sqlite | grep -v sync | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp $SRC base0.sqlite
cp $SRC base100.sqlite
# 100 changes over 20 years, alternating Seoul / New York (first entry stays Seoul).
WORK=$work python3 - <<'PY'
import sqlite3
import os
c = sqlite3.connect(os.path.join(os.environ['WORK'], 'base100.sqlite'))
start = 1167609600  # 2007-01-01
for i in range(100):
    at = start + i * 6400000  # every ~74 days
    zone = 'America/New_York' if i % 2 == 0 else 'Asia/Seoul'
    c.execute("INSERT OR IGNORE INTO zone_change(at, zone, first, op) VALUES (?, ?, 0, NULL)", (float(at), zone))
c.commit()
print(c.execute("select count(*) from zone_change").fetchone())
PY
export DOSEBAR_DIR=$work/shared DOSEBAR_NOW=2026-11-20T12:10:00+09:00 TZ=Asia/Seoul LANG=C.UTF-8
for n in 0 100; do
  for cmd in "history --from 2025-11-20 --to 2026-11-19 --json" "stats --from 2025-11-20 --to 2026-11-19"; do
    hyperfine -N --warmup 1 --runs 10 --prepare "cp $work/base$n.sqlite $work/run.sqlite" \
      "env DOSEBAR_DB=$work/run.sqlite $B $cmd" 2>&1 | grep -E "Time|Range" | sed "s/^/$n changes, ${cmd%% *}: /"
  done
done
