#!/usr/bin/env bash
# `dosebar history` in a real terminal: tmux runs it in a pane (a pty), and the pane's
# contents with their SGR attributes (capture-pane -e) must colour each day by its state;
# with NO_COLOR the same pane shows letters. The capture is kept in the artifacts.
set -u
. "$(dirname "$0")/lib.sh"

require history-tty tmux perl
if [ -z "$DOSEBAR_BIN" ]; then
    result SKIP history-tty "no dosebar binary (build it or set DOSEBAR)"; finish
fi
new_work history
export TMUX_TMPDIR=$WORK
CLEANUP_HOOK='tmux kill-server'

# A week in Seoul from Monday 2026-11-16: taken, taken, missed, skipped, taken late; today Saturday, open.
d() { env DOSEBAR_DB="$WORK/db.sqlite" DOSEBAR_DIR="$WORK/shared" TZ=Asia/Seoul HOME="$WORK" \
        XDG_CONFIG_HOME="$WORK/config" LANG=C.UTF-8 DOSEBAR_NOW="$1" "$DOSEBAR_BIN" "${@:2}" >/dev/null; }
d 2026-11-16T07:00:00+09:00 add Aspirin --at 08:00 &&
d 2026-11-16T09:00:00+09:00 take Aspirin --at 2026-11-16T08:05 &&
d 2026-11-17T09:00:00+09:00 take Aspirin --at 2026-11-17T08:00 &&
d 2026-11-19T09:00:00+09:00 skip Aspirin --at 2026-11-19T08:00 &&
d 2026-11-20T12:00:00+09:00 take Aspirin --at 2026-11-20T11:30 || {
    result FAIL history-scenario "could not build the week"; finish; }

# show NAME [ENV...]: runs `history` in a fresh pane of a 100x20 terminal and prints the pane with its attributes.
show() {
    local name=$1; shift
    tmux -f /dev/null new-session -d -s "$name" -x 100 -y 20 \
        "env $* DOSEBAR_DB=$WORK/db.sqlite TZ=Asia/Seoul HOME=$WORK XDG_CONFIG_HOME=$WORK/config LANG=C.UTF-8 \
         TERM=xterm-256color DOSEBAR_NOW=2026-11-21T12:00:00+09:00 $DOSEBAR_BIN history --from 2026-11-16; sleep 600" || return 1
    for _ in $(seq 1 50); do
        tmux capture-pane -p -t "$name" | grep -q 'today' && break
        sleep 0.1
    done
    tmux capture-pane -p -e -t "$name"
}

colour=$(show coloured) || { result FAIL history-tty "tmux did not start"; finish; }
printf '%s\n' "$colour" >"$ARTIFACTS/history-tty.ansi"
# The cell of day N: its SGR parameters (tmux writes them back as it drew them).
cell_sgr() { printf '%s\n' "$colour" | perl -CSD -ne 'while (/\e\[([0-9;]*)m +'"$1"'[A-Z?-]?(?:[ \e]|$)/g) { print "$1\n"; exit }'; }
expect_cell() { # DAY STATE BACKGROUND (SGR parameters, e.g. 48;5;25 for 256-colour 25)
    local sgr; sgr=$(cell_sgr "$1")
    case ";$sgr;" in
        *";$3;"*) result PASS "history-tty-$1" "$2 drawn with background $3 ($sgr)" ;;
        *) result FAIL "history-tty-$1" "$2 expected background $3, got '${sgr:-no colour}'" ;;
    esac
}
# The Okabe–Ito palette (HistoryCalendar.background): blue taken, orange missed, grey skipped,
# sky blue pending — apart under red-green colour blindness.
expect_cell 16 done "48;5;25"
expect_cell 18 missed "48;5;208"
expect_cell 19 skipped "48;5;250"
expect_cell 21 pending "48;5;117"
# The letters stay in colour too, so no state is told by colour alone.
if printf '%s\n' "$colour" | perl -pe 's/\e\[[0-9;]*m//g' | grep 'Nov 2026' | tr -s ' ' | grep -q '16D 17D 18M 19S 20D 21?'; then
    result PASS history-tty-letters "colour and letters in a terminal"
else
    result FAIL history-tty-letters "the coloured calendar lost its letters"
fi

plain=$(show plain NO_COLOR=1) || { result FAIL history-no-color "tmux did not start"; finish; }
printf '%s\n' "$plain" >"$ARTIFACTS/history-no-color.txt"
row=$(printf '%s\n' "$plain" | perl -pe 's/\e\[[0-9;]*m//g' | grep 'Nov 2026' | tr -s ' ')
if [ "$row" = "Nov 2026 16D 17D 18M 19S 20D 21?" ]; then
    result PASS history-no-color "letters under NO_COLOR: $row"
else
    result FAIL history-no-color "expected 'Nov 2026 16D 17D 18M 19S 20D 21?', got '$row'"
fi
if printf '%s\n' "$plain" | grep -q $'\e\[[0-9;]*4[0-7]m'; then
    result FAIL history-no-color-sgr "a background colour under NO_COLOR"
else
    result PASS history-no-color-sgr "no background colour under NO_COLOR"
fi
finish
