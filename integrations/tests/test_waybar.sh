#!/usr/bin/env bash
# waybar under a headless sway: both shipped modules in one real bar,
#   config.jsonc         `dosebar watch --format waybar` (left)
#   config-signal.jsonc  cat waybar.json + interval + signal (right)
# with the shipped style.css. sway refuses to run as root, so as root the test
# runs sway, waybar, grim and dosebar as a test user (created if missing) with
# its own 0700 XDG_RUNTIME_DIR. The bar is photographed with grim (kept as an
# artifact) and read back with OCR; the tooltip is made to show by a virtual
# pointer (fixtures/wl-hover.py) resting on the module, and read back too.
# Every expectation is a constant of lib.sh written from the scenario. Last, a
# carried dose (lib.sh EXPECT_CARRIED_*, a second database at 00:30) on the
# signal module and in its tooltip.
set -u
. "$(dirname "$0")/lib.sh"

require waybar sway waybar grim convert identify tesseract jq setpriv python3 gjs perl dbus-run-session

if [ "$(id -u)" = 0 ]; then
    SCENARIO_USER=${DOSEBAR_TEST_USER:-dosebar-it}
    if ! id "$SCENARIO_USER" >/dev/null 2>&1; then
        useradd -m -s /bin/sh "$SCENARIO_USER" 2>/dev/null || {
            result SKIP waybar "cannot create the test user $SCENARIO_USER (sway refuses root)"; finish; }
    fi
fi
new_work waybar
scenario_setup || { result FAIL waybar-scenario "could not build the scenario"; finish; }

rt=$WORK/rt
run_as mkdir -m 700 "$rt"
mkdir -m 777 "$WORK/out" # grim writes here as the test user
mkdir -p "$WORK/cfg"; chmod 755 "$WORK/cfg"

# --- the bar: the shipped snippets, one per side, and the shipped style.
stream=0
if watch_works waybar; then stream=1; else
    result SKIP waybar-stream "\`dosebar watch --format waybar\` does not run (${DOSEBAR_BIN:-no binary}); the streaming module is not tested"
fi
jsonc() { grep -v '^[[:space:]]*//' "$1" | perl -pe 's{\s+//[^"]*$}{}'; }
jsonc "$INTEGRATIONS_DIR/waybar/config.jsonc" >"$WORK/stream.json"
jsonc "$INTEGRATIONS_DIR/waybar/config-signal.jsonc" >"$WORK/signal.json"
jq -n --slurpfile s "$WORK/stream.json" --slurpfile g "$WORK/signal.json" --argjson stream $stream '{
    layer: "top", position: "top", height: 44,
    "modules-left": (if $stream == 1 then ["custom/dosebar"] else [] end),
    "modules-right": ["custom/dosebar-signal"],
    "custom/dosebar": $s[0]["custom/dosebar"],
    "custom/dosebar-signal": $g[0]["custom/dosebar"]
}' >"$WORK/cfg/config" || { result FAIL waybar-config "the shipped .jsonc files are not valid JSON(C)"; finish; }
# The shipped rules, each selector also given to the signal module (which
# needs another name in the same bar); the tooltip black on white for OCR, and
# room right of the signal module, so a tooltip opened there is not cut off at
# the screen's edge (the module still ends at x = 1400).
{
    echo '* { font-family: "DejaVu Sans"; font-size: 22px; }'
    echo 'window#waybar { background: #ffffff; color: #000000; }'
    echo 'tooltip { background: #ffffff; border: none; } tooltip label { color: #000000; }'
    echo '#custom-dosebar-signal { margin-right: 600px; }'
    perl -pe 's/#custom-dosebar((?:\.[a-z]+)?)(?![\w-])/#custom-dosebar$1, #custom-dosebar-signal$1/g' \
        "$INTEGRATIONS_DIR/waybar/style.css"
} >"$WORK/cfg/style.css"
chmod -R a+rX "$WORK/cfg"
W=2000 H=600
printf 'output HEADLESS-1 resolution %sx%s\nxwayland disable\ndefault_border none\n' $W $H >"$WORK/cfg/sway"

