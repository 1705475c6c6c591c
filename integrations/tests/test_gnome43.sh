#!/usr/bin/env bash
# The legacy build of the GNOME Shell extension (GNOME 42-44, made by
# integrations/gnome-shell/build.py and put in place by install.sh, as
# `make install` does) inside a real GNOME Shell: Debian 12's 43.9, headless
# with a 1280x800 virtual monitor, as a user of its own, in a D-Bus session.
# test_gnome48.sh sources this file with GNOME_WANT=45-48: the same checks of
# the ES-module build inside Debian 13's GNOME Shell 48 (run by
# integrations/tests/trixie/run.sh), with the helper made ESM by
# gnome-shell/tests/helper/esm.py. Check names start with the test's name.
#
# The shell runs on the real clock, so the scenario day is today: the time zone
# is the Etc/GMT zone in which it is 09:MM now, and the scenario of lib.sh is
# built on today's date there (medicines added at 05:00, Omega-3 taken at
# 08:10). So the panel must show lib.sh's EXPECT_BEFORE_TEXT whatever the hour.
#
# A test-only helper extension (integrations/gnome-shell/tests/helper), enabled
# beside dosebar's, takes screenshots from inside the shell, reports what the
# indicator shows, clicks through a Clutter virtual pointer, disables and
# enables dosebar and counts what it leaves behind. Checks: the indicator in the
# panel with today's line (OCR of the screenshot) in the late colour; the menu
# opened by a click, with the dose rows, the Taken items and the 7-day strip
# (OCR); "Taken" on Levothyroxine clicked: the take in the database, the panel's
# line and colour following; disable() leaving no actor, main-loop source,
# signal handler or file monitor; no JavaScript error in the shell's log. Then a
# second shell, in the zone where it is 00:MM now, shows a carried dose (lib.sh
# EXPECT_CARRIED_*: last night's 22:00 still open) in the panel and the menu,
# and its "Taken" records last night's dose.
set -u
. "$(dirname "$0")/lib.sh"

gnome=$INTEGRATIONS_DIR/gnome-shell
uuid=dosebar@dosebar.github.io
helper_uuid=dosebar-test@dosebar.github.io
T=$TEST_NAME
GNOME_WANT=${GNOME_WANT:-42-44}   # the shells this test is for; test_gnome48.sh: 45-48
require $T gnome-shell dbus-run-session dbus-daemon gsettings unshare setpriv tesseract convert python3 sqlite3 jq perl glib-compile-schemas
shell_version=$(gnome-shell --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -n1)
major=${shell_version%%.*}
if [ -n "$major" ] && [ "$major" -ge "${GNOME_WANT%-*}" ] && [ "$major" -le "${GNOME_WANT#*-}" ]; then :
else
    result SKIP $T "gnome-shell is ${shell_version:-unknown}: this test drives the $GNOME_WANT build"; finish
fi
esm=0; [ "$major" -ge 45 ] && esm=1
[ "$(id -u)" = 0 ] || { result SKIP $T "needs root (a private mount namespace for the system bus)"; finish; }

SCENARIO_USER=${DOSEBAR_TEST_USER:-dosebar-it}
if ! id "$SCENARIO_USER" >/dev/null 2>&1; then
    useradd -m -s /bin/sh "$SCENARIO_USER" 2>/dev/null || {
        result SKIP $T "cannot create the test user $SCENARIO_USER (gnome-shell refuses root)"; finish; }
fi
new_work "$T"

# --- the scenario day is today, in the zone where it is 09:MM now. Each entry of
# the 09:00 hour shows the same line, so the test must end before 10:00 there:
# in the last 2 minutes of an hour, wait for the next one.
if [ "$(date -u +%M)" -ge 58 ]; then
    sleep $(( 3600 - $(date -u +%s) % 3600 + 1 ))
