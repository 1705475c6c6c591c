#!/usr/bin/env bash
# Screenshots of each bar on one scenario day, made with the real dosebar and
# the real clients, written to integrations/screenshots/ (the READMEs show them).
#
#   integrations/screenshots.sh            # DOSEBAR=/path/to/dosebar to choose the binary
#
# The day: America/New_York, 2026-11-22. Levothyroxine 06:00, Omega-3 08:00,
# Magnesium 09:00, "Ferrous & C #2" 21:00; Omega-3 taken at 08:10. Three
# moments: 09:30 (Levothyroxine late, Magnesium due), 09:30 after Levothyroxine
# is taken (due), 21:05 after everything is taken (done).
#
# Needs: sway, waybar, grim, foot, tmux, polybar, xvfb-run, imagemagick,
# i3blocks, and a conky built with X11 (CONKY_X=/path/to/conky if the one on
# PATH is conky-cli). As root, the Wayland clients run as a test user.
set -u
. "$(dirname "$0")/tests/lib.sh"
OUT=$INTEGRATIONS_DIR/screenshots
mkdir -p "$OUT"

[ -n "$DOSEBAR_BIN" ] || { echo "screenshots.sh: no dosebar binary (build it or set DOSEBAR)" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then
    SCENARIO_USER=${DOSEBAR_TEST_USER:-dosebar-it}
    id "$SCENARIO_USER" >/dev/null 2>&1 || useradd -m -s /bin/sh "$SCENARIO_USER"
fi
new_work screenshots
DOSEBAR_REQUIRE_BINARY=1 scenario_setup || exit 1

# The three moments, each in a shared directory of its own; the database as it
# is at the first one is kept for `dosebar today` in the tmux shot.
late=$SHARED due=$WORK/shared-due done=$WORK/shared-done
mkdir -p "$WORK/late-db"; cp "$SCENARIO_DB"* "$WORK/late-db/"; chmod -R a+rwX "$WORK/late-db"
[ -n "${SCENARIO_USER:-}" ] && chown -R "$SCENARIO_USER" "$WORK/late-db"
SHARED=$due dose take Levothyroxine >/dev/null
SHARED=$done dose take Magnesium >/dev/null
SHARED=$done NOW=2026-11-22T21:05:00-05:00 dose take "Ferrous & C #2" >/dev/null
for d in "$late" "$due" "$done"; do echo "$(basename "$d"): $(cat "$d/snapshot.txt")"; done

BG='#1e1e2e' FG='#cdd6f4'
rt=$WORK/rt; run_as mkdir -m 700 "$rt"
mkdir -m 777 "$WORK/out"; mkdir -p "$WORK/cfg"
# UARGV: the prefix that runs a program in the test user's session; used as a
# plain command (not through a function) so that $! is the program's own pid.
UARGV=(env -i HOME="$SCENARIO_HOME" USER="${SCENARIO_USER:-$USER}" LANG=C.UTF-8
    PATH="$WORK/bin:/usr/local/bin:/usr/bin:/bin" XDG_RUNTIME_DIR="$rt" XDG_CONFIG_HOME="$WORK/cfg/none"
    TZ="$SCENARIO_TZ" DOSEBAR_NOW="$SCENARIO_NOW" DOSEBAR_DB="$SCENARIO_DB")
if [ -n "${SCENARIO_USER:-}" ]; then
    UARGV=(setpriv --reuid="$SCENARIO_USER" --regid="$SCENARIO_USER" --init-groups "${UARGV[@]}")
fi
as_user() { "${UARGV[@]}" "$@"; }
# sway_session WIDTH HEIGHT EXTRA-CONFIG: a headless sway for one screenshot.
sway_session() {
    printf 'output HEADLESS-1 resolution %sx%s\nxwayland disable\ndefault_border none\noutput * bg %s solid_color\n%s\n' \
        "$1" "$2" "$BG" "$3" >"$WORK/cfg/sway"
    chmod -R a+rX "$WORK/cfg"
    "${UARGV[@]}" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
        sway -c "$WORK/cfg/sway" >"$WORK/sway.log" 2>&1 &
    SWAY=$!
    CLEANUP_PIDS+=($SWAY)
    wait_for 10 test -S "$rt/wayland-1" || { echo "sway did not start" >&2; tail "$WORK/sway.log" >&2; exit 1; }
}
# swaymsg exit, not a kill: sway then ends swaybar, which ends its status command.
sway_end() {
    as_user SWAYSOCK="$(ls "$rt"/sway-ipc.*.sock)" swaymsg exit >/dev/null 2>&1 || kill "$SWAY" 2>/dev/null
    wait "$SWAY" 2>/dev/null; rm -f "$rt"/wayland-1* "$rt"/sway-ipc.*.sock
}
grab() { as_user WAYLAND_DISPLAY=wayland-1 grim -g "$1" "$WORK/out/$2"; }

# --- waybar: the shipped config-signal.jsonc and style.css, one bar per moment
jq -n --slurpfile g <(grep -v '^[[:space:]]*//' "$INTEGRATIONS_DIR/waybar/config-signal.jsonc" | perl -pe 's{\s+//[^"]*$}{}') '{
    layer: "top", position: "top", height: 30,
    "modules-left": ["sway/workspaces"], "modules-right": ["custom/dosebar", "custom/clock"],
    "custom/dosebar": $g[0]["custom/dosebar"], "custom/clock": {format: "Sun 22 Nov"}
}' >"$WORK/cfg/waybar.json"
{ printf '* { font-family: "DejaVu Sans"; font-size: 14px; border: none; }\n'
  printf 'window#waybar { background: %s; color: %s; }\n#workspaces button { padding: 0 8px; color: %s; }\n#custom-clock { padding: 0 10px; }\n' "$BG" "$FG" "$FG"
  cat "$INTEGRATIONS_DIR/waybar/style.css"; } >"$WORK/cfg/waybar.css"
