#!/usr/bin/env bash
# i3blocks: both shipped blocks run in a real i3blocks, which prints the i3bar
# protocol on stdout; clicks are written to its stdin as i3bar would.
#   dosebar.conf         interval=persist + `dosebar watch --format i3blocks`
#   dosebar-signal.conf  cat i3blocks.txt + signal + click actions
set -u
. "$(dirname "$0")/lib.sh"

require i3blocks i3blocks jq perl
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
MUTATE_NUDGE="kill -s RTMIN+10 $i3pid" # self-test: as the daemon would
exec 9>"$WORK/clicks"
echo '[' >&9

block() { # the latest state of block $1, as JSON
    grep -a '^,\[' "$out" | sed 's/^,//' | jq -c --arg n "$1" '.[] | select(.name == $n)' 2>/dev/null | tail -n1
}
field() { block "$1" | jq -r --arg f "$2" '.[$f] // empty'; }

# block_check NAME BLOCK FULL SHORT COLOUR WHAT: the block i3blocks printed
# last has these full_text, short_text and color (lib.sh EXPECT_*; an empty
# colour: none, the bar's own).
is_block() { [ "$(field "$1" full_text)" = "$2" ] && [ "$(field "$1" short_text)" = "$3" ] &&
             [ "$(field "$1" color | tr A-F a-f)" = "$4" ]; }
block_check() {
    local name=$1 blk=$2 full=$3 short=$4 color=$5 what=$6
    if wait_for 8 is_block "$blk" "$full" "$short" "$color"; then
        result PASS "$name" "$what: $(block "$blk")"
    else
        result FAIL "$name" "$what: expected full_text '$full', short_text '$short', color '$color'; got $(block "$blk") $(head -c 300 "$WORK/i3blocks.err")"
    fi
}

block_check i3blocks-signal-block dosebar-signal "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_SHORT" "$EXPECT_BEFORE_COLOR" "at 09:30"
if [ $stream = 1 ]; then
    block_check i3blocks-stream dosebar "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_SHORT" "$EXPECT_BEFORE_COLOR" "persist block at 09:30"
fi

if [ "$SCENARIO_SOURCE" = binary ]; then
    # A left click takes the late and the due dose (take --next); both blocks follow.
    echo '{"name":"dosebar-signal","instance":"","button":1,"x":10,"y":10}' >&9
    block_check i3blocks-click dosebar-signal "$EXPECT_AFTER_LINE" "$EXPECT_AFTER_SHORT" "$EXPECT_AFTER_COLOR" "after a left click"
    if [ $stream = 1 ]; then
        block_check i3blocks-stream-update dosebar "$EXPECT_AFTER_LINE" "$EXPECT_AFTER_SHORT" "$EXPECT_AFTER_COLOR" "persist block after the click"
    fi
    # A right click undoes that take: the day as at 09:30 again.
    echo ',{"name":"dosebar-signal","instance":"","button":3,"x":10,"y":10}' >&9
    block_check i3blocks-undo dosebar-signal "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_SHORT" "$EXPECT_BEFORE_COLOR" "after a right click (undo)"
    # With `dosebar daemon` running, an undo in a terminal reaches the block
    # (interval=once: only the daemon's SIGRTMIN+10 re-reads the file); it
    # un-takes Omega-3 (EXPECT_UNDO2_LINE).
    if daemon_start; then
        dose undo >"$WORK/undo.log" 2>&1 || result FAIL i3blocks-undo-command "dosebar undo failed: $(cat "$WORK/undo.log")"
        block_check i3blocks-daemon dosebar-signal "$EXPECT_UNDO2_LINE" "$EXPECT_UNDO2_SHORT" "$EXPECT_BEFORE_COLOR" "undo in a terminal, daemon signalled i3blocks"
    else
        result SKIP i3blocks-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
    fi
else
    result SKIP i3blocks-click "no working dosebar binary: clicks and the daemon are not tested"
    # As the daemon would after a change: the files move, i3blocks gets the signal.
    scenario_advance
    kill -s RTMIN+10 "$i3pid"
    block_check i3blocks-signal dosebar-signal "$EXPECT_AFTER_LINE" "$EXPECT_AFTER_SHORT" "$EXPECT_AFTER_COLOR" "SIGRTMIN+10 re-read i3blocks.txt"
fi
exec 9>&-
cp "$out" "$ARTIFACTS/i3blocks.out"; cp "$WORK/i3blocks.err" "$ARTIFACTS/i3blocks.err"
finish
