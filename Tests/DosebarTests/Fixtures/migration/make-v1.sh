#!/usr/bin/env bash
# Makes v1.sqlite and the outputs expected of it (v1-history.json, v1-stats.json, v1-today.json),
# the fixture of MigrationTests: a database written by a dosebar whose schema was `v1` only, to
# show that every later migration keeps what the data means.
#
# It was made once, with the binary built from commit dcea14f (the last commit before any
# migration after v1), by:
#     git checkout dcea14f && swift build && Tests/DosebarTests/Fixtures/migration/make-v1.sh
# Do not regenerate it with a newer binary: the point is that the file is OLD. The script
# refuses to write a database that records any migration other than v1.
#
# Three weeks in Asia/Seoul, 2026-03-02 (a Monday) to 2026-03-22 (today, 20:00): seven medicines
# (daily, twice daily, weekdays, every 3 days, a 5/2 cycle, as-needed, one removed mid-way),
# takes on time, late and early, skips, missed doses, an undo of a take and of a skip, refills
# (adding and --set), a schedule edit with --effective, a detail edit, a rename and a remove.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${DOSEBAR_BIN:-$here/../../../../.build/debug/dosebar}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=Asia/Seoul LANG=C.UTF-8 HOME="$work" XDG_CONFIG_HOME="$work/config"
export DOSEBAR_DB="$work/v1.sqlite" DOSEBAR_DIR="$work/shared"
unset XDG_RUNTIME_DIR XDG_DATA_HOME

# at INSTANT COMMAND…: runs one command with the clock at INSTANT (local time of Asia/Seoul).
at() { local now=$1; shift; DOSEBAR_NOW="${now}+09:00" "$bin" "$@" >/dev/null; }

start=2026-03-02
at ${start}T07:00:00 add Aspirin --at 08:00 --dose "100 mg" --stock 30 --low-days 5 --from $start
at ${start}T07:00:00 add Metformin --at 08:00,20:00 --dose "500 mg" --stock 60 --group morning --from $start
at ${start}T07:00:00 add Magnesium --at 21:00 --days mon,wed,fri --from $start
at ${start}T07:00:00 add VitaminD --at 09:00 --every 3d --from $start
at ${start}T07:00:00 add Yaz --at 22:00 --cycle 5/2 --from $start
at ${start}T07:00:00 add Iron --at 12:00 --stock 20 --from $start
at ${start}T07:00:00 add Ibuprofen --as-needed --max-per-day 3 --min-interval 6h

for i in $(seq 0 19); do
    day=$(date -d "$start + $i days" +%F)
    weekday=$(date -d "$day" +%u)
    late="${day}T23:50:00"   # every past day's doses are logged that evening, with --at
    # Changes to the medicines, in the morning before that day's doses are logged.
    if (( i == 7 )); then at ${day}T10:00:00 edit Metformin --at 07:30,19:30 --effective 2026-03-12; fi
    if (( i == 10 )); then at ${day}T10:00:00 refill Aspirin 30; fi
    if (( i == 12 )); then at ${day}T10:00:00 edit Aspirin --dose "81 mg"; fi
    if (( i == 13 )); then at ${day}T09:00:00 remove Iron; fi
    if (( i == 14 )); then at ${day}T10:00:00 refill Metformin --set 40; fi
    if (( i == 16 )); then at ${day}T10:00:00 edit Magnesium --rename "Magnesium citrate"; fi
    # Aspirin: missed, late, early, skipped or on time.
    if (( i % 7 == 3 )); then :
    elif (( i % 5 == 1 )); then at $late take Aspirin --at ${day}T11:30
    elif (( i % 6 == 2 )); then at $late take Aspirin --at ${day}T05:30
    elif (( i % 9 == 4 )); then at $late skip Aspirin --at ${day}T08:00
    else at $late take Aspirin --at ${day}T08:0$(( i % 10 ))
    fi
    # Metformin: from 2026-03-12 at 07:30 and 19:30 (the edit below).
    if (( i < 10 )); then m=08; e=20; else m=07; e=19; fi
    if (( i % 4 == 3 )); then at $late take Metformin --at ${day}T10:45; else at $late take Metformin --at ${day}T${m}:35; fi
    case $(( i % 3 )) in
        0) at $late take Metformin --at ${day}T${e}:35 ;;
        1) ;;                                              # evening dose missed
        2) at $late take Metformin --at ${day}T22:45 ;;
    esac
    # Magnesium on Monday, Wednesday and Friday; one missed.
    if [[ $weekday == 1 || $weekday == 3 || $weekday == 5 ]] && (( i != 9 )); then
        at $late take Magnesium --at ${day}T21:10
    fi
    # VitaminD every 3 days: on day 9 skipped, the skip undone, then taken late.
    if (( i % 3 == 0 )); then
        if (( i == 9 )); then
            at $late skip VitaminD --at ${day}T09:00
            at $late undo VitaminD
            at $late take VitaminD --at ${day}T13:00
        else
            at $late take VitaminD --at ${day}T09:20
        fi
    fi
    # Yaz: 5 days on, 2 off; one active day missed.
    if (( i % 7 < 5 )) && (( i != 8 )); then at $late take Yaz --at ${day}T22:10; fi
    # Iron until it is removed (the morning of 2026-03-15).
    if (( i < 13 )); then at $late take Iron --at ${day}T12:0$(( i % 4 )); fi
    # Ibuprofen as needed.
    if (( i == 4 || i == 10 || i == 11 )); then at $late take Ibuprofen --at ${day}T14:00; fi
    if (( i == 10 )); then at $late take Ibuprofen --at ${day}T21:00; fi
    # Once: a take logged by mistake, undone, and logged again at the right time.
    if (( i == 6 )); then at $late undo Aspirin; at $late take Aspirin --at ${day}T08:40; fi
done

# Today, 2026-03-22 (a Sunday, a rest day of Yaz): the morning doses taken as they happened.
today=2026-03-22
at ${today}T07:35:00 take Metformin
at ${today}T08:05:00 take Aspirin
at ${today}T11:00:00 take Ibuprofen

now=${today}T20:00:00+09:00
migrations=$(sqlite3 "$DOSEBAR_DB" "SELECT group_concat(identifier) FROM grdb_migrations")
if [[ $migrations != v1 ]]; then
    echo "make-v1.sh: the binary $bin recorded migrations '$migrations', not only v1; build commit dcea14f" >&2
    exit 1
fi
DOSEBAR_NOW=$now "$bin" history --json --from $start > "$here/v1-history.json"
DOSEBAR_NOW=$now "$bin" stats --json > "$here/v1-stats.json"
DOSEBAR_NOW=$now "$bin" today --json > "$here/v1-today.json"
[[ ! -e $DOSEBAR_DB-wal ]] || { echo "make-v1.sh: $DOSEBAR_DB-wal is left over" >&2; exit 1; }
cp "$DOSEBAR_DB" "$here/v1.sqlite"
chmod 0644 "$here/v1.sqlite"
echo "wrote $here/v1.sqlite ($(stat -c %s "$here/v1.sqlite") bytes) and its expected outputs"
