#!/usr/bin/env bash
# i3blocks: both shipped blocks run in a real i3blocks, which prints the i3bar
# protocol on stdout; clicks are written to its stdin as i3bar would.
#   dosebar.conf         interval=persist + `dosebar watch --format i3blocks`
#   dosebar-signal.conf  cat i3blocks.txt + signal + click actions
set -u
. "$(dirname "$0")/lib.sh"

if ! command -v i3blocks >/dev/null; then
    result SKIP i3blocks "i3blocks is not installed (apt-get install i3blocks)"; finish
fi
new_work i3blocks
scenario_setup || { result FAIL i3blocks-scenario "could not build the scenario"; finish; }

conf=$WORK/i3blocks.conf
stream=0
if watch_works i3blocks; then
    stream=1
    cat "$INTEGRATIONS_DIR/i3blocks/dosebar.conf" >"$conf"
else
    result SKIP i3blocks-stream "\`dosebar watch --format i3blocks\` does not run (${DOSEBAR_BIN:-no binary}); the persist block is not tested"
    : >"$conf"
fi
sed 's/^\[dosebar\]$/[dosebar-signal]/' "$INTEGRATIONS_DIR/i3blocks/dosebar-signal.conf" >>"$conf"

out=$WORK/i3blocks.out
mkfifo "$WORK/clicks"
dose_argv # i3blocks gets the scenario's environment; our binary first on PATH
env PATH="$WORK/bin:$PATH" "${DOSE_ARGV[@]:0:${#DOSE_ARGV[@]}-1}" \
    i3blocks -c "$conf" <"$WORK/clicks" >"$out" 2>"$WORK/i3blocks.err" &
i3pid=$!
CLEANUP_PIDS+=($i3pid)
exec 9>"$WORK/clicks"
echo '[' >&9

block() { # the latest state of block $1, as JSON
    grep -a '^,\[' "$out" | sed 's/^,//' | jq -c --arg n "$1" '.[] | select(.name == $n)' 2>/dev/null | tail -n1
}
field() { block "$1" | jq -r --arg f "$2" '.[$f] // empty'; }
shows() { [ "$(field "$1" full_text)" = "$2" ]; }

full=$(sed -n 1p "$SHARED/i3blocks.txt"); short=$(sed -n 2p "$SHARED/i3blocks.txt")
color=$(sed -n 3p "$SHARED/i3blocks.txt")
has_scenario_name "$full" || result FAIL i3blocks-file "i3blocks.txt names no medicine: $full"

if wait_for 8 shows dosebar-signal "$full"; then
    if [ "$(field dosebar-signal short_text)" = "$short" ] &&
       [ "$(field dosebar-signal color | tr A-F a-f)" = "$(echo "$color" | tr A-F a-f)" ]; then
        result PASS i3blocks-signal-block "full_text, short_text and color of i3blocks.txt: $(block dosebar-signal)"
    else
        result FAIL i3blocks-signal-block "short_text/color differ from i3blocks.txt: $(block dosebar-signal)"
    fi
else
    result FAIL i3blocks-signal-block "expected full_text '$full'; got $(block dosebar-signal) $(head -c 300 "$WORK/i3blocks.err")"
fi
if [ $stream = 1 ]; then
    if wait_for 8 shows dosebar "$full"; then
        result PASS i3blocks-stream "persist block: $(block dosebar)"
    else
        result FAIL i3blocks-stream "expected full_text '$full' from the persist block; got $(block dosebar) $(head -c 300 "$WORK/i3blocks.err")"
    fi
fi

if [ "$SCENARIO_SOURCE" = binary ]; then
    # A left click takes the late and the due dose; both blocks follow.
    echo '{"name":"dosebar-signal","instance":"","button":1,"x":10,"y":10}' >&9
    changed() { [ "$(sed -n 1p "$SHARED/i3blocks.txt")" != "$full" ]; }
    wait_for 8 changed
    after=$(sed -n 1p "$SHARED/i3blocks.txt")
    if [ "$after" = "$full" ]; then
        result FAIL i3blocks-click "left click changed nothing (take --next)"
    elif wait_for 8 shows dosebar-signal "$after"; then
        result PASS i3blocks-click "left click took the doses: $after"
    else
        result FAIL i3blocks-click "expected '$after' after the click; got $(block dosebar-signal)"
    fi
    if [ $stream = 1 ]; then
        if wait_for 8 shows dosebar "$after"; then
            result PASS i3blocks-stream-update "persist block followed the take"
        else
            result FAIL i3blocks-stream-update "persist block still shows $(field dosebar full_text)"
        fi
    fi
    echo ',{"name":"dosebar-signal","instance":"","button":3,"x":10,"y":10}' >&9
    undone() { [ "$(sed -n 1p "$SHARED/i3blocks.txt")" != "$after" ]; }
    wait_for 8 undone
    back=$(sed -n 1p "$SHARED/i3blocks.txt")
    if [ "$back" = "$after" ]; then
        result FAIL i3blocks-undo "right click changed nothing (undo)"
    elif wait_for 8 shows dosebar-signal "$back"; then
        result PASS i3blocks-undo "right click undid the last take: $back"
    else
        result FAIL i3blocks-undo "expected '$back' after the right click; got $(block dosebar-signal)"
    fi
    # With `dosebar daemon` running, an undo in a terminal reaches the block
    # (interval=once: only the daemon's SIGRTMIN+10 re-reads the file).
    if daemon_start; then
        dose undo >/dev/null 2>&1
        again=$(sed -n 1p "$SHARED/i3blocks.txt")
        if [ "$again" = "$back" ]; then
            result FAIL i3blocks-daemon "undo changed nothing"
        elif wait_for 8 shows dosebar-signal "$again"; then
            result PASS i3blocks-daemon "undo in a terminal, daemon signalled i3blocks: $again"
        else
            result FAIL i3blocks-daemon "expected '$again' with the daemon running; got $(block dosebar-signal)"
        fi
    else
        result SKIP i3blocks-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
    fi
else
    # As the daemon would after a change: the files move, i3blocks gets the signal.
    scenario_advance
    after=$(sed -n 1p "$SHARED/i3blocks.txt")
    kill -s RTMIN+10 "$i3pid"
    if wait_for 8 shows dosebar-signal "$after"; then
        result PASS i3blocks-signal "SIGRTMIN+10 re-read i3blocks.txt: $after"
    else
        result FAIL i3blocks-signal "expected '$after' after SIGRTMIN+10; got $(block dosebar-signal)"
    fi
fi
exec 9>&-
cp "$out" "$ARTIFACTS/i3blocks.out"; cp "$WORK/i3blocks.err" "$ARTIFACTS/i3blocks.err"
finish
