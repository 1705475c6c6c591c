#!/usr/bin/env bash
# Makes v4-sync.sqlite and what it must say (v4-sync-*.json), the second fixture of MigrationTests:
# the database of a device B that synced with a device A through a folder, written by a dosebar
# whose last migration was `v4-slot-index` (sync_event linked operations to events then), to show
# that later migrations keep every link: an undo, a duplicate slot and stock that A sends after
# the migration name operations B applied before it.
#
# It was made once, with the release binary built from commit c4c59d1, by:
#     DOSEBAR_BIN=path/to/that/dosebar Tests/DosebarTests/Fixtures/migration/make-v4-sync.sh
# Do not regenerate it with a newer binary: the point is that the file is OLD. The script refuses
# a binary that records any migration after v4-slot-index.
#
# Out: v4-sync.sqlite (B), v4-sync-A.jsonl (A's whole file: what B had applied, then A's later
# lines), and B's history, stats and today once B took A's whole file in a new folder
# (`sync init NEWDIR`, the file copied there, `sync now`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${DOSEBAR_BIN:-$here/../../../../.build/release/dosebar}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=Asia/Seoul LANG=C.UTF-8
unset XDG_RUNTIME_DIR XDG_DATA_HOME

# on HOME INSTANT COMMAND…: one command on device HOME (a or b) with the clock at INSTANT (Seoul).
on() {
    local home=$work/$1 now=$2; shift 2
    mkdir -p "$home"
    HOME=$home XDG_CONFIG_HOME=$home/config DOSEBAR_DB=$home/db.sqlite DOSEBAR_DIR=$home/shared \
        DOSEBAR_NOW="${now}+09:00" "$bin" "$@" >/dev/null
}

start=2026-03-09
on a ${start}T07:00:00 add Aspirin --at 08:00 --dose "100 mg" --stock 30 --from $start
on a ${start}T07:00:00 add Metformin --at 08:00,20:00 --from $start
on a ${start}T07:00:00 add Ibuprofen --as-needed --max-per-day 3
on a ${start}T07:05:00 sync init "$work/folder"
# B had Aspirin too (the same name: one medicine once synced), and Zinc of its own.
on b ${start}T07:10:00 add aspirin --at 08:00 --dose "100 mg" --stock 30 --from $start
on b ${start}T07:10:00 add Zinc --at 12:00 --stock 10 --from $start
for i in 0 1 2 3 4; do
    day=$(date -d "$start + $i days" +%F)
    if (( i == 4 )); then on a ${day}T07:00:00 refill Aspirin --set 20; fi
    on a ${day}T08:0${i}:00 take Aspirin
    on a ${day}T08:3${i}:00 take Metformin
    on b ${day}T12:1${i}:00 take Zinc
    if (( i == 4 )); then on b ${day}T08:20:00 take aspirin --at ${day}T08:1${i}; fi   # the slot A took too
    if (( i == 2 )); then on a ${day}T20:40:00 skip Metformin; fi
    if (( i == 3 )); then on a ${day}T15:00:00 take Ibuprofen; fi
done
on b 2026-03-13T21:00:00 sync init "$work/folder"
on a 2026-03-13T21:02:00 sync now
on b 2026-03-13T21:03:00 sync now

migrations=$(sqlite3 "$work/b/db.sqlite" "SELECT group_concat(identifier) FROM grdb_migrations")
if [[ $migrations != v1,v2,v3-outcomes,v3-sync,v4-slot-index ]]; then
    echo "make-v4-sync.sh: the binary $bin recorded migrations '$migrations'; build commit c4c59d1" >&2
    exit 1
fi
sqlite3 "$work/b/db.sqlite" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
cp "$work/b/db.sqlite" "$work/fixture.sqlite"

# A's later lines name what B applied before: an undo of A's take of 03-13's Aspirin, the slot B
# took later that morning (so B's dose, a duplicate until then, counts instead, in the stock since
# A's --set of that morning too), a new take and a refill.
on a 2026-03-13T21:10:00 undo Aspirin
on a 2026-03-13T21:11:00 take Metformin --at 2026-03-13T20:05
on a 2026-03-13T21:12:00 refill Aspirin 5
a_file=$(ls "$work/folder/dosebar/"*.jsonl | while read -r f; do
    if grep -q '"name":"Metformin"' "$f"; then echo "$f"; fi; done)
cp "$a_file" "$work/A.jsonl"

# What B says once it took A's whole file in a new folder.
on b 2026-03-13T21:20:00 sync init "$work/folder2"
cp "$work/A.jsonl" "$work/folder2/dosebar/$(basename "$a_file")"
on b 2026-03-13T21:21:00 sync now
now=2026-03-13T21:30:00+09:00
run_b() { HOME=$work/b XDG_CONFIG_HOME=$work/b/config DOSEBAR_DB=$work/b/db.sqlite DOSEBAR_DIR=$work/b/shared \
    DOSEBAR_NOW=$now "$bin" "$@"; }
run_b history --json --from $start > "$here/v4-sync-history.json"
run_b stats --json > "$here/v4-sync-stats.json"
run_b today --json > "$here/v4-sync-today.json"
cp "$work/fixture.sqlite" "$here/v4-sync.sqlite"
chmod 0644 "$here/v4-sync.sqlite"
cp "$work/A.jsonl" "$here/v4-sync-A.jsonl"
echo "wrote $here/v4-sync.sqlite ($(stat -c %s "$here/v4-sync.sqlite") bytes), v4-sync-A.jsonl and the expected outputs"