shots=()
for d in "$late" "$due" "$done"; do
    sway_session 720 60 ""
    "${UARGV[@]}" WAYLAND_DISPLAY=wayland-1 DOSEBAR_DIR="$d" waybar -c "$WORK/cfg/waybar.json" -s "$WORK/cfg/waybar.css" \
        >"$WORK/waybar.log" 2>&1 &
    wb=$!; sleep 2.5
    grab "0,0 720x30" "waybar-$(basename "$d").png"; shots+=("$WORK/out/waybar-$(basename "$d").png")
    kill "$wb"; wait "$wb" 2>/dev/null; sway_end
done
convert "${shots[@]}" -append "$OUT/waybar.png"

# --- i3blocks, drawn by swaybar (the i3bar protocol), the shipped signal block
cp "$INTEGRATIONS_DIR/i3blocks/dosebar-signal.conf" "$WORK/cfg/i3blocks.conf"
shots=()
for d in "$late" "$due" "$done"; do
    sway_session 720 60 "bar {
    position top
    font pango:DejaVu Sans 11
    status_command DOSEBAR_DIR=$d i3blocks -c $WORK/cfg/i3blocks.conf
    colors {
        background $BG
        statusline $FG
    }
}"
    sleep 2.5
    grab "0,0 720x24" "i3blocks-$(basename "$d").png"; shots+=("$WORK/out/i3blocks-$(basename "$d").png")
    sway_end
done
convert "${shots[@]}" -append "$OUT/i3blocks.png"

