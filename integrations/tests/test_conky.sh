#!/usr/bin/env bash
# conky: our conky.conf (its Lua-built ${catp} path) run with out_to_console;
# every line of conky.txt must come out, colour tags consumed, and follow a take.
set -u
. "$(dirname "$0")/lib.sh"

if ! command -v conky >/dev/null; then
    result SKIP conky "conky is not installed (apt-get install conky-cli)"; finish
fi
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

expect=$(visible_conky "$SHARED/conky.txt")
first=$(printf '%s\n' "$expect" | head -n1)
has_scenario_name "$expect" || result FAIL conky-file "conky.txt names no medicine of the scenario"
shows() { grep -aqxF -- "$1" "$out"; }

if wait_for 8 shows "$first"; then
    missing=$(printf '%s\n' "$expect" | while IFS= read -r line; do
        [ -z "$line" ] || grep -aqxF -- "$line" "$out" || echo "$line"; done)
    if [ -n "$missing" ]; then
        result FAIL conky-catp "lines of conky.txt not printed: $missing"
    else
        result PASS conky-catp "$(printf '%s\n' "$expect" | wc -l) lines, first: $first"
    fi
else
    result FAIL conky-catp "expected '$first'; conky printed: $(head -c 400 "$out") $(head -c 400 "$WORK/conky.err")"
fi
if grep -aq '\${' "$out"; then
    result FAIL conky-color "a \${...} tag was printed literally: $(grep -a -m1 '\${' "$out")"
else
    result PASS conky-color "\${color} tags consumed by conky"
fi

scenario_advance || result FAIL conky-advance "take failed"
after=$(visible_conky "$SHARED/conky.txt" | head -n1)
if [ "$after" = "$first" ]; then
    result FAIL conky-update "conky.txt did not change after the take"
elif wait_for 8 shows "$after"; then
    result PASS conky-update "after take: $after"
else
    result FAIL conky-update "expected '$after' after the take"
fi
cp "$out" "$ARTIFACTS/conky.out"
finish
