# Shared helpers for the integration tests; sourced by every test_*.sh.
#
# A test prints one line per check, `PASS name`, `FAIL name: why` or
# `SKIP name: why` (run-all.sh counts them), and exits 1 if any check failed.
#
# Environment:
#   DOSEBAR    the dosebar binary (default: `dosebar` on PATH, else
#              ../../.build/debug/dosebar relative to this directory)
#   ARTIFACTS  where screenshots and logs go (default integrations/tests/artifacts)
#   KEEP_WORK  set to 1 to keep the scratch directory of a test

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
INTEGRATIONS_DIR=$(dirname "$TESTS_DIR")
REPO_DIR=$(dirname "$INTEGRATIONS_DIR")
FIXTURES_DIR=$TESTS_DIR/fixtures
ARTIFACTS=${ARTIFACTS:-$TESTS_DIR/artifacts}
mkdir -p "$ARTIFACTS"
ARTIFACTS=$(cd "$ARTIFACTS" && pwd)

# The scenario day: America/New_York, Sunday 2026-11-22, seen at 09:30.
SCENARIO_TZ=America/New_York
SCENARIO_NOW=2026-11-22T09:30:00-05:00
# Medicines of the scenario; a bar must show one of these, not a generic word.
SCENARIO_NAMES=("Levothyroxine" "Omega-3" "Magnesium" "Ferrous & C #2")

FAILED=0
# result PASS|FAIL|SKIP NAME [DETAIL]
result() {
    local kind=$1 name=$2 detail=${3:-}
    case $kind in
        PASS) echo "PASS $name${detail:+ ($detail)}" ;;
        FAIL) echo "FAIL $name: $detail"; FAILED=1 ;;
        SKIP) echo "SKIP $name: $detail"
              echo "!!!!!!!! SKIPPED: $name — $detail !!!!!!!!" >&2 ;;
    esac
}
finish() { exit "$FAILED"; }

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
    trap cleanup EXIT
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
# then `export`. Without it: the hand-made files of fixtures/before, loudly.
# Sets SHARED, SCENARIO_SOURCE (binary|fixtures).
scenario_setup() {
    SCENARIO_HOME=$WORK/home
    SHARED=$WORK/shared
    SCENARIO_DB=$SCENARIO_HOME/dosebar.sqlite
    mkdir -p "$SCENARIO_HOME" "$WORK/bin"
    [ -n "${SCENARIO_USER:-}" ] && chown "$SCENARIO_USER" "$WORK" "$SCENARIO_HOME"
    if [ -n "$DOSEBAR_BIN" ] && scenario_from_binary; then
        SCENARIO_SOURCE=binary
    else
        if [ "${DOSEBAR_REQUIRE_BINARY:-0}" = 1 ]; then
            echo "DOSEBAR_REQUIRE_BINARY=1 and the binary did not build the scenario" >&2
            return 1
        fi
        SCENARIO_SOURCE=fixtures
        SCENARIO_BIN=dosebar
        echo "!!!!!!!! ${DOSEBAR_BIN:-no dosebar binary} did not write the shared directory:" \
             "using the hand-made files of integrations/tests/fixtures, not the real renderers !!!!!!!!" >&2
        echo "$(basename "$0")" >>"$ARTIFACTS/.fixtures-used"
        rm -rf "$SHARED"
        run_as mkdir -m 700 "$SHARED"
        run_as cp -r "$FIXTURES_DIR/before/." "$SHARED/"
    fi
    return 0
}

# scenario_from_binary: the scenario made with real commands; false (and the
# reason on stderr) if the binary cannot make it.
scenario_from_binary() {
    # A copy the test user can run; it also goes first on the bars' PATH.
    cp "$DOSEBAR_BIN" "$WORK/bin/dosebar" && chmod 755 "$WORK/bin/dosebar" || return 1
    SCENARIO_BIN=$WORK/bin/dosebar
    local early=2026-11-22T05:00:00-05:00 err=$WORK/scenario.err f
    {
        NOW=$early dose add Levothyroxine --at 06:00 --dose "50 µg" &&
        NOW=$early dose add Omega-3 --at 08:00 &&
        NOW=$early dose add Magnesium --at 09:00 &&
        NOW=$early dose add "Ferrous & C #2" --at 21:00 &&
        NOW=2026-11-22T08:10:00-05:00 dose take Omega-3 &&
        dose export
    } >"$err" 2>&1 || {
        echo "scenario set-up with $DOSEBAR_BIN failed:" >&2; cat "$err" >&2; return 1
    }
    for f in timeline.json snapshot.json waybar.json polybar.txt tmux.txt conky.txt i3blocks.txt; do
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
    fi
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
        return 0
    fi
    echo "dosebar daemon did not stay up: $(tail -n 3 "$WORK/daemon.log" | tr '\n' ' ')" >&2
    return 1
}

# has_scenario_name TEXT: true if TEXT names a medicine of the scenario.
has_scenario_name() {
    local n
    for n in "${SCENARIO_NAMES[@]}"; do
        case $1 in *"$n"*) return 0 ;; esac
    done
    return 1
}
# scenario_word TEXT: the first word of the first medicine named in TEXT
# (what OCR is asked to find).
scenario_word() {
    local n
    for n in "${SCENARIO_NAMES[@]}"; do
        case $1 in *"$n"*) echo "${n%% *}"; return 0 ;; esac
    done
}

# What each bar should show for its file: the text without the bar's markup.
visible_tmux()    { head -n1 "$1" | perl -CSD -pe 's/#\[[^\]]*\]//g; s/##/#/g; s/\n//'; }
visible_polybar() { head -n1 "$1" | perl -CSD -pe 's/%\{[^}]*\}//g; s/%%/%/g; s/\n//'; }
# conky: ${...} is a variable, $$ a dollar, \# a hash (conky cuts a line at a
# bare #, so a name with one must come escaped: the test then fails, as it should).
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

# ocr IMAGE GEOMETRY: the text tesseract reads in a region of a screenshot.
ocr() {
    convert "$1" -crop "$2" +repage -resize 300% -colorspace gray -normalize "$WORK/ocr.png" &&
        tesseract "$WORK/ocr.png" - 2>/dev/null | tr '\n' ' '
}
# color_pixels IMAGE GEOMETRY COLOR: how many pixels of a region are (about) COLOR.
color_pixels() {
    convert "$1" -crop "$2" +repage -alpha off -fuzz 12% -fill white +opaque "$3" \
        -fill black -opaque "$3" -format '%[fx:round((1-mean)*w*h)]' info:
}
