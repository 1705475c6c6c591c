#!/usr/bin/env bash
# Where the instructions of one dosebar command go, on a benchmark scenario:
#
#   Benchmarks/profile.sh take 50 20y          # or: export 1000 1m, today 1 20y, version
#
# Uses the binary and the cached scenario databases of the last `scripts/bench` run
# (/var/tmp/dosebar-bench, or $DOSEBAR_BENCH_DATA), on a fresh copy of the database.
# Prints the inclusive top of `callgrind_annotate`, demangled; the raw profile stays in
# $DATA/profile/callgrind.out for `callgrind_annotate --tree=caller`.
# valgrind 3.19 cannot read Swift's DWARF 5, so the binary is profiled without debug info
# (the symbol table stays: functions are named, lines are not).
set -euo pipefail
cmd=${1:?usage: profile.sh take|export|today|version [MEDS] [1m|20y]}
meds=${2:-50}
history=${3:-20y}
data=${DOSEBAR_BENCH_DATA:-/var/tmp/dosebar-bench}
bin=$data/run/dosebar
[[ -x $bin ]] || { echo "profile.sh: run scripts/bench first (no $bin)" >&2; exit 1; }
# "$meds-$history-<hash>", not the "-sync-" directories beside it (they hold no database).
src=$(ls -d "$data"/scenarios/"$meds-$history"-* 2>/dev/null | grep -v -- '-sync-' | tail -1)
[[ -n $src ]] || { echo "profile.sh: no scenario $meds-$history under $data/scenarios (run scripts/bench --meds $meds)" >&2; exit 1; }
work=$data/profile
rm -rf "$work" && mkdir -p "$work/shared"
objcopy --strip-debug "$bin" "$work/dosebar"
cp "$src/dosebar.sqlite" "$work/"
export DOSEBAR_DB=$work/dosebar.sqlite DOSEBAR_DIR=$work/shared TZ=Asia/Seoul \
       DOSEBAR_NOW=2026-11-20T12:10:00+09:00 LANG=C.UTF-8 XDG_CONFIG_HOME=$work/config
"$work/dosebar" export --quiet
case $cmd in
  take) args=(take Aspirin) ;;
  export) args=(export --quiet); rm -f "$work"/shared/* ;;
  today) args=(today --json) ;;
  version) args=(--version) ;;
  *) echo "profile.sh: unknown command $cmd" >&2; exit 64 ;;
esac
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/dosebar" "${args[@]}" \
  > /dev/null 2> "$work/valgrind.log"
grep -h "Collected" "$work/valgrind.log" >&2
callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null | sed -n '/^Ir/,$p' | swift demangle --simplified \
  | grep -vE 'DispatchQueue|partial apply|thunk for|_dispatch_|dispatch_sync|closure #1 in closure' | cut -c1-180 | head -"${TOP:-60}"
