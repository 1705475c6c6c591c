#!/usr/bin/env bash
# tmux: the plugin fills #{dosebar}; a real client attached in a pty draws the
# status line, and we read what it drew (`display -p` does not run #() jobs):
# the text and the colour of every character, compared with lib.sh's EXPECT_*.
set -u
. "$(dirname "$0")/lib.sh"

require tmux tmux script perl
new_work tmux
scenario_setup || { result FAIL tmux-scenario "could not build the scenario"; finish; }

# The default socket of a private TMUX_TMPDIR: the daemon's `tmux refresh-client -S`
# (which names no socket) then reaches this server and no other.
export TMUX_TMPDIR=$WORK
tm() { tmux "$@"; }
stop_tmux() { tmux kill-server 2>/dev/null; }
CLEANUP_HOOK=stop_tmux
MUTATE_NUDGE="tmux refresh-client -S" # self-test: as the daemon would

tm -f /dev/null new-session -d -s it -x 200 -y 12 'sleep 600' || {
    result SKIP tmux "the tmux server does not start"; finish; }
# tmux's own status-right-length (40) and status-left-length (10): the plugin must make room for the line.
tm set -g status-interval 60 \; set -g status-style 'bg=green,fg=black' \
   \; set -g status-right '[#{dosebar}]' \; set -g status-left 'L<#{dosebar}>' \
   \; set -g @dosebar_dir "$SHARED" \; set -g @dosebar_binary "${SCENARIO_BIN:-dosebar}" \
   \; set -as terminal-features ',xterm-256color:RGB'
# As TPM does: the plugin runs inside the server.
tm run-shell "$INTEGRATIONS_DIR/tmux/dosebar.tmux"

right=$(tm show -gv status-right); left=$(tm show -gv status-left)
lengths="$(tm show -gv status-right-length) $(tm show -gv status-left-length)"
if [ "$lengths" = "150 150" ]; then result PASS tmux-length "status-right-length and status-left-length raised to 150"
else result FAIL tmux-length "status-right-length / status-left-length: $lengths (expected 150 150)"; fi
case "$right|$left" in
    *'#{dosebar}'*) result FAIL tmux-plugin "#{dosebar} left in place: $right / $left" ;;
    *'#(cat '*'#(cat '*) result PASS tmux-plugin "status-right and status-left interpolated" ;;
    *) result FAIL tmux-plugin "no #() job in the status: $right / $left" ;;
esac

# A real client in a pty of 200x12, drawing into a typescript.
typescript=$WORK/typescript
script -qfc "stty cols 200 rows 12; TERM=xterm-256color LANG=C.UTF-8 exec tmux -u attach -t it" \
    "$typescript" </dev/null >/dev/null 2>&1 &
CLEANUP_PIDS+=($!)

