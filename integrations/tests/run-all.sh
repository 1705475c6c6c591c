#!/usr/bin/env bash
# Runs every integration test against the real clients and prints one summary
# line, `N passed, N failed, N skipped`; exits 1 if any check failed.
#
#   integrations/tests/run-all.sh            # all
#   integrations/tests/run-all.sh tmux conky # some (names of test_*.sh)
#
# DOSEBAR selects the binary, ARTIFACTS where screenshots and logs go.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export ARTIFACTS=${ARTIFACTS:-$here/artifacts}
mkdir -p "$ARTIFACTS"

if [ $# -gt 0 ]; then
    tests=(); for t in "$@"; do tests+=("$here/test_$t.sh"); done
else
    tests=("$here"/test_*.sh)
fi

passed=0 failed=0 skipped=0
start=$(date +%s)
rm -f "$ARTIFACTS/.fixtures-used"
for t in "${tests[@]}"; do
    name=$(basename "$t" .sh); name=${name#test_}
    echo "=== $name"
    out=$ARTIFACTS/$name.results
    t0=$(date +%s)
    bash "$t" >"$out" 2>"$ARTIFACTS/$name.err"; rc=$?
    cat "$out"
    grep -a '^!!!!!!!!' "$ARTIFACTS/$name.err" >&2
    p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out"); s=$(grep -c '^SKIP ' "$out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
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
    echo "SKIP real-binary: no working dosebar binary, so these ran on the hand-made fixtures:" \
         $(sort -u "$ARTIFACTS/.fixtures-used")
    echo "!!!!!!!! the bars were NOT tested against the real renderers (build dosebar or set DOSEBAR) !!!!!!!!" >&2
    skipped=$((skipped + 1))
fi
echo "integration tests took $(( $(date +%s) - start )) s; artifacts in $ARTIFACTS"
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