# UARGV: the command prefix for the desktop session of the test user.
user_env_argv() {
    UARGV=(env -i HOME="$SCENARIO_HOME" USER="${SCENARIO_USER:-$USER}" LANG=C.UTF-8
        PATH="$WORK/bin:/usr/local/bin:/usr/bin:/bin" XDG_RUNTIME_DIR="$rt"
        XDG_CONFIG_HOME="$WORK/cfg/none")
    if [ -n "${SCENARIO_USER:-}" ]; then
        UARGV=(setpriv --reuid="$SCENARIO_USER" --regid="$SCENARIO_USER" --init-groups "${UARGV[@]}")
    fi
}
as_user_env() { user_env_argv; "${UARGV[@]}" "$@"; }
user_env_argv
"${UARGV[@]}" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
    sway -c "$WORK/cfg/sway" >"$WORK/sway.log" 2>&1 &
CLEANUP_PIDS+=($!)
if ! wait_for 10 test -S "$rt/wayland-1"; then
    result SKIP waybar "headless sway did not start: $(tail -n 3 "$WORK/sway.log" | tr '\n' ' ')"
    cp "$WORK/sway.log" "$ARTIFACTS/sway.log"; finish
fi

# waybar with the scenario's environment (database, directory, clock).
envs=()
dose_argv
for a in "${DOSE_ARGV[@]}"; do case $a in DOSEBAR_*=*|TZ=*) envs+=("$a") ;; esac; done
# In a D-Bus session of its own, as in a desktop session: waybar 0.12 (Debian 13)
# refuses to start without a session bus ("Cannot autolaunch D-Bus without X11
# $DISPLAY"); 0.9 (Debian 12) does without. A bare bus (fixtures/session-bus.conf:
# nothing activated on demand; GTK would start portals, at-spi, gvfs that outlive
# the test). The shell in between writes waybar's own pid (the one signals go to)
# before it becomes waybar.
cp "$FIXTURES_DIR/session-bus.conf" "$WORK/cfg/session-bus.conf"
"${UARGV[@]}" WAYLAND_DISPLAY=wayland-1 NO_AT_BRIDGE=1 "${envs[@]}" \
    dbus-run-session --config-file="$WORK/cfg/session-bus.conf" -- \
    sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/out/waybar.pid" \
    waybar -l debug -c "$WORK/cfg/config" -s "$WORK/cfg/style.css" >"$WORK/waybar.log" 2>&1 &
session_pid=$!
# Only waybar is ended at the end: dbus-run-session then ends its bus (killed
# itself, it would leave the bus behind).
wait_for 5 test -s "$WORK/out/waybar.pid" || {
    kill "$session_pid" 2>/dev/null
    result FAIL waybar-start "waybar did not start: $(tail -n 3 "$WORK/waybar.log" | tr '\n' ' ')"; finish; }
wbpid=$(cat "$WORK/out/waybar.pid")
CLEANUP_PIDS+=($wbpid)
MUTATE_NUDGE="kill -s RTMIN+8 $wbpid" # self-test: as the daemon would

left=700x44+0+0 right=700x44+700+0
# The bar photographed (lib.sh's reads, inked and bar_check read $SHOT). A class
# without a style.css rule (upcoming) is drawn in the bar's own #000000.
SHOT=$WORK/out/now.png
shot() { as_user_env WAYLAND_DISPLAY=wayland-1 grim "$SHOT" 2>/dev/null; }
BAR_READ_WAIT=15

