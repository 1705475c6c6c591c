#!/usr/bin/env bash
# dosebar for tmux (TPM plugin): replaces `#{dosebar}` in status-right and
# status-left with a `#()` job that prints dosebar's pre-rendered tmux.txt.
#
#   set -g @plugin 'dosebar/dosebar'             # or: run-shell /path/to/dosebar.tmux
#   set -g status-right '#{dosebar} %H:%M'
#
# Options (all optional):
#   @dosebar_dir       the shared directory         (default: $DOSEBAR_DIR, else
#                      $XDG_RUNTIME_DIR/dosebar, else ~/.local/state/dosebar/shared)
#   @dosebar_binary    dosebar, used only when tmux.txt is missing (default: dosebar)
#   @dosebar_fallback  on|off: run `dosebar status --format tmux` when tmux.txt is
#                      missing, e.g. before the daemon first ran  (default: on)
#   @dosebar_length    the least status-right-length / status-left-length of a side
#                      that shows #{dosebar}: tmux cuts status-right at 40 columns
#                      and status-left at 10 by default, mid-line; a longer one you
#                      set is kept  (default: 150)
#
# tmux re-runs the job every status-interval seconds; `dosebar daemon` also runs
# `tmux refresh-client -S` after each change, so the bar follows at once.
set -u
shopt -u patsub_replacement 2>/dev/null # bash 5.2: `&` in a replacement is literal

option() { # option NAME DEFAULT
    local v
    v=$(tmux show-option -gqv "$1")
    printf '%s' "${v:-$2}"
}

default_dir() {
    if [ -n "${DOSEBAR_DIR:-}" ]; then printf '%s' "$DOSEBAR_DIR"
    elif [ -n "${XDG_RUNTIME_DIR:-}" ]; then printf '%s' "$XDG_RUNTIME_DIR/dosebar"
    else printf '%s' "${XDG_STATE_HOME:-$HOME/.local/state}/dosebar/shared"
    fi
}

# A word for /bin/sh, single-quoted.
sh_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

dir=$(option @dosebar_dir "$(default_dir)")
dir=${dir/#\~/$HOME}
binary=$(option @dosebar_binary dosebar)
fallback=$(option @dosebar_fallback on)

job="cat $(sh_quote "$dir/tmux.txt") 2>/dev/null"
if [ "$fallback" = on ]; then
    job="$job || $(sh_quote "$binary") status --format tmux --dir $(sh_quote "$dir") 2>/dev/null"
fi
# tmux expands formats inside #() before running it: a literal # is written ##.
interpolation="#(${job//\#/##})"

length=$(option @dosebar_length 150)
case $length in ''|*[!0-9]*) length=150 ;; esac

for side in status-right status-left; do
    value=$(tmux show-option -gqv "$side")
    case $value in
        *'#{dosebar}'*)
            tmux set-option -gq "$side" "${value//'#{dosebar}'/$interpolation}"
            # The line (a late dose, yesterday's carried one, the count) is longer than tmux's default room.
            current=$(tmux show-option -gqv "$side-length")
            [ "${current:-0}" -ge "$length" ] 2>/dev/null || tmux set-option -gq "$side-length" "$length"
            ;;
    esac
done