fi
offset=$(( (9 - 10#$(date -u +%H) + 24) % 24 )); [ $offset -gt 14 ] && offset=$((offset - 24))
if [ $offset = 0 ]; then SCENARIO_TZ=Etc/GMT
elif [ $offset -gt 0 ]; then SCENARIO_TZ=Etc/GMT-$offset
else SCENARIO_TZ=Etc/GMT+$((-offset)); fi
SCENARIO_NOW=$(TZ=$SCENARIO_TZ date +%Y-%m-%dT%H:%M:%S%:z)
scenario_setup || { result FAIL $T-scenario "could not build the scenario"; finish; }
[ "$SCENARIO_SOURCE" = binary ] || { result SKIP $T "needs the real dosebar binary (set DOSEBAR)"; finish; }
chown -R "$SCENARIO_USER" "$WORK"

# --- the extension as `make install` puts it, the helper beside it (from a copy
# of the folder: the test user may not be able to read the clone, e.g. under /root)
ghome=$SCENARIO_HOME
cp -r "$gnome" "$WORK/gnome-shell" && rm -rf "$WORK/gnome-shell/build" && chown -R "$SCENARIO_USER" "$WORK/gnome-shell"
gnome=$WORK/gnome-shell
ext_dir=$ghome/.local/share/gnome-shell/extensions
# install.sh picks the build by the shell's version: the legacy one (no import line) for
# 42-44, the ES modules for 45-48; either way with its schemas compiled.
if [ $esm = 1 ]; then want_build="the ES-module build"; else want_build="the legacy build"; fi
if run_as env HOME="$ghome" XDG_DATA_HOME="$ghome/.local/share" "$gnome/install.sh" >"$WORK/install.log" 2>&1 &&
    jq -e --arg v "$major" '."shell-version" | index($v)' "$ext_dir/$uuid/metadata.json" >/dev/null &&
    [ "$(grep -q '^import ' "$ext_dir/$uuid/extension.js" && echo 1 || echo 0)" = $esm ] &&
    [ -s "$ext_dir/$uuid/schemas/gschemas.compiled" ]; then
    result PASS $T-install "install.sh chose $want_build for GNOME Shell $shell_version"
else
    result FAIL $T-install "want $want_build: $(tr '\n' ' ' <"$WORK/install.log") $(jq -c '."shell-version"' "$ext_dir/$uuid/metadata.json" 2>&1)"; finish
fi
run_as cp -r "$gnome/tests/helper/$helper_uuid" "$ext_dir/"
if [ $esm = 1 ]; then
    run_as python3 "$gnome/tests/helper/esm.py" "$ext_dir/$helper_uuid" ||
        { result FAIL $T-helper "esm.py could not make the helper's 45+ form"; finish; }
fi
channel=$WORK/channel
run_as mkdir -m 700 "$channel" "$WORK/run"

# --- GNOME Shell: in a private mount and pid namespace (everything in it ends
# with it), tmpfs over /run/systemd (a stale seats/ there makes the shell look
# for logind) and /run/dbus, a system bus (the shell's power indicator needs
# one), then as the user a D-Bus session with the two extensions enabled (and
# none disabled: disableExtension() below writes dosebar's uuid into
# disabled-extensions, in the dconf database the carried phase's shell reads).
cat >"$WORK/session.sh" <<EOF
gsettings set org.gnome.shell disable-user-extensions false &&
gsettings set org.gnome.shell disabled-extensions "[]" &&
gsettings set org.gnome.shell enabled-extensions "['$uuid', '$helper_uuid']" &&
exec gnome-shell --headless --virtual-monitor 1280x800 --wayland --no-x11
EOF
# start_shell: the shell as below, with this moment's SCENARIO_TZ,
# SCENARIO_DB and SHARED (the carried phase starts a second one); shell_pid, t0.
start_shell() {
cat >"$WORK/namespace.sh" <<EOF
set -e
[ -d /run/systemd ] && mount -t tmpfs tmpfs /run/systemd
mkdir -p /run/dbus && mount -t tmpfs tmpfs /run/dbus
dbus-daemon --system --fork
# Not exec: this root shell stays the namespace's pid 1, which --kill-child kills
# when unshare ends (setpriv's change of user would clear that parent-death signal).
setpriv --reuid=$SCENARIO_USER --regid=$SCENARIO_USER --init-groups \
    env -i PATH="$WORK/bin:/usr/local/bin:/usr/bin:/bin" HOME="$ghome" USER=$SCENARIO_USER \
    XDG_RUNTIME_DIR="$WORK/run" XDG_CONFIG_HOME="$ghome/.config" XDG_DATA_HOME="$ghome/.local/share" \
    XDG_STATE_HOME="$ghome/.local/state" LANG=C.UTF-8 TZ=$SCENARIO_TZ \
    DOSEBAR_DB="$SCENARIO_DB" DOSEBAR_DIR="$SHARED" DOSEBAR_TEST_CHANNEL="$channel" \
    dbus-run-session -- sh "$WORK/session.sh"
EOF
t0=$(date +%s%N)
unshare --mount --propagation private --pid --fork --mount-proc --kill-child \
    bash "$WORK/namespace.sh" >"$WORK/shell.log" 2>&1 &
shell_pid=$!
}
start_shell
# unshare ignores SIGTERM while it waits for its child: SIGKILL it, and the
# kernel ends its child, the namespace's pid 1, and with it every process there.
stop_shell() {
    [ -n "${shell_pid:-}" ] || return 0
    kill -KILL "$shell_pid" 2>/dev/null; wait "$shell_pid" 2>/dev/null
    shell_pid=
}
CLEANUP_HOOK=stop_shell

# ask OP [JSON fields]: one command to the helper; its reply in $WORK/reply.json.
seq=0
ask() {
    local op=$1 fields=${2:-} wait=${3:-10}
    seq=$((seq + 1))
    rm -f "$channel/reply"
    printf '{"id": %d, "op": "%s"%s}' "$seq" "$op" "${fields:+, $fields}" >"$channel/.cmd.tmp"
    chown "$SCENARIO_USER" "$channel/.cmd.tmp"; mv "$channel/.cmd.tmp" "$channel/cmd"
    wait_for "$wait" jq -e --argjson id "$seq" '.id == $id' "$channel/reply" >/dev/null 2>&1 || {
        echo "helper did not answer $op" >&2; return 1; }
    cp "$channel/reply" "$WORK/reply.json"
}
# until_state SECONDS JQ: asks for the state until JQ holds on it.
until_state() {
    local deadline=$(( $(date +%s) + $1 ))
    while [ "$(date +%s)" -le $deadline ]; do
        ask state "" 5 && jq -e "$2" "$WORK/reply.json" >/dev/null 2>&1 && return 0
        kill -0 "$shell_pid" 2>/dev/null || return 1
        sleep 0.3
    done
    return 1
}
js() { jq -r "$@" "$WORK/reply.json"; }
# settled SECONDS: asks for the state until the indicator's box is on the screen
# and the same twice 0.3 s apart (after an enable, GNOME 48 reported it once
# 18 px high and half off the screen: a click there opened nothing).
settled() {
    local deadline=$(( $(date +%s) + $1 )) last=
    while [ "$(date +%s)" -le $deadline ]; do
        if ask state "" 5 && jq -e '.indicatorBox and .indicatorBox[0] >= 0 and .indicatorBox[0] + .indicatorBox[2] <= 1280' "$WORK/reply.json" >/dev/null 2>&1; then
            [ "$(js -c .indicatorBox)" = "$last" ] && return 0
            last=$(js -c .indicatorBox)
        fi
        sleep 0.3
    done
    return 1
}
shot() { ask screenshot "\"path\": \"$WORK/$1\"" 15 && [ -s "$WORK/$1" ]; }
# ocr_dark IMAGE GEOMETRY: the text of a region drawn light on a dark background.
ocr_dark() {
    convert "$1" -crop "$2" +repage -alpha off -resize 300% -colorspace gray -negate -normalize "$WORK/ocr.png" &&
        tesseract "$WORK/ocr.png" - --psm "${3:-7}" 2>/dev/null | grep -v '^[[:space:]]*$'
}
geometry() { js "$1 | \"\(.[2])x\(.[3])+\(.[0])+\(.[1])\""; }

# --- the panel, as the shell started it
# (found, with a line, and drawn: a position on the screen)
if until_state 40 '.found and (.label | test("Levothyroxine")) and .labelBox[0] != null'; then
    result PASS $T-enabled "GNOME Shell $shell_version up, the indicator in the panel in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
else
    result FAIL $T-enabled "no dosebar indicator with a line: $(head -c 300 "$WORK/reply.json" 2>/dev/null) $(grep -m3 -i 'error' "$WORK/shell.log" | tr '\n' ' ')"
    stop_shell; cp "$WORK/shell.log" "$ARTIFACTS/$T-shell.log"
    finish
fi
# GNOME 45+ start in the overview: leave it, as a person does, before the pictures.
if [ $esm = 1 ]; then ask overview && sleep 1 && ask state; fi
label_box=$(geometry .labelBox)
if [ "$(js .label)" = "$EXPECT_BEFORE_TEXT" ] && js '.classes[]' | grep -qx "dosebar-$EXPECT_BEFORE_STATE"; then
    result PASS $T-label "'$(js .label)', class dosebar-$EXPECT_BEFORE_STATE"
else
    result FAIL $T-label "label '$(js .label)' classes $(js '.classes | join(" ")'), want '$EXPECT_BEFORE_TEXT' dosebar-$EXPECT_BEFORE_STATE"
fi
if shot panel.png; then
    read_text=$(ocr_dark "$WORK/panel.png" "$label_box")
    if ocr_has "$read_text" "$EXPECT_BEFORE_TEXT"; then result PASS $T-panel-ocr "read '$read_text'"
    else result FAIL $T-panel-ocr "read '$read_text' in $label_box, want '$EXPECT_BEFORE_TEXT'"; fi
    red=$(color_pixels "$WORK/panel.png" "$label_box" "$EXPECT_BEFORE_COLOR")
    if [ "${red:-0}" -ge 30 ]; then result PASS $T-panel-colour "$red pixels of $EXPECT_BEFORE_COLOR in the label"
    else result FAIL $T-panel-colour "${red:-0} pixels of $EXPECT_BEFORE_COLOR in the label ($label_box)"; fi
    cp "$WORK/panel.png" "$ARTIFACTS/$T-panel.png"
else
    result FAIL $T-panel-ocr "no screenshot: $(cat "$WORK/reply.json" 2>/dev/null)"
fi

# --- disable and enable again (the lock screen does so), now with the helper
# noting every source, handler and monitor dosebar's code creates. The helper
# goes after dosebar in the shell's order first: disabling dosebar then disables
# and enables the helper too, which must not end the recording (a CI run whose
# shell had found the helper second recorded nothing).
ask last && sleep 0.5 && ask census && jq -e '.order[-1] == "'"$helper_uuid"'"' "$WORK/reply.json" >/dev/null ||
    result FAIL $T-order "the helper is not last in the shell's order: $(jq -c .order "$WORK/reply.json")"
ask record && ask disable && ask enable &&
    until_state 10 '.found and (.label | test("Levothyroxine")) and .indicatorBox[0] != null' ||
    result FAIL $T-reenable "the indicator did not come back: $(head -c 300 "$WORK/reply.json")"

# --- the menu, opened by a click on the indicator
settled 5
read -r ix iy iw ih < <(js '.indicatorBox // [0,0,0,0] | map(tostring) | join(" ")')
: "${ix:=0}" "${iy:=0}" "${iw:=0}" "${ih:=0}"
ask click "\"x\": $((ix + iw / 2)), \"y\": $((iy + ih / 2))"
if until_state 5 '.menuOpen'; then
    cp "$WORK/reply.json" "$WORK/menu-state.json"
    jq -r '.items[] | select(.separator | not) | .text + (if (.extra | length) > 0 then "  [" + (.extra | join(" ")) + "]" else "" end)' \
        "$WORK/reply.json" >"$WORK/menu.txt"
    cp "$WORK/menu.txt" "$ARTIFACTS/$T-menu.txt"
    want=()
    for d in "${EXPECT_BEFORE_DOSES[@]}"; do want+=("$d"); done
    missing=()
    for d in "${want[@]}"; do
        norm_lines <"$WORK/menu.txt" | grep -qF "$d" || missing+=("$d")
    done
    taken=$(jq -r '[.items[] | select(.reactive and (.extra | index("Taken"))) | .text | split("  ")[1] | split(" ")[0]] | join(",")' "$WORK/reply.json")
    if [ ${#missing[@]} = 0 ] && [ "$taken" = "Levothyroxine,Magnesium" ] && grep -qxF "$EXPECT_WEEK" "$WORK/menu.txt" &&
        grep -qF "$EXPECT_PRN_BEFORE" "$WORK/menu.txt"; then
        result PASS $T-menu "4 dose rows, Taken on $taken, '$EXPECT_PRN_BEFORE', '$EXPECT_WEEK'"
    else
        result FAIL $T-menu "missing ${missing[*]:-nothing}; Taken on '$taken'; menu: $(tr '\n' '|' <"$WORK/menu.txt")"
    fi
    menu_box=$(geometry .menuBox)
    if shot menu.png; then
        cp "$WORK/menu.png" "$ARTIFACTS/$T-menu.png"
        ocr_dark "$WORK/menu.png" "$menu_box" 6 >"$WORK/menu.ocr"
        cp "$WORK/menu.ocr" "$ARTIFACTS/$T-menu.ocr"
        lev=$(grep -m1 'Levothyroxine 50' "$WORK/menu.ocr")
        mag=$(grep -m1 'Magnesium' "$WORK/menu.ocr")
        # The strip's row read on its own: GNOME 48 draws it dim grey, which
        # tesseract passes over in the whole menu.
        week=$(ocr_dark "$WORK/menu.png" "$(jq -r '[.items[] | select(.text | startswith("Week"))][0].box // [0,0,1,1] | "\(.[2])x\(.[3])+\(.[0])+\(.[1])"' "$WORK/menu-state.json")")
        # tesseract reads µ as u.
        if ocr_has "$lev" "06:00 Levothyroxine 50 ug late Taken" && ocr_has "$mag" "09:00 Magnesium due Taken" &&
            [[ $week == Week* ]]; then
            result PASS $T-menu-ocr "read '$lev', '$mag', '$week'"
        else
            result FAIL $T-menu-ocr "read: $(tr '\n' '|' <"$WORK/menu.ocr"); the strip's row: '$week'"
        fi
    else
        result FAIL $T-menu-ocr "no screenshot: $(cat "$WORK/reply.json")"
    fi
else
    result FAIL $T-menu "the menu did not open on a click at the indicator ($ix,$iy ${iw}x$ih)"
fi

# --- "Taken" on Levothyroxine, clicked: dosebar runs, the panel follows
read -r rx ry rw rh < <(jq -r '[.items[] | select(.reactive and (.text | test("Levothyroxine")))][0].box // [0,0,0,0] | map(tostring) | join(" ")' "$WORK/menu-state.json" 2>/dev/null)
: "${rx:=0}" "${ry:=0}" "${rw:=0}" "${rh:=0}"
clicked_at=$(date +%s)
ask click "\"x\": $((rx + rw - 30)), \"y\": $((ry + rh / 2))"
# Levothyroxine taken (late), Omega-3 taken, Magnesium due, Ferrous & C #2 to
# come: state due, the catalog's text.due "{done}/{total} · {names} due".
expect_after_text="2/4 · Magnesium due" expect_after_color="#f5a524"   # stylesheet.css .dosebar-due
if until_state 10 ".label == \"$expect_after_text\" and (.classes | index(\"dosebar-due\"))"; then
    result PASS $T-taken "the panel followed: '$(js .label)', dosebar-due"
else
    result FAIL $T-taken "label '$(js .label)' classes $(js '.classes | join(" ")'), want '$expect_after_text' dosebar-due"
fi
taken_rows=$(sqlite3 "$SCENARIO_DB" "select m.name || ' ' || e.slot_time || ' ' || cast(e.at as integer) from event e join medication m on m.id = e.medication_id where e.kind = 'taken' order by e.id")
lev_at=$(awk '$1 == "Levothyroxine" && $2 == 360 { print $3 }' <<<"$taken_rows")
if [ -n "$lev_at" ] && [ $((lev_at - clicked_at)) -ge -2 ] && [ $((lev_at - clicked_at)) -le 15 ] &&
    [ "$(wc -l <<<"$taken_rows")" = 2 ]; then
    result PASS $T-taken-db "Levothyroxine's 06:00 dose taken $((lev_at - clicked_at)) s after the click"
else
    result FAIL $T-taken-db "taken events: $(tr '\n' ';' <<<"$taken_rows") (clicked at $clicked_at)"
fi
ask state
label_box=$(geometry .labelBox)
if [ "$(js .menuOpen)" = true ]; then ask click "\"x\": 640, \"y\": 600"; sleep 0.3; fi
if shot panel-after.png; then
    read_text=$(ocr_dark "$WORK/panel-after.png" "$label_box")
    px=$(color_pixels "$WORK/panel-after.png" "$label_box" "$expect_after_color")
    if ocr_has "$read_text" "$expect_after_text" && [ "${px:-0}" -ge 30 ]; then
        result PASS $T-taken-ocr "read '$read_text', $px pixels of $expect_after_color"
    else
        result FAIL $T-taken-ocr "read '$read_text' ($px pixels of $expect_after_color), want '$expect_after_text'"
    fi
    cp "$WORK/panel-after.png" "$ARTIFACTS/$T-panel-after.png"
else
    result FAIL $T-taken-ocr "no screenshot"
fi

# --- disable(): nothing of dosebar left
if ask disable; then
    cp "$WORK/reply.json" "$ARTIFACTS/$T-census.json"
    # What the extension created since it was enabled again: sources, handlers, monitors.
    made=$(js '"\(.recorded.sources) sources, \(.recorded.connections) handlers, \(.recorded.monitors) monitors"')
    if jq -e '(.statusArea | not) and (.actors == []) and (.sources == []) and (.connections == []) and .monitors == 0 and .recorded.monitors > 0' \
        "$WORK/reply.json" >/dev/null; then
        result PASS $T-disable "no panel entry, actor, source, handler or monitor left (it had made $made)"
    else
        result FAIL $T-disable "left: $(jq -c '{statusArea, actors, sources, connections, monitors, extensionState, order}' "$WORK/reply.json") (made $made)"
    fi
    # A change in the directory after disable() wakes nothing.
    dose export >/dev/null 2>&1; sleep 0.5
    if ask census && jq -e '(.statusArea | not) and .actors == [] and .sources == []' "$WORK/reply.json" >/dev/null; then
        result PASS $T-disable-quiet "a new timeline.json after disable() revives nothing"
    else
        result FAIL $T-disable-quiet "$(jq -c . "$WORK/reply.json")"
    fi
else
    result FAIL $T-disable "the helper did not disable dosebar"
fi

# --- the shell's log: no JavaScript error (of dosebar's or anyone's)
stop_shell
cp "$WORK/shell.log" "$ARTIFACTS/$T-shell.log"
errors=$(grep -E 'JS ERROR|JS WARNING|Gjs-CRITICAL|Gjs-WARNING|Extension .*error|TypeError|ReferenceError' "$WORK/shell.log")
if [ -z "$errors" ]; then result PASS $T-log "no JavaScript error or warning in the shell's log"
else result FAIL $T-log "$(head -n 5 <<<"$errors" | tr '\n' ' ')"; fi
echo "$T: $(( ($(date +%s%N) - t0) / 1000000 )) ms from the shell's start" >&2

# --- The carried dose (lib.sh EXPECT_CARRIED_*), in a second shell: last
# night's 22:00 still open after midnight. The shell runs on the real clock, so
# this phase's zone is the Etc/GMT zone in which it is 00:MM now; a second
# database (carried_setup: Yaz added at 05:00 yesterday there, exported now)
# writes into the same shared directory, and the shell starts with it. The
# entry in force is 00:00's whatever the minute, so the label reads
# EXPECT_CARRIED_TEXT. Then "Taken" on the carried row: `take Yaz` must record
# yesterday's 22:00 dose (DESIGN §2), not tonight's.
if [ "$(date -u +%M)" -ge 57 ]; then
    sleep $(( 3600 - $(date -u +%s) % 3600 + 1 ))
fi
offset=$(( (0 - 10#$(date -u +%H) + 24) % 24 )); [ $offset -gt 14 ] && offset=$((offset - 24))
if [ $offset = 0 ]; then SCENARIO_TZ=Etc/GMT
elif [ $offset -gt 0 ]; then SCENARIO_TZ=Etc/GMT-$offset
else SCENARIO_TZ=Etc/GMT+$((-offset)); fi
carried_now=$(TZ=$SCENARIO_TZ date +%Y-%m-%dT%H:%M:%S%:z)
if carried_setup "$carried_now"; then
    SCENARIO_DB=$CARRIED_DB
    chown -R "$SCENARIO_USER" "$WORK"
    start_shell
    if until_state 40 '.found and (.label | test("Yaz")) and .labelBox[0] != null'; then
        result PASS $T-carried-enabled "a second shell in $SCENARIO_TZ (now $carried_now), the indicator up"
    else
        result FAIL $T-carried-enabled "no dosebar indicator with Yaz: $(head -c 300 "$WORK/reply.json" 2>/dev/null)"
    fi
    if [ $esm = 1 ]; then ask overview && sleep 1 && ask state; fi
    label_box=$(geometry .labelBox)
    if [ "$(js .label)" = "$EXPECT_CARRIED_TEXT" ] && js '.classes[]' | grep -qx "dosebar-$EXPECT_CARRIED_STATE"; then
        result PASS $T-carried-label "'$(js .label)', class dosebar-$EXPECT_CARRIED_STATE"
    else
        result FAIL $T-carried-label "label '$(js .label)' classes $(js '.classes | join(" ")'), want '$EXPECT_CARRIED_TEXT' dosebar-$EXPECT_CARRIED_STATE"
    fi
    if shot carried-panel.png; then
        read_text=$(ocr_dark "$WORK/carried-panel.png" "$label_box")
        if ocr_has "$read_text" "$EXPECT_CARRIED_TEXT"; then result PASS $T-carried-panel-ocr "read '$read_text'"
        else result FAIL $T-carried-panel-ocr "read '$read_text' in $label_box, want '$EXPECT_CARRIED_TEXT'"; fi
        cp "$WORK/carried-panel.png" "$ARTIFACTS/$T-carried-panel.png"
    else
        result FAIL $T-carried-panel-ocr "no screenshot: $(cat "$WORK/reply.json" 2>/dev/null)"
    fi
    # The menu: the carried row first, with its day and a Taken item; then tonight's.
    settled 5
    read -r ix iy iw ih < <(js '.indicatorBox // [0,0,0,0] | map(tostring) | join(" ")')
    : "${ix:=0}" "${iy:=0}" "${iw:=0}" "${ih:=0}"
    ask click "\"x\": $((ix + iw / 2)), \"y\": $((iy + ih / 2))"
    if until_state 5 '.menuOpen'; then
        cp "$WORK/reply.json" "$WORK/carried-menu-state.json"
        jq -r '.items[] | select(.separator | not) | .text + (if (.extra | length) > 0 then "  [" + (.extra | join(" ")) + "]" else "" end)' \
            "$WORK/reply.json" >"$WORK/carried-menu.txt"
        cp "$WORK/carried-menu.txt" "$ARTIFACTS/$T-carried-menu.txt"
        # The rows naming Yaz in order: the message (first in the menu), then
        # the dose rows, the carried one first.
        rows=$(jq -r '[.items[] | select(.separator | not) | select(.text | test("Yaz"))] | map(.text) | .[]' "$WORK/reply.json" | norm_lines)
        want_rows=$(printf '%s\n' "$EXPECT_CARRIED_MESSAGE" "${EXPECT_CARRIED_DOSES[@]}" | norm_lines)
        taken=$(jq -r '[.items[] | select(.reactive and (.extra | index("Taken"))) | .text | split("  ")[0]] | join(",")' "$WORK/reply.json")
        if [ "$rows" = "$want_rows" ] && [ "$taken" = "yesterday 22:00" ] && grep -qxF "$EXPECT_CARRIED_WEEK" "$WORK/carried-menu.txt"; then
            result PASS $T-carried-menu "rows $(tr '\n' '|' <<<"$rows"), Taken on '$taken', '$EXPECT_CARRIED_WEEK'"
        else
            result FAIL $T-carried-menu "rows '$(tr '\n' '|' <<<"$rows")', want '$(tr '\n' '|' <<<"$want_rows")'; Taken on '$taken'; menu: $(tr '\n' '|' <"$WORK/carried-menu.txt")"
        fi
        menu_box=$(geometry .menuBox)
        if shot carried-menu.png; then
            cp "$WORK/carried-menu.png" "$ARTIFACTS/$T-carried-menu.png"
            # The red channel alone: the late row is drawn #e5484d on dark grey,
            # whose grey levels are too close for tesseract to read it (it skipped
            # the row); in red they are 229 and 53.
            convert "$WORK/carried-menu.png" -crop "$menu_box" +repage -alpha off -resize 300% -channel R -separate -negate -normalize "$WORK/ocr.png" &&
                tesseract "$WORK/ocr.png" - --psm 6 2>/dev/null | grep -v '^[[:space:]]*$' >"$WORK/carried-menu.ocr"
            cp "$WORK/carried-menu.ocr" "$ARTIFACTS/$T-carried-menu.ocr"
            first=$(grep -m1 '^yesterday' "$WORK/carried-menu.ocr")
            second=$(grep -m1 '^22:00' "$WORK/carried-menu.ocr")
            if ocr_has "$first" "${EXPECT_CARRIED_DOSES[0]} Taken" && ocr_has "$second" "${EXPECT_CARRIED_DOSES[1]}" &&
                [ "$(grep -n -m1 '^yesterday' "$WORK/carried-menu.ocr" | cut -d: -f1)" -lt "$(grep -n -m1 '^22:00' "$WORK/carried-menu.ocr" | cut -d: -f1)" ]; then
                result PASS $T-carried-menu-ocr "read '$first', '$second'"
            else
                result FAIL $T-carried-menu-ocr "read: $(tr '\n' '|' <"$WORK/carried-menu.ocr")"
            fi
        else
            result FAIL $T-carried-menu-ocr "no screenshot: $(cat "$WORK/reply.json")"
        fi
        # "Taken" on the carried row: yesterday's 22:00 dose is recorded, taken late;
        # it leaves the snapshot, tonight's 22:00 is all that is left: state
        # upcoming, text.upcoming "{done}/{total} · {names} {time}" = "0/1 · Yaz 22:00".
        read -r rx ry rw rh < <(jq -r '[.items[] | select(.reactive and (.text | test("^yesterday")))][0].box // [0,0,0,0] | map(tostring) | join(" ")' "$WORK/carried-menu-state.json" 2>/dev/null)
        : "${rx:=0}" "${ry:=0}" "${rw:=0}" "${rh:=0}"
        clicked_at=$(date +%s)
        ask click "\"x\": $((rx + rw - 30)), \"y\": $((ry + rh / 2))"
        expect_taken_text="0/1 · Yaz 22:00"
        if until_state 10 ".label == \"$expect_taken_text\" and (.classes | index(\"dosebar-upcoming\"))"; then
            result PASS $T-carried-taken "the panel followed: '$(js .label)', dosebar-upcoming"
        else
            result FAIL $T-carried-taken "label '$(js .label)' classes $(js '.classes | join(" ")'), want '$expect_taken_text' dosebar-upcoming"
        fi
        ask state
        if [ "$(js .menuOpen)" = true ]; then ask click "\"x\": 640, \"y\": 600"; sleep 0.3; fi
        shot carried-panel-after.png && cp "$WORK/carried-panel-after.png" "$ARTIFACTS/$T-carried-panel-after.png"
        # The event's day is the slot's date as days since 1970-01-01: yesterday's.
        yday=$(date -u -d "${carried_now%%T*} 12:00 UTC -1 day" +%Y-%m-%d)
        want_day=$(( $(date -u -d "$yday" +%s) / 86400 ))
        taken_rows=$(sqlite3 "$CARRIED_DB" "select m.name || ' ' || e.day || ' ' || e.slot_time || ' ' || cast(e.at as integer) from event e join medication m on m.id = e.medication_id where e.kind = 'taken' order by e.id")
        read -r t_name t_day t_slot t_at <<<"$taken_rows"
        if [ "$(wc -l <<<"$taken_rows")" = 1 ] && [ "$t_name" = Yaz ] && [ "$t_day" = "$want_day" ] && [ "$t_slot" = 1320 ] &&
            [ $((t_at - clicked_at)) -ge -2 ] && [ $((t_at - clicked_at)) -le 15 ]; then
            result PASS $T-carried-taken-db "Yaz's 22:00 dose of $yday taken $((t_at - clicked_at)) s after the click"
        else
            result FAIL $T-carried-taken-db "taken events: $(tr '\n' ';' <<<"$taken_rows"), want one: Yaz day $want_day ($yday) slot 1320 (clicked at $clicked_at)"
        fi
    else
        result FAIL $T-carried-menu "the menu did not open on a click at the indicator ($ix,$iy ${iw}x$ih)"
    fi
    stop_shell
    cp "$WORK/shell.log" "$ARTIFACTS/$T-carried-shell.log"
    errors=$(grep -E 'JS ERROR|JS WARNING|Gjs-CRITICAL|Gjs-WARNING|Extension .*error|TypeError|ReferenceError' "$WORK/shell.log")
    if [ -z "$errors" ]; then result PASS $T-carried-log "no JavaScript error or warning in the second shell's log"
    else result FAIL $T-carried-log "$(head -n 5 <<<"$errors" | tr '\n' ' ')"; fi
else
    result FAIL $T-carried-scenario "could not build the carried phase (see stderr)"
fi
finish
