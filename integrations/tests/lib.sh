# Shared helpers for the integration tests; sourced by every test_*.sh.
#
# A test prints one line per check, `PASS name`, `FAIL name: why` or
# `SKIP name: why` (run-all.sh counts them), then `END` from finish(), and
# exits 1 if any check failed. A test that stops before finish() (an error, a
# kill) prints a FAIL from its EXIT trap, and run-all.sh counts a missing `END`
# as a failure too.
#
# Under CI=true nothing may be skipped: result() turns every SKIP (a client not
# installed, a compositor that does not start, a `dosebar watch` or `dosebar
# daemon` that does not work, no binary) into a FAIL with the same reason, and
# scenario_setup() refuses the hand-made fixtures.
#
# Environment:
#   DOSEBAR    the dosebar binary (default: `dosebar` on PATH, else
#              ../../.build/debug/dosebar relative to this directory)
#   CI         true: every SKIP is a FAIL, the real binary is required
#   DOSEBAR_REQUIRE_BINARY  1: the real binary is required (as under CI)
#   DOSEBAR_IT_MUTATE       1: self-test (selftest.sh): the bars are fed wrong
#              files (see mutate_shared); the client tests must then FAIL
#   ARTIFACTS  where screenshots and logs go (default integrations/tests/artifacts)
#   KEEP_WORK  set to 1 to keep the scratch directory of a test

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
INTEGRATIONS_DIR=$(dirname "$TESTS_DIR")
REPO_DIR=$(dirname "$INTEGRATIONS_DIR")
FIXTURES_DIR=$TESTS_DIR/fixtures
ARTIFACTS=${ARTIFACTS:-$TESTS_DIR/artifacts}
mkdir -p "$ARTIFACTS"
ARTIFACTS=$(cd "$ARTIFACTS" && pwd)
TEST_NAME=$(basename "$0" .sh); TEST_NAME=${TEST_NAME#test_}
in_ci() { [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; }
MUTATE=${DOSEBAR_IT_MUTATE:-0}

# The scenario day: America/New_York, Sunday 2026-11-22, seen at 09:30.
SCENARIO_TZ=America/New_York
SCENARIO_NOW=2026-11-22T09:30:00-05:00
# Medicines of the scenario (added at 05:00, Omega-3 taken at 08:10):
#   Levothyroxine 06:00 "50 µg", Omega-3 08:00, Magnesium 09:00,
#   "Ferrous & C #2" 21:00 (a name every bar must escape: Pango &amp;, tmux ##,
#   conky \#), all with the default window of 2 h, and Ibuprofen as needed
#   (at most 3 a day, 6 h apart).
SCENARIO_NAMES=("Levothyroxine" "Omega-3" "Magnesium" "Ferrous & C #2")

# ---------------------------------------------------------------------------
# What the bars must show, written by hand from the scenario and DESIGN §3/§4
# (never read from the files under test). Vocabulary: the English catalog
# (Sources/DoseCore/Catalog.swift: text.late "{done}/{total} · {names} late
# {late}", text.upcoming "{done}/{total} · {names} {time}", minutes "3h",
# "3h 30m"), the emoji icons (late ⏰, upcoming 💊), the default colours
# (RenderOptions.defaultColors: late #e5484d, upcoming none = the bar's own
# foreground), conky's per-dose lines (the same minutes format, "3h"), as_needed.* templates.
#
# Before (09:30). The snapshot in force is the timeline entry of 09:00: §4 puts
# entries at every hour and at each slot's T, T+W, T+2h, T+4h (06:00 08:00
# 10:00 | 08:00 10:00 12:00 | 09:00 11:00 13:00 | 21:00 23:00), none between
# 09:00 and 10:00, and an entry is the day "as of its instant". So:
#   Levothyroxine late (T+W=08:00 <= 09:00), late_minutes 09:00-06:00 = 180 ("3h")
#   Omega-3 taken 08:10 (within 08:00 ± 2h)   Magnesium due (09:00 <= t < 11:00)
#   Ferrous & C #2 upcoming                   -> state late (first rule), 1/4
#   text.late names only the late slots: "1/4 · Levothyroxine late 3h".
EXPECT_BEFORE_STATE=late
EXPECT_BEFORE_TEXT="1/4 · Levothyroxine late 3h"      # waybar: {summary}, no icon
EXPECT_BEFORE_LINE="⏰ 1/4 · Levothyroxine late 3h"   # snapshot text: polybar tmux conky i3blocks
EXPECT_BEFORE_SHORT="⏰ 1/4"                          # i3blocks_short "{icon} {taken}/{total}"
EXPECT_BEFORE_COLOR="#e5484d"                         # late
EXPECT_BEFORE_PERCENT=25
# The tooltip's dose lines (time, name, dose, status), whitespace collapsed.
EXPECT_BEFORE_DOSES=("06:00 Levothyroxine 50 µg late" "08:00 Omega-3 taken 08:10"
                     "09:00 Magnesium due" "21:00 Ferrous & C #2 upcoming")
# After scenario_advance (or a click: `take --next` takes what is due or late):
# Levothyroxine and Magnesium taken at 09:30: 09:30 > 06:00+2h -> taken_late,
# 09:30 within 09:00 ± 2h -> taken; 3 of 4 resolved, only Ferrous & C #2 left
# -> state upcoming, text.upcoming names the next dose and its time.
EXPECT_AFTER_STATE=upcoming
EXPECT_AFTER_TEXT="3/4 · Ferrous & C #2 21:00"
EXPECT_AFTER_LINE="💊 3/4 · Ferrous & C #2 21:00"
EXPECT_AFTER_SHORT="💊 3/4"
EXPECT_AFTER_COLOR=""                                 # upcoming: the bar's own foreground
EXPECT_AFTER_PERCENT=75
EXPECT_AFTER_DOSES=("06:00 Levothyroxine 50 µg taken late 09:30" "08:00 Omega-3 taken 08:10"
                    "09:00 Magnesium taken 09:30" "21:00 Ferrous & C #2 upcoming")
# A second undo (after the take was undone) un-takes Omega-3: at the 09:00
# entry it is due again (08:00 + 2h = 10:00), only Levothyroxine is late: 0/4.
EXPECT_UNDO2_LINE="⏰ 0/4 · Levothyroxine late 3h"
EXPECT_UNDO2_SHORT="⏰ 0/4"
# As needed: Ibuprofen --max-per-day 3 --min-interval 6h, nothing taken yet;
# after `take Ibuprofen` at 09:30: 1 of 3, the next one from 09:30 + 6h.
EXPECT_PRN_BEFORE="Ibuprofen (as needed): 0/3 today"
EXPECT_PRN_AFTER="Ibuprofen (as needed): 1/3 today · next from 15:30"
# That take (with the day as before: Levothyroxine late, Magnesium due) puts an
# entry at 09:30 in the timeline (the day changed then: its as_needed), so the
# snapshot in force is now as of 09:30: Levothyroxine late by 210 min.
EXPECT_PRN_TAKEN_TEXT="1/4 · Levothyroxine late 3h 30m"

# The 7-day strip (DESIGN §4 `week`): the catalog's week.line "Week: {days}"
# with the emoji set's symbols, oldest day first (· nothing scheduled, ○ today
# not complete). The medicines were added this morning, so the 6 days before
# had no slots; today is incomplete before and after the take (Ferrous & C #2
# is still to come). conky.txt and the tooltip end with it.
EXPECT_WEEK="Week: · · · · · · ○"

# ---------------------------------------------------------------------------
# The carried dose (issue 21, DESIGN §3/§4): a second, small phase in its own
# database, exported into the same shared directory after the scenario's
# checks (carried_setup). Yaz daily at 22:00, added at 05:00 the day before,
# nothing taken; the export runs at 00:30 of the scenario day.
#   Yesterday's 22:00: W = 2 h, T' = today 22:00, so it stays open until
#   C = max(T+W, min(T'-W, T+24h)) = max(00:00, min(20:00, 22:00)) = 20:00
#   today: late from T+W = 00:00 on. Carried: listed first, with its day.
#   Today's 22:00: upcoming. Day state late (a carried slot counts, §3).
#   counts over today's slots only: 0 of 1 resolved -> "0/1".
#   The snapshot in force at 00:30 is the timeline entry of 00:00 (§4: an
#   entry at every hour and at T+W = 00:00, T+4h = 02:00; none between 00:00
#   and 01:00), so late_minutes = 00:00 - 22:00 = 120 -> "2h" (not "2h 30m":
#   the same rule makes the scenario's 09:30 read "3h").
#   Words (English catalog): a carried slot's name slot.carried_name
#   "{name} (yesterday {time})", its tooltip/menu time slot.yesterday
#   "yesterday {time}", text.late "{done}/{total} · {names} late {late}",
#   message late_2h "{names} {count_is} {late} late".
#   Week: the 5 days before yesterday had no slots (·), yesterday is pending
#   (○: its slot is still open), today not complete (○).
EXPECT_CARRIED_STATE=late
EXPECT_CARRIED_TEXT="0/1 · Yaz (yesterday 22:00) late 2h"
EXPECT_CARRIED_COLOR="#e5484d"                       # late
EXPECT_CARRIED_PERCENT=0
EXPECT_CARRIED_DOSES=("yesterday 22:00 Yaz late" "22:00 Yaz upcoming")
EXPECT_CARRIED_MESSAGE="Yaz (yesterday 22:00) is 2h late"
EXPECT_CARRIED_WEEK="Week: · · · · · ○ ○"

# carried_setup [NOW]: the carried phase's database ($WORK/home/carried.sqlite,
# CARRIED_DB) made with real commands, `add Yaz --at 22:00` at 05:00 the day
# before NOW's day, then `export` at NOW (default: 00:30 of the scenario day)
# into the scenario's shared directory. NOW must be 00:00-00:59 of its day for
# the expectations above. False, with the reason on stderr, on failure.
carried_setup() {
    local at=${1:-${SCENARIO_NOW%%T*}T00:30:00${SCENARIO_NOW:19}}
    local day=${at%%T*} offset=${at:19} yday
    yday=$(date -u -d "$day 12:00 UTC -1 day" +%Y-%m-%d) || return 1
    CARRIED_DB=$SCENARIO_HOME/carried.sqlite
    {
        SCENARIO_DB=$CARRIED_DB NOW=${yday}T05:00:00$offset dose add Yaz --at 22:00 &&
        SCENARIO_DB=$CARRIED_DB NOW=$at dose export
    } >"$WORK/carried.log" 2>&1 || {
        echo "carried phase set-up failed:" >&2; cat "$WORK/carried.log" >&2; return 1; }
}

# tokens TEXT: TEXT as OCR-comparable words: separators (· - — |) and
# punctuation at the edges of words dropped, one word per line. Words keep
# their inner / : # & (so "1/4", "21:00", "#2", "&" survive; "&amp;" does not
# become "&").
tokens() {
    printf '%s\n' "$*" | perl -CSDA -Mutf8 -ne '
        for my $w (split /[\s·—|]+/) {
            $w =~ s/^[^\p{L}\p{N}#&]+//; $w =~ s/[^\p{L}\p{N}#&]+$//;
            $w =~ tr/I|/ll/;     # OCR reads the I of Ibuprofen as l
            print "$w\n" if length $w;
        }'
}
# ocr_has READ EXPECTED: the words OCR READ end with the words of EXPECTED,
# one after the other (what comes before, e.g. an emoji read as "@", aside): so
# "late 3h" is not taken for "late 3h 30m", nor "1/4" for "11/4".
ocr_has() {
    local want got
    want=$(tokens "$2" | tr '\n' ' '); got=" $(tokens "$1" | tr '\n' ' ')"
    case $got in *" $want") return 0 ;; esac
    return 1
}
# norm_line: whitespace collapsed, the separators of dose lines (— and the
# parentheses around a dose) dropped, for comparing lines of text.
norm_lines() { perl -CSDA -Mutf8 -pe 's/[—()]/ /g; s/[ \t]+/ /g; s/^ //; s/ $//'; }

FAILED=0 FINISHED=0
# result PASS|FAIL|SKIP NAME [DETAIL]. Under CI a SKIP is a FAIL: a check that
# cannot run there has not passed.
result() {
    local kind=$1 name=$2 detail=${3:-}
    if [ "$kind" = SKIP ] && in_ci; then
        kind=FAIL detail="CI=true, so this cannot be skipped: $detail"
    fi
    case $kind in
        PASS) echo "PASS $name${detail:+ ($detail)}" ;;
        FAIL) echo "FAIL $name: $detail"; FAILED=1 ;;
        SKIP) echo "SKIP $name: $detail"
              echo "!!!!!!!! SKIPPED: $name — $detail !!!!!!!!" >&2 ;;
        *)    echo "FAIL $name: result() called with '$kind': $detail"; FAILED=1 ;;
    esac
}
finish() { FINISHED=1; echo END; exit "$FAILED"; }
# require NAME TOOL...: every TOOL is on PATH, or the test ends here with one
# SKIP (a FAIL under CI) naming all that is missing: a test never waits on a
# program that is not there (a suite once hung for minutes in a root without
# sqlite3 and python3). Tools are command names; the reason names the packages
# of scripts/setup (Debian 12) and integrations/tests/trixie/packages (13).
require() {
    local name=$1 tool missing=(); shift
    for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
    [ ${#missing[@]} = 0 ] && return 0
    result SKIP "$name" "not installed: ${missing[*]} (scripts/setup installs them)"
    finish
}
# A test that ends without finish() (a failed command under set -u, exit, a
# signal bash can catch) has failed, whatever its exit status.
lib_exit() {
    local rc=$?
    if [ "$FINISHED" != 1 ]; then
        echo "FAIL $TEST_NAME-ended-early: the test stopped (exit $rc) before its last check"
        rc=1
    fi
    cleanup
    exit "$rc"
}
trap lib_exit EXIT

# The binary under test, or empty when there is none yet.
resolve_dosebar() {
    if [ -n "${DOSEBAR:-}" ]; then
        command -v "$DOSEBAR" 2>/dev/null || { [ -x "$DOSEBAR" ] && echo "$DOSEBAR"; }
    elif command -v dosebar >/dev/null 2>&1; then
        command -v dosebar
    elif [ -x "$REPO_DIR/.build/debug/dosebar" ]; then
        echo "$REPO_DIR/.build/debug/dosebar"
    fi
}
DOSEBAR_BIN=$(resolve_dosebar)
if [ -n "$DOSEBAR_BIN" ]; then DOSEBAR_BIN=$(readlink -f "$DOSEBAR_BIN"); fi

# new_work NAME: a scratch directory (world-traversable so a test user can use it).
new_work() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/dosebar-it-$1.XXXXXX")
    chmod 755 "$WORK"
}
# Pids to end when the test ends. Start background programs as plain commands
# (an argv array, not a shell function), so that $! is the program's own pid.
CLEANUP_PIDS=()
cleanup() {
    local pid
    [ -n "${CLEANUP_HOOK:-}" ] && $CLEANUP_HOOK
    for pid in "${CLEANUP_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${CLEANUP_PIDS[@]}"; do wait "$pid" 2>/dev/null; done
    if [ "${KEEP_WORK:-0}" = 1 ]; then echo "kept $WORK" >&2
    elif [ -n "${WORK:-}" ]; then rm -rf "$WORK"; fi
}

# run_as: prefix for running a command as SCENARIO_USER (empty: as ourselves).
# setpriv execs (no fork), so the pid a test records is the program's own.
run_as() {
    if [ -n "${SCENARIO_USER:-}" ]; then
        setpriv --reuid="$SCENARIO_USER" --regid="$SCENARIO_USER" --init-groups "$@"
    else
        "$@"
    fi
}

# dose_argv: sets DOSE_ARGV to the command line that runs the binary with the
# scenario's database, directory, zone and clock (NOW overrides the clock), so a
# test can start it in the background and own its pid.
dose_argv() {
    DOSE_ARGV=(env DOSEBAR_DB="$SCENARIO_DB" DOSEBAR_DIR="$SHARED" TZ="$SCENARIO_TZ"
        DOSEBAR_NOW="${NOW:-$SCENARIO_NOW}" HOME="$SCENARIO_HOME"
        XDG_CONFIG_HOME="$SCENARIO_HOME/.config" XDG_DATA_HOME="$SCENARIO_HOME/.local/share"
        XDG_STATE_HOME="$SCENARIO_HOME/.local/state" LANG=C.UTF-8 NO_COLOR=1
        "$SCENARIO_BIN")
    if [ -n "${SCENARIO_USER:-}" ]; then
        DOSE_ARGV=(setpriv --reuid="$SCENARIO_USER" --regid="$SCENARIO_USER" --init-groups "${DOSE_ARGV[@]}")
    fi
}
# dose ARGS...: run the binary in the scenario.
dose() { dose_argv; "${DOSE_ARGV[@]}" "$@"; }

# scenario_setup: fills $SHARED (the shared directory) with the scenario day.
# With the real binary: medicines added and one dose taken with real commands,
# then `export`. Without it (never under CI=true or DOSEBAR_REQUIRE_BINARY=1):
# the hand-made files of fixtures/before, loudly, as a SKIP of its own.
# Sets SHARED, SCENARIO_SOURCE (binary|fixtures).
scenario_setup() {
    SCENARIO_HOME=$WORK/home
    SHARED=$WORK/shared
    SCENARIO_DB=$SCENARIO_HOME/dosebar.sqlite
    mkdir -p "$SCENARIO_HOME" "$WORK/bin" "$WORK/mut"
    [ -n "${SCENARIO_USER:-}" ] && chown "$SCENARIO_USER" "$WORK" "$SCENARIO_HOME" "$WORK/mut"
    if [ -n "$DOSEBAR_BIN" ] && scenario_from_binary; then
        SCENARIO_SOURCE=binary
    else
        if in_ci || [ "${DOSEBAR_REQUIRE_BINARY:-0}" = 1 ]; then
            echo "${DOSEBAR_BIN:-no dosebar binary (set DOSEBAR)} did not build the scenario, and" \
                 "CI=true or DOSEBAR_REQUIRE_BINARY=1 forbids the hand-made fixtures" >&2
            return 1
        fi
        SCENARIO_SOURCE=fixtures
        SCENARIO_BIN=dosebar
        result SKIP "$TEST_NAME-real-binary" "${DOSEBAR_BIN:+$DOSEBAR_BIN did not write the shared directory}${DOSEBAR_BIN:-no dosebar binary (set DOSEBAR)}: the bars read the hand-made files of fixtures/, not the real renderers"
        echo "$TEST_NAME" >>"$ARTIFACTS/.fixtures-used"
        rm -rf "$SHARED"
        run_as mkdir -m 700 "$SHARED"
        run_as cp -r "$FIXTURES_DIR/before/." "$SHARED/"
        # The hand-made files stand in for dosebar's, so the directory is marked as dosebar's
        # (DESIGN §9): a dosebar the bars run later (a click) adopts it instead of refusing it.
        echo "dosebar's shared directory (integration test fixtures)" | run_as tee "$SHARED/.dosebar-shared" >/dev/null
        run_as chmod 600 "$SHARED"/* "$SHARED/.dosebar-shared"
        mutate_shared
    fi
    return 0
}

# scenario_from_binary: the scenario made with real commands; false (and the
# reason on stderr) if the binary cannot make it.
scenario_from_binary() {
    # A copy the test user can run; it also goes first on the bars' PATH.
    local bin=$WORK/bin/dosebar
    [ "$MUTATE" = 1 ] && { bin=$WORK/bin/dosebar.real; REAL_SHARED=$WORK/real; }
    cp "$DOSEBAR_BIN" "$bin" && chmod 755 "$bin" || return 1
    [ "$MUTATE" = 1 ] && { mutate_wrapper; mutate_config; }
    SCENARIO_BIN=$WORK/bin/dosebar
    # The scenario's day and offset are SCENARIO_NOW's (a test may move it to today).
    local day=${SCENARIO_NOW%%T*} offset=${SCENARIO_NOW:19} err=$WORK/scenario.err f
    local early=${day}T05:00:00$offset
    {
        NOW=$early dose add Levothyroxine --at 06:00 --dose "50 µg" &&
        NOW=$early dose add Omega-3 --at 08:00 &&
        NOW=$early dose add Magnesium --at 09:00 &&
        NOW=$early dose add "Ferrous & C #2" --at 21:00 &&
        NOW=$early dose add Ibuprofen --as-needed --max-per-day 3 --min-interval 6h &&
        NOW=${day}T08:10:00$offset dose take Omega-3 &&
        dose export
    } >"$err" 2>&1 || {
        echo "scenario set-up with $DOSEBAR_BIN failed:" >&2; cat "$err" >&2; return 1
    }
    for f in timeline.json $("$DOSEBAR_BIN" status --list-formats | cut -f2); do
        [ -s "$SHARED/$f" ] || { echo "$DOSEBAR_BIN export wrote no $SHARED/$f" >&2; return 1; }
    done
}

# scenario_advance: at 09:30 the late and the due dose are taken; the shared
# directory changes as it would after a click on the bar.
scenario_advance() {
    if [ "$SCENARIO_SOURCE" = binary ]; then
        dose take Levothyroxine Magnesium >"$WORK/advance.log" 2>&1 || {
            cat "$WORK/advance.log" >&2; return 1; }
    else
        local f
        for f in "$FIXTURES_DIR"/after/*; do
            run_as cp "$f" "$SHARED/.$(basename "$f").tmp"
            run_as mv "$SHARED/.$(basename "$f").tmp" "$SHARED/$(basename "$f")"
        done
        mutate_shared
    fi
}

# --- The self-test (DOSEBAR_IT_MUTATE=1, run by selftest.sh): the real bars
# are fed wrong files, and every client test must then fail. The bar files of
# the shared directory are rewritten (fixtures/mutate.pl: other counts, other
# state and class, other colours, other dose statuses, other as-needed counts,
# broken escapes of "Ferrous & C #2") after every command of the binary: the
# copy on the bars' PATH is then a wrapper whose real command writes
# $REAL_SHARED, a directory no bar reads, and which then copies the files into
# $SHARED rewritten (so a bar polling on its own clock never draws a right file
# for a moment; `watch` reads $SHARED, so it streams the wrong lines). The daemon's own
# nudges are turned off (config.toml [nudge]); while it runs, a loop mutates
# whatever it rewrites and then nudges the bar itself ($MUTATE_NUDGE, a
# command each test sets), so a bar never re-reads a right file.
mutate_shared() {
    [ "$MUTATE" = 1 ] || return 0
    run_as perl "$FIXTURES_DIR/mutate.pl" "${REAL_SHARED:-$SHARED}" "$SHARED" "$WORK/mut"
}
mutate_config() {
    run_as mkdir -p "$SCENARIO_HOME/.config/dosebar"
    printf '[nudge]\nwaybar_signal = 0\npolybar = false\ntmux = false\ni3blocks_signal = 0\n' |
        run_as tee "$SCENARIO_HOME/.config/dosebar/config.toml" >/dev/null
}
mutate_wrapper() {
    cat >"$WORK/bin/dosebar" <<SH
#!/bin/sh
# self-test wrapper (DOSEBAR_IT_MUTATE=1): the real dosebar, then wrong bar files
# (the real one writes $REAL_SHARED, which no bar reads; \`watch\` reads the wrong files)
case "\$1" in
    watch) exec "$WORK/bin/dosebar.real" "\$@" ;;
    daemon) DOSEBAR_DIR="$REAL_SHARED" exec "$WORK/bin/dosebar.real" "\$@" ;;
esac
DOSEBAR_DIR="$REAL_SHARED" "$WORK/bin/dosebar.real" "\$@"; rc=\$?
perl "$FIXTURES_DIR/mutate.pl" "$REAL_SHARED" "$SHARED" "$WORK/mut"
exit \$rc
SH
    chmod 755 "$WORK/bin/dosebar"
}
mutate_loop_start() {
    [ "$MUTATE" = 1 ] || return 0
    local pid=$1
    # Mutate what the daemon (or a command) wrote; once nothing more is being
    # written for 0.2 s, nudge the bar if the files changed since the last nudge.
    ( last= dirty=0
      while kill -0 "$pid" 2>/dev/null; do
          if [ -n "$(mutate_shared)" ]; then dirty=1; sleep 0.2; continue; fi
          now=$(cat "$SHARED"/*.txt "$SHARED"/waybar.json 2>/dev/null | md5sum)
          if [ $dirty = 1 ] || [ "$now" != "$last" ]; then
              last=$now dirty=0
              [ -n "${MUTATE_NUDGE:-}" ] && $MUTATE_NUDGE
          fi
          sleep 0.05
      done ) >/dev/null 2>&1 &
    CLEANUP_PIDS+=($!)
}

# daemon_start: `dosebar daemon` in the scenario, in the background (DAEMON_PID);
# false, with the reason on stderr, if it does not stay up. The daemon inherits
# this shell's environment (XDG_RUNTIME_DIR, TMUX_TMPDIR) to find the bars.
daemon_start() {
    [ "$SCENARIO_SOURCE" = binary ] || return 1
    dose_argv
    "${DOSE_ARGV[@]}" daemon >"$WORK/daemon.log" 2>&1 &
    DAEMON_PID=$!
    CLEANUP_PIDS+=($DAEMON_PID)
    # "daemon: pid" is printed once its inotify watches are set up.
    if wait_for 5 grep -q "daemon: pid" "$WORK/daemon.log" && kill -0 "$DAEMON_PID" 2>/dev/null; then
        mutate_loop_start "$DAEMON_PID"
        return 0
    fi
    echo "dosebar daemon did not stay up: $(tail -n 3 "$WORK/daemon.log" | tr '\n' ' ')" >&2
    return 1
}

# What a file asks its bar to show, without the bar's markup (for messages and
# for the tooltip file waybar consumed; checks compare with the EXPECT_* above).
visible_tmux()    { head -n1 "$1" | perl -CSD -pe 's/#\[[^\]]*\]//g; s/##/#/g; s/\n//'; }
visible_polybar() { head -n1 "$1" | perl -CSD -pe 's/%\{[^}]*\}//g; s/%%/%/g; s/\n//'; }
# conky: ${...} is a variable, $$ a dollar, \# a hash (conky cuts a line at a
# bare #, so a name with one must come escaped).
visible_conky()   { perl -CSD -pe 's/\$\{[^}]*\}//g; s/\$\$/\$/g; s/\\#/#/g' "$1"; }
visible_waybar()  { jq -r .text "$1" | perl -CSD -pe 's/<[^>]*>//g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&apos;/'"'"'/g; s/&#39;/'"'"'/g; s/&amp;/&/g'; }

# first_color FILE: the first #rrggbb of a file, lower case.
first_color() { grep -o -i -m1 '#[0-9a-f]\{6\}' "$1" | head -n1 | tr 'A-F' 'a-f'; }

# wait_for SECONDS COMMAND...: retry COMMAND every 0.1 s until it succeeds.
wait_for() {
    local deadline=$(( $(date +%s%N) / 1000000 + ${1%.*} * 1000 )); shift
    until "$@"; do
        [ $(( $(date +%s%N) / 1000000 )) -ge $deadline ] && return 1
        sleep 0.1
    done
}

# watch_works FORMAT: does this binary stream `watch --format FORMAT`? It must
# print a line and keep running (a stub that prints and exits does not count).
watch_works() {
    [ "$SCENARIO_SOURCE" = binary ] || return 1
    local out=$WORK/watch-probe.$1 pid ok=1
    dose_argv
    "${DOSE_ARGV[@]}" watch --format "$1" >"$out" 2>&1 &
    pid=$!
    if wait_for 5 grep -q . "$out"; then
        sleep 0.3
        kill -0 "$pid" 2>/dev/null && ok=0
    fi
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    [ $ok = 0 ] || echo "dosebar watch --format $1: $(head -c 200 "$out")" >&2
    return $ok
}

# free_display: an X display number no X server holds, for `xvfb-run -a -n`.
# xvfb-run -a looks only for lock files in /tmp, but an X server also listens on
# an abstract socket, which is per network namespace, not per /tmp (a chroot,
# integrations/tests/trixie/run.sh, shares the host's): one taken there made
# polybar talk to another test's Xvfb, and die with it.
free_display() {
    local n=$((100 + RANDOM % 400))
    while [ -e /tmp/.X$n-lock ] || grep -q "@/tmp/.X11-unix/X$n\$" /proc/net/unix 2>/dev/null; do n=$((n + 1)); done
    echo $n
}

# ocr IMAGE GEOMETRY: the text tesseract reads in a region of a screenshot. The
# alpha channel goes first: ImageMagick 7 (Debian 13) negates it with the colours.
ocr() {
    convert "$1" -crop "$2" +repage -alpha off -resize 300% -colorspace gray -normalize "$WORK/ocr.png" &&
        tesseract "$WORK/ocr.png" - 2>/dev/null | tr '\n' ' '
}
# ocr_lines IMAGE GEOMETRY: the same, one line of text per line.
ocr_lines() {
    convert "$1" -crop "$2" +repage -alpha off -resize 300% -colorspace gray -normalize "$WORK/ocr.png" &&
        tesseract "$WORK/ocr.png" - --psm 6 2>/dev/null | grep -v '^[[:space:]]*$'
}
# color_pixels IMAGE GEOMETRY COLOR: how many pixels of a region are (about) COLOR.
color_pixels() {
    convert "$1" -crop "$2" +repage -alpha off -fuzz 12% -fill white +opaque "$3" \
        -fill black -opaque "$3" -format '%[fx:round((1-mean)*w*h)]' info:
}
# ink_color IMAGE GEOMETRY [BACKGROUND]: the colour most pixels of a region
# have, the background (default white) aside: the colour the text was drawn in
# (anti-aliasing and a small emoji are far fewer pixels). #rrggbb, lower case.
ink_color() {
    convert "$1" -crop "$2" +repage -alpha off -depth 8 -format %c histogram:info:- |
        grep -v -i -- "${3:-#FFFFFF} " | sort -rn | head -n1 |
        grep -o -i '#[0-9a-f]\{6\}' | head -n1 | tr 'A-F' 'a-f'
}

# --- A bar photographed (test_waybar.sh, test_polybar.sh). The test defines
# shot(), which puts the bar's picture in $SHOT, and may set BAR_FG (the bar's own
# text colour, default #000000) and BAR_READ_WAIT (seconds to wait for the words,
# default 10).
# reads REGION EXPECTED: the bar, photographed, shows the words of EXPECTED in REGION.
reads() { shot && ocr_has "$(ocr "$SHOT" "$1")" "$2"; }
# inked REGION COLOUR: the text of REGION was drawn in COLOUR.
inked() { [ "$(ink_color "$SHOT" "$1")" = "$2" ]; }
# bar_check NAME REGION LINE COLOUR WHAT: the module, photographed, reads the words
# of LINE (the EXPECT_* above) and is drawn in COLOUR (empty: the bar's own
# foreground, $BAR_FG): two results, NAME and NAME-colour.
bar_check() {
    local name=$1 region=$2 line=$3 color=${4:-${BAR_FG:-#000000}}
    if wait_for "${BAR_READ_WAIT:-10}" reads "$region" "$line"; then
        result PASS "$name" "$5: reads '$line'"
    else
        result FAIL "$name" "$5: expected the words '$line'; OCR read: $(ocr "$SHOT" "$region")"
    fi
    if wait_for 3 inked "$region" "$color"; then
        result PASS "$name-colour" "drawn in $color"
    else
        result FAIL "$name-colour" "expected the text in $color${4:+ (the colour of its class)}; drawn in $(ink_color "$SHOT" "$region")"
    fi
}
