#!/usr/bin/env bash
# tmux: the plugin fills #{dosebar}; a real client attached in a pty draws the
# status line, and we read what it drew (`display -p` does not run #() jobs).
set -u
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null || ! command -v script >/dev/null; then
    result SKIP tmux "tmux or script(1) is not installed (apt-get install tmux bsdutils)"; finish
fi
new_work tmux
scenario_setup || { result FAIL tmux-scenario "could not build the scenario"; finish; }

# The default socket of a private TMUX_TMPDIR: the daemon's `tmux refresh-client -S`
# (which names no socket) then reaches this server and no other.
export TMUX_TMPDIR=$WORK
tm() { tmux "$@"; }
stop_tmux() { tmux kill-server 2>/dev/null; }
CLEANUP_HOOK=stop_tmux

tm -f /dev/null new-session -d -s it -x 200 -y 12 'sleep 600' || {
    result SKIP tmux "the tmux server does not start"; finish; }
tm set -g status-interval 60 \; set -g status-right-length 180 \; set -g status-left-length 60 \
   \; set -g status-right '[#{dosebar}]' \; set -g status-left 'L<#{dosebar}>' \
   \; set -g @dosebar_dir "$SHARED" \; set -g @dosebar_binary "${SCENARIO_BIN:-dosebar}" \
   \; set -as terminal-features ',xterm-256color:RGB'
# As TPM does: the plugin runs inside the server.
tm run-shell "$INTEGRATIONS_DIR/tmux/dosebar.tmux"

right=$(tm show -gv status-right); left=$(tm show -gv status-left)
case "$right|$left" in
    *'#{dosebar}'*) result FAIL tmux-plugin "#{dosebar} left in place: $right / $left" ;;
    *'#(cat '*'#(cat '*) result PASS tmux-plugin "status-right and status-left interpolated" ;;
    *) result FAIL tmux-plugin "no #() job in the status: $right / $left" ;;
esac

expect=$(visible_tmux "$SHARED/tmux.txt")
if ! has_scenario_name "$expect"; then
    result FAIL tmux-file "tmux.txt names no medicine of the scenario: $expect"
fi

# A real client in a pty of 200x12, drawing into a typescript.
typescript=$WORK/typescript
script -qfc "stty cols 200 rows 12; TERM=xterm-256color LANG=C.UTF-8 exec tmux -u attach -t it" \
    "$typescript" </dev/null >/dev/null 2>&1 &
CLEANUP_PIDS+=($!)

drawn() { # the status text drawn so far, escape sequences removed
    perl -CSD -pe 's/\e\[[0-9;?]*[ -\/]*[@-~]//g; s/\e[()][A-Z0-9]//g; s/\e[=>]//g; s/\r//g' "$typescript" 2>/dev/null
}
shows() { drawn | grep -aqF -- "$1"; }

if wait_for 8 shows "[$expect]"; then
    result PASS tmux-status-right "drew [$expect]"
else
    result FAIL tmux-status-right "expected [$expect] on the status line; drew: $(drawn | grep -ao '\[.*\]' | tail -n1)"
fi
if shows "L<$expect>"; then
    result PASS tmux-status-left
else
    result FAIL tmux-status-left "expected L<$expect>"
fi

# The colour of the file reached the terminal as 24-bit SGR.
color=$(first_color "$SHARED/tmux.txt")
if [ -n "$color" ]; then
    sgr=$(printf '38;2;%d;%d;%dm' 0x${color:1:2} 0x${color:3:2} 0x${color:5:2})
    if grep -aqF "$sgr" "$typescript"; then
        result PASS tmux-colour "$color drawn as ESC[$sgr"
    else
        result FAIL tmux-colour "$color of tmux.txt not drawn (no ESC[$sgr)"
    fi
else
    result FAIL tmux-colour "tmux.txt has no #[fg=#rrggbb] style"
fi

# Take the late and due doses; the daemon would then refresh the clients.
scenario_advance || result FAIL tmux-advance "take failed"
after=$(visible_tmux "$SHARED/tmux.txt")
tm refresh-client -S
if [ "$after" = "$expect" ]; then
    result FAIL tmux-refresh "tmux.txt did not change after the take"
elif wait_for 8 shows "[$after]"; then
    result PASS tmux-refresh "after take + refresh-client -S: [$after]"
else
    result FAIL tmux-refresh "expected [$after] after refresh-client -S"
fi
case $after in *'#'*) # a literal '#' (doubled in the file) must show once
    if shows "$after"; then result PASS tmux-hash "'#' shown single: $after"; fi ;;
esac

# With `dosebar daemon` running, an undo from a terminal reaches the bar alone
# (status-interval is 60 s: only the daemon's refresh-client can be that fast).
if [ "$SCENARIO_SOURCE" = binary ]; then
    if daemon_start; then
        dose undo >/dev/null 2>&1
        back=$(visible_tmux "$SHARED/tmux.txt")
        if [ "$back" = "$after" ]; then
            result FAIL tmux-daemon "undo changed nothing"
        elif wait_for 8 shows "[$back]"; then
            result PASS tmux-daemon "undo in a terminal, daemon refreshed tmux: [$back]"
        else
            result FAIL tmux-daemon "expected [$back] after undo with the daemon running; $(tail -n 2 "$WORK/daemon.log" | tr '\n' ' ')"
        fi
    else
        result SKIP tmux-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
    fi
fi

cp "$typescript" "$ARTIFACTS/tmux-typescript.txt" 2>/dev/null
drawn | tail -c 4000 >"$ARTIFACTS/tmux-drawn.txt"
tm detach-client -a 2>/dev/null
finish