# --- tmux in foot: `dosebar today` in the pane, the plugin in the status line
cat >"$WORK/cfg/tmux.conf" <<EOF
set -g status-style bg=colour236,fg=colour252
set -g status-right-length 80
set -g status-right '#{dosebar} │ 09:30 '
set -g status-left '[dosebar] '
set -g @dosebar_dir '$late'
run-shell '$INTEGRATIONS_DIR/tmux/dosebar.tmux'
EOF
chmod a+r "$WORK/cfg/tmux.conf"
printf '[main]\nfont=DejaVu Sans Mono:size=11\npad=6x4\n[colors]\nbackground=1e1e2e\nforeground=cdd6f4\n' >"$WORK/cfg/foot.ini"
chmod a+r "$WORK/cfg/foot.ini"
sway_session 820 260 ""
"${UARGV[@]}" WAYLAND_DISPLAY=wayland-1 TMUX_TMPDIR="$WORK/out" DOSEBAR_DIR="$late" \
    DOSEBAR_DB="$WORK/late-db/$(basename "$SCENARIO_DB")" \
    foot -c "$WORK/cfg/foot.ini" tmux -u -f "$WORK/cfg/tmux.conf" new-session -n today \
    "clear; dosebar today; sleep 30" >"$WORK/foot.log" 2>&1 &
sleep 3.5
grab "0,0 820x260" tmux.png; cp "$WORK/out/tmux.png" "$OUT/tmux.png"
as_user TMUX_TMPDIR="$WORK/out" tmux kill-server 2>/dev/null
sway_end

# --- polybar under Xvfb: the shipped ipc module, one bar per moment
cat >"$WORK/cfg/polybar.ini" <<EOF
[bar/shot]
width = 720
height = 30
background = $BG
foreground = $FG
font-0 = DejaVu Sans:size=11;3
font-1 = Noto Color Emoji:scale=10;2
padding-right = 2
module-margin = 2
enable-ipc = true
modules-left = title
modules-right = dosebar date

[module/title]
type = custom/text
format = i3: 1  2  3

[module/date]
type = custom/text
format = Sun 22 Nov

include-file = $INTEGRATIONS_DIR/polybar/dosebar-ipc.ini
EOF
shots=()
for d in "$late" "$due" "$done"; do
    DOSEBAR_DIR=$d XDG_RUNTIME_DIR=$rt xvfb-run -a -s "-screen 0 720x30x24" bash -c "
        polybar -c '$WORK/cfg/polybar.ini' shot >'$WORK/polybar.log' 2>&1 & p=\$!
        sleep 2.5; import -window root '$WORK/out/polybar-$(basename "$d").png'; kill \$p"
    shots+=("$WORK/out/polybar-$(basename "$d").png")
done
convert "${shots[@]}" -append "$OUT/polybar.png"

# --- conky on an X desktop: the shipped conky.conf, in a plain window
conky_x=${CONKY_X:-conky}
if "$conky_x" -v 2>/dev/null | grep -q 'X11'; then
    cat >"$WORK/cfg/conky.conf" <<EOF
dofile('$INTEGRATIONS_DIR/conky/conky.conf')
conky.config.own_window_type = 'override'
conky.config.own_window_transparent = false
conky.config.own_window_argb_visual = false
conky.config.own_window_colour = '${BG#\#}'
conky.config.alignment = 'top_left'
conky.config.gap_x = 0
conky.config.gap_y = 0
conky.config.minimum_width = 400
conky.config.minimum_height = 130
conky.config.border_inner_margin = 12
EOF
    # conky's Xft cannot draw colour emoji: this shot uses dosebar's ascii icons.
    mkdir -p "$WORK/conky-home/.config/dosebar"
    echo 'icons = "ascii"' >"$WORK/conky-home/.config/dosebar/config.toml"
    chmod -R a+rX "$WORK/conky-home"
    SHARED=$WORK/shared-conky SCENARIO_HOME=$WORK/conky-home SCENARIO_DB=$WORK/late-db/$(basename "$SCENARIO_DB") \
        dose export >/dev/null
    DOSEBAR_DIR=$WORK/shared-conky xvfb-run -a -s "-screen 0 424x154x24" bash -c "
        '$conky_x' -c '$WORK/cfg/conky.conf' >'$WORK/conky.log' 2>&1 & p=\$!
        sleep 3; import -window root '$OUT/conky.png'; kill \$p"
else
    echo "!!!!!!!! no conky with X11 ($conky_x): conky.png not made (set CONKY_X) !!!!!!!!" >&2
fi

ls -la "$OUT"
