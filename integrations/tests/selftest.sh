#!/usr/bin/env bash
# Self-test of the integration tests: can their checks fail? Runs the client
# tests with DOSEBAR_IT_MUTATE=1 (lib.sh): after every command of the real
# binary, and while its daemon runs, the bar files are rewritten wrong by
# fixtures/mutate.pl (other counts, state and class, colours, dose statuses,
# as-needed figures, broken escapes of "Ferrous & C #2"). The real clients then
# draw the wrong files, and every check that compares what a client drew with
# the scenario's expectation must FAIL. Exits 0 only if each client test
# failed, and each of its content checks listed below failed, with the
# scenario itself built (a failure to set up proves nothing).
#
#   CI=true DOSEBAR=.build/debug/dosebar integrations/tests/selftest.sh [client...]
#   integrations/tests/trixie/run.sh --selftest gnome48 waybar   # in the Debian 13 root
#
# About 1 minute. Artifacts go to $ARTIFACTS (default integrations/tests/artifacts/selftest).
set -u
here=$(cd "$(dirname "$0")" && pwd)
export ARTIFACTS=${ARTIFACTS:-$here/artifacts/selftest}
export DOSEBAR_IT_MUTATE=1 DOSEBAR_REQUIRE_BINARY=1

declare -A must_fail=(
    [waybar]="waybar-signal-module waybar-signal-module-colour waybar-stream waybar-stream-colour
              waybar-json waybar-tooltip waybar-click waybar-click-colour waybar-stream-update
              waybar-stream-update-colour waybar-daemon waybar-daemon-colour waybar-as-needed-text
              waybar-as-needed waybar-stream-as-needed-text waybar-stream-as-needed
              waybar-carried waybar-carried-colour waybar-carried-json waybar-carried-tooltip"
    [polybar]="polybar-ipc polybar-ipc-colour polybar-stream polybar-stream-colour polybar-update
               polybar-update-colour polybar-stream-update polybar-stream-update-colour
               polybar-daemon polybar-daemon-colour"
    [conky]="conky-catp conky-update conky-as-needed"
    [tmux]="tmux-status-right tmux-status-right-colour tmux-status-left tmux-refresh
            tmux-refresh-colour tmux-daemon tmux-daemon-colour"
    [i3blocks]="i3blocks-signal-block i3blocks-stream i3blocks-click i3blocks-stream-update
                i3blocks-undo i3blocks-daemon"
    [gnome43]="gnome43-label gnome43-panel-ocr gnome43-panel-colour gnome43-menu gnome43-menu-ocr
               gnome43-taken gnome43-taken-ocr gnome43-carried-label gnome43-carried-panel-ocr
               gnome43-carried-menu gnome43-carried-menu-ocr gnome43-carried-taken"
    [gnome48]="gnome48-label gnome48-panel-ocr gnome48-panel-colour gnome48-menu gnome48-menu-ocr
               gnome48-taken gnome48-taken-ocr gnome48-carried-label gnome48-carried-panel-ocr
               gnome48-carried-menu gnome48-carried-menu-ocr gnome48-carried-taken"
    [report]="report-self-contained report-en-offline report-ko-offline report-en-pdf report-ko-pdf
              report-en-escaped report-ko-escaped report-figures report-days"
)
clients=("$@"); [ ${#clients[@]} -gt 0 ] || clients=(waybar polybar conky tmux i3blocks gnome43 report)

"$here/run-all.sh" "${clients[@]}" >"$ARTIFACTS.log" 2>&1
echo "mutated run: $(tail -n 1 "$ARTIFACTS.log") (log: $ARTIFACTS.log)"

ok=0
for c in "${clients[@]}"; do
    res=$ARTIFACTS/$c.results
    problems=()
    [ -s "$res" ] || problems+=("no results")
    grep -q '^END$' "$res" 2>/dev/null || problems+=("the test did not run to its end")
    bad=$(grep -E '^FAIL [^ ]*-(scenario|ended-early|real-binary|advance|undo-command|as-needed-take):' "$res" 2>/dev/null)
    [ -z "$bad" ] || problems+=("set-up failed, not a check: $bad")
    caught=0 missed=()
    for check in ${must_fail[$c]}; do
        if grep -q "^FAIL $check:" "$res" 2>/dev/null; then caught=$((caught + 1))
        else missed+=("$check: $(grep -m1 -E "^(PASS|SKIP) $check( |:)" "$res" 2>/dev/null || echo 'not run')"); fi
    done
    [ ${#missed[@]} -eq 0 ] || problems+=("these checks did not fail on the wrong files: ${missed[*]}")
    if [ ${#problems[@]} -eq 0 ]; then
        echo "DETECTED $c: all $caught content checks failed on the wrong files"
    else
        echo "MISSED $c: $caught of $(echo ${must_fail[$c]} | wc -w) content checks failed; $(printf '%s; ' "${problems[@]}")"
        ok=1
    fi
done
if [ $ok = 0 ]; then echo "selftest: every client test detected the wrong files"
else echo "selftest: FAILED: some client test passed on wrong files"; fi
exit $ok