# hover X: a virtual pointer rests on X,40 of the bar while the tooltip is read.
HOVER_PID=
hover() {
    unhover
    # The argv itself in the background (not a function), so $! is python's own pid.
    user_env_argv
    "${UARGV[@]}" WAYLAND_DISPLAY=wayland-1 python3 "$FIXTURES_DIR/wl-hover.py" "$1" 40 $W $H 60 >"$WORK/hover.log" 2>&1 &
    HOVER_PID=$!
    CLEANUP_PIDS+=($HOVER_PID)
    wait_for 5 grep -q hovering "$WORK/hover.log"
}
unhover() { [ -n "$HOVER_PID" ] && { kill "$HOVER_PID" 2>/dev/null; wait "$HOVER_PID" 2>/dev/null; HOVER_PID=; }; return 0; }
# The tooltip as OCR reads it: below the bar, cut to its white box.
tooltip_lines() {
    convert "$WORK/out/now.png" -crop ${W}x$((H - 48))+0+48 +repage -bordercolor '#404040' -border 1 \
        -fuzz 8% -trim +repage "$WORK/out/tip.png" 2>/dev/null &&
        ocr_lines "$WORK/out/tip.png" "$(identify -format '%wx%h+0+0' "$WORK/out/tip.png")"
}
# tooltip_misses OCR LINE...: the expected lines OCR did not read, in this
# order, each as a whole line of the tooltip (words compared as tokens() does;
# the dose "50 µg" left out on both sides: tesseract does not read µ reliably).
tooltip_misses() {
    local got=$1; shift
    printf '%s\n' "$got" | perl -CSDA -Mutf8 -e '
        sub toks {
            my $s = shift; $s =~ s/\b50\s*\S{0,2}g\b//g;
            join " ", map { my $w = $_; $w =~ s/^[^\p{L}\p{N}#&]+//; $w =~ s/[^\p{L}\p{N}#&]+$//;
                            $w =~ tr/I|/ll/; length $w ? $w : () } split /[\s·—|]+/, $s;
        }
        my @got = map { chomp; toks($_) } <STDIN>;
        my ($i, @miss) = (0);
        for my $w (@ARGV) {
            my $t = toks($w); my $j = $i;
            $j++ while $j < @got && $got[$j] ne $t;
            if ($j < @got) { $i = $j + 1 } else { push @miss, $w }
        }
        print join("; ", @miss);' "$@"
}
# tooltip_check NAME X WHAT LINE...: hover the module at X, read its tooltip.
tooltip_check() {
    local name=$1 x=$2 what=$3; shift 3
    local miss got
    if ! hover "$x"; then
        result FAIL "$name" "no virtual pointer: $(cat "$WORK/hover.log")"; return
    fi
    tips() { shot && got=$(tooltip_lines) && miss=$(tooltip_misses "$got" "$@") && [ -z "$miss" ]; }
    # A second hover if the first showed nothing, as a person moves the mouse again
    # (waybar 0.12 once left a tooltip unshown for all 10 s of a rest).
    if wait_for 6 tips "$@" || { hover "$x" && wait_for 6 tips "$@"; }; then
        result PASS "$name" "$what: $(printf '%s' "$got" | tr '\n' '|')"
    else
        result FAIL "$name" "$what: not in the tooltip: $miss; OCR read: $(printf '%s' "$got" | tr '\n' '|')"
    fi
    cp "$WORK/out/now.png" "$ARTIFACTS/waybar-$name.png" 2>/dev/null
    unhover
}
# Where to rest the pointer: near the start of a module's text (a tooltip
# opened at the right edge of the screen is cut off there).
text_x() {
    local x0 off
    x0=$(echo "$1" | cut -d+ -f2)
    off=$(convert "$WORK/out/now.png" -crop "$1" +repage -fuzz 5% -trim -format '%X' info: 2>/dev/null | tr -d '+')
    echo $(( x0 + ${off:-0} + 30 ))
}

# --- before: the scenario at 09:30 (lib.sh EXPECT_BEFORE_*)
bar_check waybar-signal-module "$right" "$EXPECT_BEFORE_TEXT" "$EXPECT_BEFORE_COLOR" "signal module, class $EXPECT_BEFORE_STATE"
cp "$WORK/out/now.png" "$ARTIFACTS/waybar-before.png" 2>/dev/null
if [ $stream = 1 ]; then
    bar_check waybar-stream "$left" "$EXPECT_BEFORE_TEXT" "$EXPECT_BEFORE_COLOR" "streaming module, class $EXPECT_BEFORE_STATE"
fi

# The file waybar consumes: format is "{icon} {0}", so the text must not bring
# the icon a second time; alt and class pick the icon and the style rule.
file=$SHARED/waybar.json
got=$(jq -c '{text, alt, class, percentage}' "$file" 2>&1)
want=$(jq -nc --arg t "$EXPECT_BEFORE_TEXT" --arg s "$EXPECT_BEFORE_STATE" --argjson p "$EXPECT_BEFORE_PERCENT" \
    '{text: ($t | gsub("&"; "&amp;")), alt: $s, class: $s, percentage: $p}')
if [ "$got" = "$want" ]; then result PASS waybar-json "waybar.json: $got"
else result FAIL waybar-json "waybar.json is $got; expected $want"; fi
# The text and the tooltip are valid Pango markup (waybar would show nothing).
markup_ok() { gjs -c "imports.gi.versions.Pango = '1.0'; imports.gi.Pango.parse_markup(ARGV[0], -1, ''); print('ok')" "$1" 2>&1; }
bad=""
for f in text tooltip; do
    v=$(jq -r ".$f" "$file"); r=$(markup_ok "$v")
    [ "$r" = ok ] || bad="$bad $f: $r;"
done
if [ -z "$bad" ]; then result PASS waybar-markup "text and tooltip parse as Pango markup"
else result FAIL waybar-markup "$bad"; fi

# The tooltip waybar shows: every dose of the day with its status, then the
# as-needed medicine with today's count.
tooltip_check waybar-tooltip "$(text_x "$right")" "signal module at 09:30" "${EXPECT_BEFORE_DOSES[@]}" "$EXPECT_PRN_BEFORE"

# --- Left click of the signal module, as waybar runs it: take, then SIGRTMIN+8.
click=$(jq -r '.["custom/dosebar"]["on-click"]' "$WORK/signal.json")
if [ "$SCENARIO_SOURCE" = binary ]; then
    as_user_env WAYLAND_DISPLAY=wayland-1 "${envs[@]}" sh -c "$click" >"$WORK/click.log" 2>&1
else
    scenario_advance; kill -s RTMIN+8 "$wbpid"
fi
bar_check waybar-click "$right" "$EXPECT_AFTER_TEXT" "$EXPECT_AFTER_COLOR" "after on-click ($click), class $EXPECT_AFTER_STATE"
if [ $stream = 1 ]; then
    bar_check waybar-stream-update "$left" "$EXPECT_AFTER_TEXT" "$EXPECT_AFTER_COLOR" "streaming module after the take"
fi
cp "$WORK/out/now.png" "$ARTIFACTS/waybar-after.png" 2>/dev/null

# --- With `dosebar daemon` running (as the same user), an undo in a terminal
# reaches the signal module (interval 60 s: only SIGRTMIN+8 is that fast), and
# so does a take of the as-needed medicine, which changes only the tooltip.
if [ "$SCENARIO_SOURCE" != binary ]; then
    result SKIP waybar-daemon "no working dosebar binary: the daemon and the as-needed take are not tested"
elif daemon_start; then
    dose undo >"$WORK/undo.log" 2>&1 || result FAIL waybar-undo-command "dosebar undo failed: $(cat "$WORK/undo.log")"
    bar_check waybar-daemon "$right" "$EXPECT_BEFORE_TEXT" "$EXPECT_BEFORE_COLOR" "undo in a terminal, daemon signalled waybar"
    dose take Ibuprofen >"$WORK/prn.log" 2>&1 || result FAIL waybar-as-needed-take "dosebar take Ibuprofen failed: $(cat "$WORK/prn.log")"
    # The daemon signalled waybar: the module re-read the file (its text is now
    # as of 09:30), and its tooltip lists the as-needed dose.
    bar_check waybar-as-needed-text "$right" "$EXPECT_PRN_TAKEN_TEXT" "$EXPECT_BEFORE_COLOR" "after take Ibuprofen at 09:30"
    tooltip_check waybar-as-needed "$(text_x "$right")" "signal module after take Ibuprofen at 09:30" \
        "${EXPECT_BEFORE_DOSES[@]}" "$EXPECT_PRN_AFTER"
    if [ $stream = 1 ]; then
        bar_check waybar-stream-as-needed-text "$left" "$EXPECT_PRN_TAKEN_TEXT" "$EXPECT_BEFORE_COLOR" "streaming module after take Ibuprofen"
        tooltip_check waybar-stream-as-needed "$(text_x "$left")" "streaming module after take Ibuprofen" \
            "${EXPECT_BEFORE_DOSES[@]}" "$EXPECT_PRN_AFTER"
    fi
else
    result SKIP waybar-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
fi

# --- The carried dose (lib.sh EXPECT_CARRIED_*): last night's 22:00 still
# open at 00:30, from a second database exported into the same directory. The
# daemon (which would rewrite the directory from the scenario's database) is
# stopped first; the bar is nudged as the daemon would (SIGRTMIN+8). Only the
# signal module is read: the streaming one runs `watch` with the scenario's
# DOSEBAR_NOW (09:30), so it shows that instant of the new timeline.
if [ "$SCENARIO_SOURCE" != binary ]; then
    result SKIP waybar-carried "no working dosebar binary: the carried dose is not tested"
else
    if [ -n "${DAEMON_PID:-}" ]; then kill "$DAEMON_PID" 2>/dev/null; wait "$DAEMON_PID" 2>/dev/null; fi
    if carried_setup; then
        kill -s RTMIN+8 "$wbpid"
        bar_check waybar-carried "$right" "$EXPECT_CARRIED_TEXT" "$EXPECT_CARRIED_COLOR" \
            "a second database at 00:30, Yaz's 22:00 of yesterday carried, class $EXPECT_CARRIED_STATE"
        cp "$WORK/out/now.png" "$ARTIFACTS/waybar-carried.png" 2>/dev/null
        got=$(jq -c '{text, alt, class, percentage}' "$file" 2>&1)
        want=$(jq -nc --arg t "$EXPECT_CARRIED_TEXT" --arg s "$EXPECT_CARRIED_STATE" --argjson p "$EXPECT_CARRIED_PERCENT" \
            '{text: $t, alt: $s, class: $s, percentage: $p}')
        if [ "$got" = "$want" ]; then result PASS waybar-carried-json "waybar.json: $got"
        else result FAIL waybar-carried-json "waybar.json is $got; expected $want"; fi
        tooltip_check waybar-carried-tooltip "$(text_x "$right")" "signal module at 00:30, carried dose first" \
            "${EXPECT_CARRIED_DOSES[@]}" "$EXPECT_CARRIED_MESSAGE"
    else
        result FAIL waybar-carried-scenario "could not build the carried phase (see stderr)"
    fi
fi

# waybar itself: no error, no rejected markup. ("basic_string::_M_create" is
# printed by waybar 0.9.17 at every start under sway 1.7, with or without us.)
errors=$(grep -a -i -E '\[error\]|\[critical\]|WARNING|markup' "$WORK/waybar.log" | grep -v 'basic_string::_M_create')
if [ -n "$errors" ]; then result FAIL waybar-log "waybar logged: $errors"
else result PASS waybar-log "no error or markup warning in waybar's log"; fi
cp "$WORK/waybar.log" "$ARTIFACTS/waybar.log"; cp "$WORK/sway.log" "$ARTIFACTS/sway.log"
finish
