#!/usr/bin/env bash
# Both zips of the GNOME Shell extension (integrations/gnome-shell/build.py) read by
# shexli, the static analyzer of the extensions.gnome.org review (PyPI; it needs Python
# 3.12: Debian 13, so integrations/tests/trixie/run.sh runs this test). Any finding, error
# or warning, fails the check: the zips go to the review as they are built.
#
# shexli goes into a venv of its own ($SHEXLI_VENV, default /var/tmp/dosebar-shexli-venv,
# kept between runs), pinned to SHEXLI_VERSION, the version the zips were last made clean
# against (a newer shexli may know new rules: raise it on purpose, and fix what it finds).
set -u
. "$(dirname "$0")/lib.sh"

SHEXLI_VERSION=${SHEXLI_VERSION:-0.2.1}
require shexli python3 jq glib-compile-schemas
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
    result SKIP shexli "shexli needs Python 3.12 or newer, and python3 is $(python3 -V 2>&1 | cut -d' ' -f2) (Debian 13 has 3.13)"
    finish
fi
python3 -c 'import venv, ensurepip' 2>/dev/null ||
    { result SKIP shexli "python3 cannot make a venv (apt-get install python3-venv)"; finish; }
new_work shexli

venv=${SHEXLI_VENV:-/var/tmp/dosebar-shexli-venv}
if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("shexli"))' 2>/dev/null)" != "$SHEXLI_VERSION" ]; then
    rm -rf "$venv"
    if ! { python3 -m venv "$venv" &&
           timeout 180 "$venv/bin/pip" install -q --disable-pip-version-check "shexli==$SHEXLI_VERSION"; } >"$WORK/pip.log" 2>&1; then
        result FAIL shexli-install "pip could not install shexli $SHEXLI_VERSION: $(tail -n 3 "$WORK/pip.log" | tr '\n' ' ')"
        finish
    fi
fi

python3 "$INTEGRATIONS_DIR/gnome-shell/build.py" "$WORK/build" >"$WORK/build.log" 2>&1 ||
    { result FAIL shexli-build "build.py: $(tr '\n' ' ' <"$WORK/build.log")"; finish; }
for build in gnome45 gnome42; do
    zip=$WORK/build/dosebar-$build.shell-extension.zip
    out=$WORK/shexli-$build.json
    if ! timeout 120 "$venv/bin/shexli" --format json "$zip" >"$out" 2>"$WORK/shexli-$build.err" ||
        ! jq -e '.findings | type == "array"' "$out" >/dev/null 2>&1; then
        result FAIL "shexli-$build" "shexli did not analyse $(basename "$zip"): $(head -c 300 "$WORK/shexli-$build.err")"
        continue
    fi
    cp "$out" "$ARTIFACTS/shexli-$build.json"
    "$venv/bin/shexli" "$zip" >"$ARTIFACTS/shexli-$build.txt" 2>&1
    n=$(jq '.findings | length' "$out")
    if [ "$n" = 0 ]; then
        result PASS "shexli-$build" "shexli $SHEXLI_VERSION: no finding in $(basename "$zip") ($(jq -r '.summary.status' "$out"))"
    else
        result FAIL "shexli-$build" "$n findings: $(jq -r '[.findings[] | "\(.rule_id) \(.severity) \(.evidence[0].path // ""):\(.evidence[0].line // "") \(.message)"] | join(" | ")' "$out")"
    fi
done
finish
