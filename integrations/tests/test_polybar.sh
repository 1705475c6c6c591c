#!/usr/bin/env bash
# polybar under xvfb-run: both shipped modules in one real bar,
#   dosebar.ini      custom/script, tail = true, `dosebar watch --format polybar`
#                    (left, renamed dosebar-stream)
#   dosebar-ipc.ini  custom/ipc reading polybar.txt, re-read by polybar-msg (right,
#                    keeps its name: `dosebar daemon` sends `action dosebar hook 0`)
# The bar is screenshot (kept as an artifact) and read back with OCR: it must show
# the words and the colour the scenario calls for (lib.sh EXPECT_*), and follow
# a take.
set -u
. "$(dirname "$0")/lib.sh"

require polybar polybar polybar-msg xvfb-run xauth import convert tesseract perl
# A display no X server holds (lib.sh free_display).
# Xvfb's own messages go to a file the test reports when polybar cannot reach it.
if [ -z "${DISPLAY:-}" ] || [ -z "${DOSEBAR_IN_XVFB:-}" ]; then
    export DOSEBAR_XVFB_ERR; DOSEBAR_XVFB_ERR=$(mktemp "${TMPDIR:-/tmp}/dosebar-it-xvfb.XXXXXX")
    DOSEBAR_IN_XVFB=1 exec xvfb-run -a -n "$(free_display)" -e "$DOSEBAR_XVFB_ERR" -s "-screen 0 1400x240x24" bash "$0" "$@"
fi

new_work polybar
scenario_setup || { result FAIL polybar-scenario "could not build the scenario"; finish; }
export XDG_RUNTIME_DIR=$WORK/rt; mkdir -m 700 "$XDG_RUNTIME_DIR"

stream=0
if watch_works polybar; then stream=1; else
    result SKIP polybar-stream "\`dosebar watch --format polybar\` does not run (${DOSEBAR_BIN:-no binary}); the tail module is not tested"
fi
conf=$WORK/config.ini
cat >"$conf" <<INI
[bar/it]
width = 1400
height = 44
background = #ffffff
foreground = #000000
font-0 = DejaVu Sans:size=17;3
font-1 = Noto Color Emoji:scale=9;2
module-margin = 2
enable-ipc = true
modules-left = $([ $stream = 1 ] && echo dosebar-stream)
modules-right = dosebar

include-file = $WORK/dosebar.ini
include-file = $WORK/dosebar-ipc.ini
INI
if [ $stream = 1 ]; then
    sed 's|^\[module/dosebar\]|[module/dosebar-stream]|' "$INTEGRATIONS_DIR/polybar/dosebar.ini" >"$WORK/dosebar.ini"
else
    : >"$WORK/dosebar.ini"
fi
cp "$INTEGRATIONS_DIR/polybar/dosebar-ipc.ini" "$WORK/dosebar-ipc.ini"

# The display takes clients (ImageMagick's import is one) before polybar starts.
x_up() { import -window root -crop 1x1+0+0 +repage png:/dev/null 2>/dev/null; }
wait_for 10 x_up || { result FAIL polybar-x "Xvfb on $DISPLAY takes no client: $(head -c 300 "${DOSEBAR_XVFB_ERR:-/dev/null}")"; finish; }
dose_argv # polybar runs with the scenario's environment, our binary first on PATH
start_polybar() {
    env PATH="$WORK/bin:$PATH" "${DOSE_ARGV[@]:0:${#DOSE_ARGV[@]}-1}" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
        polybar -c "$conf" -l info it >"$WORK/polybar.log" 2>&1 &
    pbpid=$!
    CLEANUP_PIDS+=($pbpid)
}
start_polybar
# polybar 3.7 in the Debian 13 root sometimes lost its X connection at once (an
# "X connection error" before its first line; in 2 of 5 full runs there, never
# alone, with the display taking other clients): then it is started once more,
# and said so. Every check below still reads what it draws.
sleep 1
if ! kill -0 "$pbpid" 2>/dev/null && grep -q 'X connection error' "$WORK/polybar.log"; then
    echo "polybar lost its X connection at start; started again: $(head -n 1 "$WORK/polybar.log")" >&2
    cp "$WORK/polybar.log" "$ARTIFACTS/polybar-first-start.log"
    start_polybar
fi
MUTATE_NUDGE="polybar-msg -p $pbpid action dosebar hook 0" # self-test: as the daemon would

left=700x44+0+0 right=700x44+700+0
# The bar photographed (lib.sh's reads, inked and bar_check read $SHOT); the
# bar's own foreground is #000000.
SHOT=$WORK/now.png
shot() { import -window root -crop 1400x44+0+0 +repage "$SHOT" 2>/dev/null; }

# --- before: the scenario at 09:30
bar_check polybar-ipc "$right" "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_COLOR" "custom/ipc at 09:30"
cp "$WORK/now.png" "$ARTIFACTS/polybar-before.png"
if [ $stream = 1 ]; then
    bar_check polybar-stream "$left" "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_COLOR" "tail module at 09:30"
fi

# --- The late and due doses are taken; the daemon would then run polybar-msg.
scenario_advance || result FAIL polybar-advance "take failed"
env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" polybar-msg -p "$pbpid" action dosebar hook 0 >"$WORK/msg.log" 2>&1 ||
    result FAIL polybar-msg "polybar-msg failed: $(cat "$WORK/msg.log")"
# "Ferrous & C #2" is drawn whole: nothing of it taken for a %{...} tag.
bar_check polybar-update "$right" "$EXPECT_AFTER_LINE" "$EXPECT_AFTER_COLOR" "after take + polybar-msg"
if [ $stream = 1 ]; then
    bar_check polybar-stream-update "$left" "$EXPECT_AFTER_LINE" "$EXPECT_AFTER_COLOR" "tail module after the take"
fi
cp "$WORK/now.png" "$ARTIFACTS/polybar-after.png"

# With `dosebar daemon` running, an undo in a terminal reaches the ipc module
# (only the daemon's polybar-msg re-reads the file).
if [ "$SCENARIO_SOURCE" != binary ]; then
    result SKIP polybar-daemon "no working dosebar binary: the daemon is not tested"
elif daemon_start; then
    dose undo >"$WORK/undo.log" 2>&1 || result FAIL polybar-undo-command "dosebar undo failed: $(cat "$WORK/undo.log")"
    bar_check polybar-daemon "$right" "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_COLOR" "undo in a terminal, daemon ran polybar-msg"
else
    result SKIP polybar-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
fi

errors=$(grep -a '|error' "$WORK/polybar.log")
if [ -n "$errors" ]; then result FAIL polybar-log "polybar logged errors: $errors"
else result PASS polybar-log "no error in polybar's log"; fi
cp "$WORK/polybar.log" "$ARTIFACTS/polybar.log"
{ echo "DISPLAY=$DISPLAY"; cat "${DOSEBAR_XVFB_ERR:-/dev/null}"; } >"$ARTIFACTS/polybar-xvfb.log" 2>/dev/null
rm -f "${DOSEBAR_XVFB_ERR:-}"
finish