# What the client drew since byte FROM of the typescript: the text with the
# escape sequences removed, and which colour each character was drawn in.
mark() { stat -c %s "$typescript" 2>/dev/null || echo 0; }
drawn() { # drawn [FROM]: the status text drawn, escape sequences removed
    tail -c +$(( ${1:-0} + 1 )) "$typescript" 2>/dev/null |
        perl -CSD -pe 's/\e\[[0-9;?]*[ -\/]*[@-~]//g; s/\e[()][A-Z0-9]//g; s/\e[=>]//g; s/\r//g'
}
shows() { drawn "${2:-0}" | grep -aqF -- "$1"; }
# fg_after MARK [FROM]: the foreground of the character drawn right after the
# last MARK ("[" opens status-right): #rrggbb for 24-bit SGR, ansiN for a
# basic colour, "default" for the terminal's own.
fg_after() {
    tail -c +$(( ${2:-0} + 1 )) "$typescript" | perl -CSDA -e '
        my $want = shift; local $/; my $raw = <STDIN>;
        my ($fg, $text, @fgs) = ("default", "");
        while ($raw =~ /\G(?:(\e\[([0-9;]*)m)|(\e\[[0-9;?]*[ -\/]*[@-~]|\e[()][A-Z0-9]|\e[=>]|\r|\n)|(.))/gs) {
            if (defined $1) {
                my @p = length $2 ? split /;/, $2 : (0);
                while (@p) {
                    my $c = shift @p;
                    if ($c eq "" || $c == 0 || $c == 39) { $fg = "default" }
                    elsif ($c == 38 && @p && $p[0] == 2) { shift @p; $fg = sprintf "#%02x%02x%02x", splice @p, 0, 3 }
                    elsif ($c == 38 && @p && $p[0] == 5) { shift @p; $fg = "idx" . shift @p }
                    elsif (($c >= 30 && $c <= 37) || ($c >= 90 && $c <= 97)) { $fg = "ansi$c" }
                }
            } elsif (defined $4) { $text .= $4; push @fgs, $fg }
        }
        my $i = rindex $text, $want;
        print $i < 0 || $i + length($want) > $#fgs ? "" : $fgs[$i + length $want];' "$1"
}
# status_check NAME FROM LINE COLOUR WHAT: both status lines drew LINE (in
# its brackets) since FROM, in COLOUR (empty: the status line's own, black:
# status-style fg=black, SGR 30).
status_check() {
    local name=$1 from=$2 line=$3 want=${4:-ansi30} what=$5 got
    if wait_for 8 shows "[$line]" "$from"; then
        result PASS "$name" "$what: drew [$line]"
    else
        result FAIL "$name" "$what: expected [$line] on the status line; drew: $(drawn "$from" | grep -ao '\[[^]]*\]' | tail -n1)"
    fi
    got=$(fg_after "[" "$from")
    if [ "$got" = "$want" ]; then result PASS "$name-colour" "drawn in $want"
    else result FAIL "$name-colour" "expected status-right in $want; drawn in ${got:-?}"; fi
}

# --- before: the scenario at 09:30 (lib.sh EXPECT_BEFORE_*)
status_check tmux-status-right 0 "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_COLOR" "status-right at 09:30"
if shows "L<$EXPECT_BEFORE_LINE>"; then
    result PASS tmux-status-left "drew L<$EXPECT_BEFORE_LINE>"
else
    result FAIL tmux-status-left "expected L<$EXPECT_BEFORE_LINE>; drew: $(drawn | grep -ao 'L<[^>]*>' | tail -n1)"
fi

# --- Take the late and due doses; the daemon would then refresh the clients.
from=$(mark)
scenario_advance || result FAIL tmux-advance "take failed"
tm refresh-client -S
status_check tmux-refresh "$from" "$EXPECT_AFTER_LINE" "$EXPECT_AFTER_COLOR" "after take + refresh-client -S"
# With `dosebar daemon` running, an undo from a terminal reaches the bar alone
# (status-interval is 60 s: only the daemon's refresh-client can be that fast).
if [ "$SCENARIO_SOURCE" != binary ]; then
    result SKIP tmux-daemon "no working dosebar binary: the daemon is not tested"
elif daemon_start; then
    from=$(mark)
    dose undo >"$WORK/undo.log" 2>&1 || result FAIL tmux-undo-command "dosebar undo failed: $(cat "$WORK/undo.log")"
    status_check tmux-daemon "$from" "$EXPECT_BEFORE_LINE" "$EXPECT_BEFORE_COLOR" "undo in a terminal, daemon refreshed tmux"
else
    result SKIP tmux-daemon "dosebar daemon does not run: $(tail -n 2 "$WORK/daemon.log" 2>/dev/null | tr '\n' ' ')"
fi

cp "$typescript" "$ARTIFACTS/tmux-typescript.txt" 2>/dev/null
drawn | tail -c 4000 >"$ARTIFACTS/tmux-drawn.txt"
tm detach-client -a 2>/dev/null
finish
