#!/usr/bin/env bash
# Runs every integration test against the real clients and prints one summary
# line, `N passed, M failed, K skipped` (`N passed, M failed` without skips);
# exits 1 if any check failed.
#
#   integrations/tests/run-all.sh            # all
#   integrations/tests/run-all.sh tmux conky # some (names of test_*.sh)
#
# DOSEBAR selects the binary, ARTIFACTS where screenshots and logs go. Under
# CI=true nothing is skipped (lib.sh turns a SKIP into a FAIL). A test that
# ends without its closing `END` line (it died, or was killed after
# IT_TEST_TIMEOUT seconds, default 300) counts as a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export ARTIFACTS=${ARTIFACTS:-$here/artifacts}
mkdir -p "$ARTIFACTS"

# Without names, every test that is for this system. Three are for one kind of
# system only, and say so here (not counted as skipped): test_gnome43 drives
# GNOME Shell 42-44 (or reports the shell missing), test_gnome48 drives 45-48
# (Debian 13, integrations/tests/trixie/run.sh), test_shexli needs Python 3.12
# (Debian 13 too). Named on the command line, a test runs whatever the system.
not_here() {
    local major
    case $1 in
        gnome43|gnome48)
            major=$(gnome-shell --version 2>/dev/null | grep -o '[0-9][0-9]*' | head -n1)
            if [ "$1" = gnome43 ] && [ -n "$major" ] && [ "$major" -ge 45 ]; then
                echo "GNOME Shell $major here: test_gnome48 drives it"
            elif [ "$1" = gnome48 ] && { [ -z "$major" ] || [ "$major" -lt 45 ]; }; then
                echo "GNOME Shell ${major:-absent} here: test_gnome48 drives 45-48 (Debian 13: integrations/tests/trixie/run.sh)"
            fi ;;
        shexli)
            python3 -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null ||
                echo "shexli needs Python 3.12 or newer, $(python3 -V 2>&1 | tr -d '\n') here (Debian 13: integrations/tests/trixie/run.sh)" ;;
    esac
}
if [ $# -gt 0 ]; then
    tests=(); for t in "$@"; do tests+=("$here/test_$t.sh"); done
else
    tests=()
    for t in "$here"/test_*.sh; do
        name=$(basename "$t" .sh); why=$(not_here "${name#test_}")
        if [ -n "$why" ]; then echo "--- not for this system: ${name#test_}: $why"; else tests+=("$t"); fi
    done
fi

passed=0 failed=0 skipped=0
start=$(date +%s)
rm -f "$ARTIFACTS/.fixtures-used"
for t in "${tests[@]}"; do
    name=$(basename "$t" .sh); name=${name#test_}
    echo "=== $name"
    out=$ARTIFACTS/$name.results
    t0=$(date +%s)
    if [ ! -f "$t" ]; then
        echo "FAIL $name: no such test $t"; failed=$((failed + 1)); continue
    fi
    timeout -k 10 "${IT_TEST_TIMEOUT:-300}" bash "$t" >"$out" 2>"$ARTIFACTS/$name.err"; rc=$?
    grep -av '^END$' "$out"
    grep -a '^!!!!!!!!' "$ARTIFACTS/$name.err" >&2
    p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out"); s=$(grep -c '^SKIP ' "$out")
    if ! grep -q '^END$' "$out"; then
        if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why="was stopped after ${IT_TEST_TIMEOUT:-300} s"
        else why="ended (exit $rc) before its last check"; fi
        echo "FAIL $name: the test $why (stderr in $ARTIFACTS/$name.err)"
        tail -n 5 "$ARTIFACTS/$name.err" | sed 's/^/    /'
        grep -q '^FAIL [^ ]*-ended-early:' "$out" || f=$((f + 1))
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exited $rc without reporting a failure (stderr in $ARTIFACTS/$name.err)"
        tail -n 5 "$ARTIFACTS/$name.err" | sed 's/^/    /'
        f=1
    elif [ "$f" -gt 0 ]; then
        tail -n 5 "$ARTIFACTS/$name.err" | sed 's/^/    /'
    fi
    echo "--- $name: $(( $(date +%s) - t0 )) s"
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
if [ -s "$ARTIFACTS/.fixtures-used" ]; then
    # Each such test reported its own SKIP (a FAIL under CI); said once more here.
    echo "!!!!!!!! the bars were NOT tested against the real renderers (build dosebar or set DOSEBAR):" \
         "these ran on the hand-made fixtures: $(sort -u "$ARTIFACTS/.fixtures-used" | tr '\n' ' ')!!!!!!!!" >&2
fi
echo "integration tests took $(( $(date +%s) - start )) s; artifacts in $ARTIFACTS"
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
