#!/usr/bin/env bash
# Page faults and CPU time of `take` (50 medicines × 20 years), binaries alternated:
#   Benchmarks/take-perf.sh OLD=/path/to/dosebar NEW=.build-bench/release/dosebar
# ROUNDS rounds (default 4) of 15 takes per binary, each after an untimed undo, on its own copy of
# the bench's scenario database (run scripts/bench once first). Prints the means per binary.
set -euo pipefail
(( $# )) || { sed -n 2,5p "$0" >&2; exit 64; }
src=$(ls -d /var/tmp/dosebar-bench/scenarios/50-20y-*/dosebar.sqlite 2>/dev/null | head -1)
[[ -n $src ]] || { echo "take-perf.sh: run scripts/bench first (no 50 × 20 years scenario)" >&2; exit 1; }
work=$(mktemp -d); shm=$(mktemp -d -p /dev/shm)
trap 'rm -rf "$work" "$shm"' EXIT
export TZ=Asia/Seoul DOSEBAR_NOW=2026-11-20T12:10:00+09:00
for spec in "$@"; do
  name=${spec%%=*}; mkdir -p "$work/$name" "$shm/$name"; chmod 700 "$shm/$name"
  cp "$src" "$work/$name/dosebar.sqlite"; chmod 600 "$work/$name/dosebar.sqlite"
done
for _ in $(seq "${ROUNDS:-4}"); do
  for spec in "$@"; do
    name=${spec%%=*}; bin=${spec#*=}
    export DOSEBAR_DB=$work/$name/dosebar.sqlite DOSEBAR_DIR=$shm/$name
    for _ in $(seq 15); do
      "$bin" undo Aspirin >/dev/null
      perf stat -x, -e page-faults,task-clock "$bin" take Aspirin 2>>"$work/$name.perf" >/dev/null
    done
  done
done
for spec in "$@"; do
  name=${spec%%=*}
  awk -F, -v n="$name" '/page-faults/{pf+=$1;k++} /task-clock/{tc+=$1}
    END{printf "%s: %.0f page faults, %.2f ms CPU (task-clock), %d takes\n", n, pf/k, tc/k, k}' "$work/$name.perf"
done
