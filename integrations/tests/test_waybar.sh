#!/usr/bin/env bash
# waybar under a headless sway: both shipped modules in one real bar,
#   config.jsonc         `dosebar watch --format waybar` (left)
#   config-signal.jsonc  cat waybar.json + interval + signal (right)
# with the shipped style.css. sway refuses to run as root, so as root the test
# runs sway, waybar, grim and dosebar as a test user (created if missing) with
# its own 0700 XDG_RUNTIME_DIR. The bar is photographed with grim (kept as an
# artifact) and read back with OCR.
set -u
. "$(dirname "$0")/lib.sh"

for tool in sway waybar grim convert tesseract jq setpriv; do
    command -v $tool >/dev/null || {
        result SKIP waybar "$tool is not installed (apt-get install sway waybar grim imagemagick tesseract-ocr jq)"
        finish; }
done

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
{
    echo '* { font-family: "DejaVu Sans"; font-size: 22px; }'
    echo 'window#waybar { background: #ffffff; color: #000000; }'
    sed 's/#custom-dosebar\b/#custom-dosebar, #custom-dosebar-signal/; s/#custom-dosebar\.\([a-z]*\)/#custom-dosebar.\1, #custom-dosebar-signal.\1/g' \
        "$INTEGRATIONS_DIR/waybar/style.css"
} >"$WORK/cfg/style.css"
chmod -R a+rX "$WORK/cfg"
printf 'output HEADLESS-1 resolution 1400x300\nxwayland disable\ndefault_border none\n' >"$WORK/cfg/sway"

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
"${UARGV[@]}" WAYLAND_DISPLAY=wayland-1 "${envs[@]}" \
    waybar -l debug -c "$WORK/cfg/config" -s "$WORK/cfg/style.css" >"$WORK/waybar.log" 2>&1 &
wbpid=$!
CLEANUP_PIDS+=($wbpid)

left=700x44+0+0 right=700x44+700+0
shot() { as_user_env WAYLAND_DISPLAY=wayland-1 grim -g "0,0 1400x44" "$WORK/out/now.png" 2>/dev/null; }
reads() { shot && ocr "$WORK/out/now.png" "$1" | grep -qF -- "$2"; }

file=$SHARED/waybar.json
expect=$(visible_waybar "$file"); word=$(scenario_word "$expect")
state=$(jq -r .alt "$file")
[ -n "$word" ] || result FAIL waybar-file "waybar.json names no medicine of the scenario: $expect"

if wait_for 15 reads "$right" "$word"; then
    result PASS waybar-signal-module "shows '$word' (of: $expect)"
else
    result FAIL waybar-signal-module "OCR of the bar does not show '$word'; read: $(ocr "$WORK/out/now.png" "$right")"
fi
cp "$WORK/out/now.png" "$ARTIFACTS/waybar-before.png" 2>/dev/null
# The class from our file picked the colour of the shipped style.css.
color=$(awk -v s="#custom-dosebar.$state" 'index($0, s) { f = 1 } f && /color:/ { gsub(/[;[:space:]]/, ""); sub("color:", ""); print; exit }' \
    "$INTEGRATIONS_DIR/waybar/style.css")
if [ -n "$color" ]; then
    if [ "$(color_pixels "$WORK/out/now.png" "$right" "$color")" -gt 50 ]; then
        result PASS waybar-class "class '$state' drawn in $color by style.css"
    else
        result FAIL waybar-class "class '$state' should be drawn in $color; no such pixels"
    fi
fi
if [ $stream = 1 ]; then
    if wait_for 10 reads "$left" "$word"; then
        result PASS waybar-stream "streaming module shows '$word'"
    else
        result FAIL waybar-stream "OCR of the streaming module does not show '$word'; read: $(ocr "$WORK/out/now.png" "$left")"
    fi
fi

# The text and the tooltip are valid Pango markup; the tooltip lists the day.
markup_ok() { gjs -c "imports.gi.versions.Pango = '1.0'; imports.gi.Pango.parse_markup(ARGV[0], -1, ''); print('ok')" "$1" 2>&1; }
bad=""
for f in text tooltip; do
    v=$(jq -r ".$f" "$file"); r=$(markup_ok "$v")
    [ "$r" = ok ] || bad="$bad $f: $r;"
