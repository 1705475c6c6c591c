#!/usr/bin/env bash
# conky: our conky.conf (its Lua-built ${catp} path) run with out_to_console;
# it must print the lines the scenario calls for (lib.sh EXPECT_*), colour tags
# consumed, and follow a take of the scheduled doses and of an as-needed one.
set -u
. "$(dirname "$0")/lib.sh"

require conky conky perl
new_work conky
scenario_setup || { result FAIL conky-scenario "could not build the scenario"; finish; }

# The shipped config, turned into a console one: the X settings removed.
cat >"$WORK/console.conf" <<LUA
dofile('$INTEGRATIONS_DIR/conky/conky.conf')
for _, key in ipairs({'alignment', 'gap_x', 'gap_y', 'minimum_width', 'double_buffer',
        'own_window', 'own_window_type', 'own_window_transparent', 'own_window_argb_visual',
        'use_xft', 'font'}) do
    conky.config[key] = nil
end
conky.config.out_to_console = true
conky.config.update_interval = 0.5
LUA

out=$WORK/conky.out
DOSEBAR_DIR=$SHARED conky -c "$WORK/console.conf" >"$out" 2>"$WORK/conky.err" &
CLEANUP_PIDS+=($!)

# What conky must print, line for line, written from the scenario (lib.sh):
# the day's line, one line per dose (time, name, dose, status; a late dose
# with its lateness in the catalog's duration format: 09:00 - 06:00 = 180 min = "3h"),
# then the as-needed medicine, then the 7-day strip. conky cuts a line at a
# bare '#': "Ferrous & C #2" comes out whole only if conky.txt escaped it.
before=("$EXPECT_BEFORE_LINE"
        "06:00 Levothyroxine (50 µg) — late 3h"
        "08:00 Omega-3 — taken 08:10"
        "09:00 Magnesium — due"
        "21:00 Ferrous & C #2 — upcoming"
        "$EXPECT_PRN_BEFORE"
        "$EXPECT_WEEK")
after=("$EXPECT_AFTER_LINE"
       "06:00 Levothyroxine (50 µg) — taken late 09:30"
       "08:00 Omega-3 — taken 08:10"
       "09:00 Magnesium — taken 09:30"
       "21:00 Ferrous & C #2 — upcoming")
prn_after=("${after[@]}" "$EXPECT_PRN_AFTER" "$EXPECT_WEEK")
after+=("$EXPECT_PRN_BEFORE" "$EXPECT_WEEK")

# printed N: the last N complete lines conky printed (its last update), with
# whitespace, '—' and parentheses normalised (norm_lines).
printed() { perl -0777 -pe 's/[^\n]*\z//' "$out" | tail -n "$1" | norm_lines; }
# conky_check NAME WHAT LINE...: conky's last update is exactly these lines.
conky_check() {
    local name=$1 what=$2; shift 2
    local want; want=$(printf '%s\n' "$@" | norm_lines)
    same() { [ "$(printed $#)" = "$want" ]; }
    if wait_for 8 same "$@"; then
        result PASS "$name" "$what: $(printed $# | tr '\n' '|')"
    else
        result FAIL "$name" "$what: expected $(printf '%s|' "$@"); conky printed: $(printed $# | tr '\n' '|') $(head -c 300 "$WORK/conky.err")"
    fi
}

conky_check conky-catp "at 09:30" "${before[@]}"
if grep -aq '\${' "$out"; then
    result FAIL conky-color "a \${...} tag was printed literally: $(grep -a -m1 '\${' "$out")"
else
    result PASS conky-color "\${color} tags consumed by conky"
fi

scenario_advance || result FAIL conky-advance "take failed"
conky_check conky-update "after the take of Levothyroxine and Magnesium at 09:30" "${after[@]}"

# An as-needed take changes conky's as-needed line (DESIGN §4).
if [ "$SCENARIO_SOURCE" != binary ]; then
    result SKIP conky-as-needed "no working dosebar binary: the as-needed take is not tested"
else
    dose take Ibuprofen >"$WORK/prn.log" 2>&1 || result FAIL conky-as-needed-take "dosebar take Ibuprofen failed: $(cat "$WORK/prn.log")"
    conky_check conky-as-needed "after take Ibuprofen at 09:30" "${prn_after[@]}"
fi
cp "$out" "$ARTIFACTS/conky.out"
finish
