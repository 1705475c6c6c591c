#!/usr/bin/env bash
# Writes scripts/release.order: the Swift protocol conformance descriptors, then the functions a
# one-shot command runs, which scripts/swift-release asks lld to lay out first and together
# (--symbol-ordering-file). A command then touches fewer
# pages of the 20 MB of code (18 MB resident at exit instead of 24 MB for `take` with 50
# medicines, 1,086 page faults instead of 1,166; Benchmarks/README.md, "Measured reasons in the
# code").
#
#   Benchmarks/order.sh          # after scripts/bench (its binary and scenario databases)
#
# The commands: `--version`, `take` and `undo` with 1 and 50 medicines, `today --json`,
# `status --format waybar`, `export`, `list`, each run once under callgrind (--demangle=no: the
# names as the linker knows them), functions in the order the profiles first name them. A name
# the code no longer has is skipped by the linker: a stale file only lays out less well; run this
# again after larger changes.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${DOSEBAR_BENCH_DATA:-/var/tmp/dosebar-bench}
bin=$data/run/dosebar
[[ -x $bin ]] || { echo "order.sh: run scripts/bench first (no $bin)" >&2; exit 1; }
work=$data/order
rm -rf "$work" && mkdir -p "$work"
objcopy --strip-debug "$bin" "$work/dosebar"
nm "$work/dosebar" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/symbols"
run=0
profile() { # meds command...
  local src
  src=$(ls -d "$data"/scenarios/"$1"-20y-* 2>/dev/null | grep -v -- '-sync-' | tail -1)
  [[ -n $src ]] || { echo "order.sh: no scenario $1-20y under $data/scenarios" >&2; exit 1; }
  shift
  run=$((run + 1))
  rm -rf "$work/home" && mkdir -p "$work/home/shared"
  cp "$src/dosebar.sqlite" "$work/home/"
  (
    export DOSEBAR_DB=$work/home/dosebar.sqlite DOSEBAR_DIR=$work/home/shared TZ=Asia/Seoul \
           DOSEBAR_NOW=2026-11-20T12:10:00+09:00 LANG=C.UTF-8 XDG_CONFIG_HOME=$work/home/config
    "$work/dosebar" export --quiet
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$run.%p" \
      "$work/dosebar" "$@" >/dev/null 2>"$work/valgrind.$run.log" || true
  )
}
for meds in 50 1; do
  profile "$meds" take Aspirin
  profile "$meds" undo Aspirin
  profile "$meds" today --json
  profile "$meds" status --format waybar
  profile "$meds" export
  profile "$meds" list
done
profile 1 --version
# A profile names a function once, where it first appears in the file (fn= or cfn=); the list
# keeps each name's first appearance, the profiles in the order they ran.
for i in $(seq "$run"); do cat "$work"/cg."$i".*; done | sed -nE 's/^c?fn=\([0-9]+\) (.+)$/\1/p' | awk '!seen[$0]++' >"$work/ran"
# First, every protocol conformance descriptor (`$s…Mc`), together: the Swift runtime's first
# look-up of each (type, protocol) reads all 6,807 of them, which the link otherwise scatters over
# 36 MB of data (a 50-medicine take: ~55 page faults fewer; `--version` 3.3 ms of CPU → 3.0 ms).
nm "$work/dosebar" | awk '$2 ~ /^[dD]$/ && $3 ~ /Mc$/ { print $3 }' | sort -u >"$work/conformances"
{
  cat "$work/conformances"
  awk 'NR == FNR { known[$0] = 1; next } known[$0]' "$work/symbols" "$work/ran"
} >scripts/release.order
echo "order.sh: scripts/release.order: $(wc -l <"$work/conformances") conformance descriptors, then $(( $(wc -l <scripts/release.order) - $(wc -l <"$work/conformances") )) functions" >&2