done
if [ -z "$bad" ]; then result PASS waybar-markup "text and tooltip parse as Pango markup"
else result FAIL waybar-markup "$bad"; fi
tooltip=$(visible_waybar <(jq '{text: .tooltip}' "$file"))
missing=""; for n in "${SCENARIO_NAMES[@]}"; do case $tooltip in *"$n"*) ;; *) missing="$missing $n;" ;; esac; done
if [ -z "$missing" ]; then result PASS waybar-tooltip "tooltip lists every dose of the day"
else result FAIL waybar-tooltip "tooltip lacks:$missing"; fi
# format is "{icon} {0}": the text must not bring the icon a second time.
icon=$(jq -r --arg s "$state" '.["custom/dosebar"]["format-icons"][$s] // empty' "$WORK/signal.json")
case $expect in
    "$icon"*) result FAIL waybar-icon-once "the text already starts with $icon, so the bar shows it twice ('{icon} {0}'): $expect" ;;
    *) result PASS waybar-icon-once "icon comes from format-icons only" ;;
esac

# Left click of the signal module, as waybar runs it: take, then SIGRTMIN+8.
before_ocr=$(ocr "$WORK/out/now.png" "$right")
click=$(jq -r '.["custom/dosebar"]["on-click"]' "$WORK/signal.json")
if [ "$SCENARIO_SOURCE" = binary ]; then
    as_user_env WAYLAND_DISPLAY=wayland-1 "${envs[@]}" sh -c "$click" >"$WORK/click.log" 2>&1
else
    scenario_advance; kill -s RTMIN+8 "$wbpid"
fi
after=$(visible_waybar "$file"); aword=$(scenario_word "$after")
if [ "$after" = "$expect" ]; then
    result FAIL waybar-click "waybar.json did not change after on-click ($click): $(cat "$WORK/click.log" 2>/dev/null)"
elif wait_for 10 reads "$right" "$aword" && [ "$(ocr "$WORK/out/now.png" "$right")" != "$before_ocr" ]; then
    result PASS waybar-click "on-click + SIGRTMIN+8: '$aword' (of: $after)"
else
    result FAIL waybar-click "expected '$aword' after on-click; read: $(ocr "$WORK/out/now.png" "$right")"
fi
if [ $stream = 1 ]; then
    if wait_for 10 reads "$left" "$aword"; then
        result PASS waybar-stream-update "streaming module followed the take"
    else
        result FAIL waybar-stream-update "streaming module does not show '$aword'; read: $(ocr "$WORK/out/now.png" "$left")"
    fi
fi
cp "$WORK/out/now.png" "$ARTIFACTS/waybar-after.png" 2>/dev/null

# With `dosebar daemon` running (as the same user), an undo in a terminal
# reaches the signal module (interval 60 s: only SIGRTMIN+8 is that fast).
if [ "$SCENARIO_SOURCE" = binary ]; then
    if daemon_start; then
        after_ocr=$(ocr "$WORK/out/now.png" "$right")
        dose undo >/dev/null 2>&1
        back=$(visible_waybar "$file"); bword=$(scenario_word "$back")
        if [ "$back" = "$after" ]; then
            result FAIL waybar-daemon "undo changed nothing"
        elif wait_for 10 reads "$right" "$bword" && [ "$(ocr "$WORK/out/now.png" "$right")" != "$after_ocr" ]; then
            result PASS waybar-daemon "undo in a terminal, daemon signalled waybar: '$bword' (of: $back)"
        else
            result FAIL waybar-daemon "expected '$bword' with the daemon running; read: $(ocr "$WORK/out/now.png" "$right")"
        fi
    else
        result SKIP waybar-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
    fi
fi

# waybar itself: no error, no rejected markup. ("basic_string::_M_create" is
# printed by waybar 0.9.17 at every start under sway 1.7, with or without us.)
errors=$(grep -a -i -E '\[error\]|\[critical\]|WARNING|markup' "$WORK/waybar.log" | grep -v 'basic_string::_M_create')
if [ -n "$errors" ]; then result FAIL waybar-log "waybar logged: $errors"
else result PASS waybar-log "no error or markup warning in waybar's log"; fi
cp "$WORK/waybar.log" "$ARTIFACTS/waybar.log"; cp "$WORK/sway.log" "$ARTIFACTS/sway.log"
finish
