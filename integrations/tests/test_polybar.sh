#!/usr/bin/env bash
# polybar under xvfb-run: both shipped modules in one real bar,
#   dosebar.ini      custom/script, tail = true, `dosebar watch --format polybar`
#                    (left, renamed dosebar-stream)
#   dosebar-ipc.ini  custom/ipc reading polybar.txt, re-read by polybar-msg (right,
#                    keeps its name: `dosebar daemon` sends `action dosebar hook 0`)
# The bar is screenshot (kept as an artifact) and read back with OCR: it must show
# the medicine of our file, in the colour of our file, and follow a take.
set -u
. "$(dirname "$0")/lib.sh"

for tool in polybar xvfb-run import convert tesseract; do
    command -v $tool >/dev/null || {
        result SKIP polybar "$tool is not installed (apt-get install polybar xvfb xauth imagemagick tesseract-ocr)"
        finish; }
done
if [ -z "${DISPLAY:-}" ] || [ -z "${DOSEBAR_IN_XVFB:-}" ]; then
    DOSEBAR_IN_XVFB=1 exec xvfb-run -a -s "-screen 0 1400x240x24" bash "$0" "$@"
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

dose_argv # polybar runs with the scenario's environment, our binary first on PATH
env PATH="$WORK/bin:$PATH" "${DOSE_ARGV[@]:0:${#DOSE_ARGV[@]}-1}" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
    polybar -c "$conf" -l info it >"$WORK/polybar.log" 2>&1 &
pbpid=$!
CLEANUP_PIDS+=($pbpid)

left=700x44+0+0 right=700x44+700+0
shot() { import -window root -crop 1400x44+0+0 +repage "$1" 2>/dev/null; }
# reads REGION WORD: the bar, photographed, shows WORD in REGION.
reads() { shot "$WORK/now.png" && ocr "$WORK/now.png" "$1" | grep -qF -- "$2"; }

expect=$(visible_polybar "$SHARED/polybar.txt")
word=$(scenario_word "$expect")
color=$(first_color "$SHARED/polybar.txt")
[ -n "$word" ] || result FAIL polybar-file "polybar.txt names no medicine of the scenario: $expect"

if wait_for 10 reads "$right" "$word"; then
    result PASS polybar-ipc "custom/ipc shows '$word' (of: $expect)"
else
    result FAIL polybar-ipc "OCR of the bar does not show '$word'; read: $(ocr "$WORK/now.png" "$right")"
fi
cp "$WORK/now.png" "$ARTIFACTS/polybar-before.png"
if [ -n "$color" ] && [ "$(color_pixels "$WORK/now.png" "$right" "$color")" -gt 50 ]; then
    result PASS polybar-colour "text drawn in $color from %{F$color}"
else
    result FAIL polybar-colour "no pixels of ${color:-(no colour in polybar.txt)} in the module"
fi
if [ $stream = 1 ]; then
    if wait_for 10 reads "$left" "$word"; then
        result PASS polybar-stream "tail module shows '$word'"
    else
        result FAIL polybar-stream "OCR of the tail module does not show '$word'; read: $(ocr "$WORK/now.png" "$left")"
    fi
fi

# The late and due doses are taken; the daemon would then run polybar-msg.
before_ocr=$(ocr "$WORK/now.png" "$right")
scenario_advance || result FAIL polybar-advance "take failed"
after=$(visible_polybar "$SHARED/polybar.txt"); aword=$(scenario_word "$after")
env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" polybar-msg -p "$pbpid" action dosebar hook 0 >"$WORK/msg.log" 2>&1 ||
    result FAIL polybar-msg "polybar-msg failed: $(cat "$WORK/msg.log")"
if [ "$after" = "$expect" ]; then
    result FAIL polybar-update "polybar.txt did not change after the take"
elif wait_for 10 reads "$right" "$aword" && [ "$(ocr "$WORK/now.png" "$right")" != "$before_ocr" ]; then
    result PASS polybar-update "after take + polybar-msg: '$aword' (of: $after)"
else
    result FAIL polybar-update "expected '$aword' after polybar-msg; read: $(ocr "$WORK/now.png" "$right")"
fi
if [ $stream = 1 ]; then
    if wait_for 10 reads "$left" "$aword"; then
        result PASS polybar-stream-update "tail module followed the take"
    else
        result FAIL polybar-stream-update "tail module does not show '$aword'; read: $(ocr "$WORK/now.png" "$left")"
    fi
fi
cp "$WORK/now.png" "$ARTIFACTS/polybar-after.png"

# With `dosebar daemon` running, an undo in a terminal reaches the ipc module
# (only the daemon's polybar-msg re-reads the file).
if [ "$SCENARIO_SOURCE" = binary ]; then
    if daemon_start; then
        after_ocr=$(ocr "$WORK/now.png" "$right")
        dose undo >/dev/null 2>&1
        back=$(visible_polybar "$SHARED/polybar.txt"); bword=$(scenario_word "$back")
        if [ "$back" = "$after" ]; then
            result FAIL polybar-daemon "undo changed nothing"
        elif wait_for 10 reads "$right" "$bword" && [ "$(ocr "$WORK/now.png" "$right")" != "$after_ocr" ]; then
            result PASS polybar-daemon "undo in a terminal, daemon ran polybar-msg: '$bword' (of: $back)"
        else
            result FAIL polybar-daemon "expected '$bword' with the daemon running; read: $(ocr "$WORK/now.png" "$right")"
        fi
    else
        result SKIP polybar-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
    fi
fi

errors=$(grep -a '|error' "$WORK/polybar.log")
if [ -n "$errors" ]; then result FAIL polybar-log "polybar logged errors: $errors"
else result PASS polybar-log "no error in polybar's log"; fi
cp "$WORK/polybar.log" "$ARTIFACTS/polybar.log"
finish
