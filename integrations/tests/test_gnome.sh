#!/usr/bin/env bash
# GNOME Shell extension: its metadata and schema, its logic (gjs -m
# tests/test_logic.js, also on a timeline.json written by the real dosebar) and
# extension.js itself under gjs with stand-ins for the shell's own modules
# (tests/test_extension.js): real FileMonitor, async reads, Gio.Subprocess
# running dosebar, and everything released by disable().
set -u
. "$(dirname "$0")/lib.sh"

gnome=$INTEGRATIONS_DIR/gnome-shell
uuid=dosebar@dosebar.github.io
ext=$gnome/$uuid
require gnome gjs jq python3 perl glib-compile-schemas
new_work gnome

# --- metadata.json and the GSettings schema
meta_problems=$(jq -r --arg uuid "$uuid" '
    [ (if .uuid != $uuid then "uuid is \(.uuid)" else empty end),
      (if (.["shell-version"] | sort) != ["45","46","47","48"] then "shell-version \(.["shell-version"])" else empty end),
      (if .["settings-schema"] != "org.gnome.shell.extensions.dosebar" then "settings-schema" else empty end),
      (if (.name // "") == "" or (.description // "") == "" then "name/description" else empty end)
    ] | join("; ")' "$ext/metadata.json" 2>&1)
if [ -z "$meta_problems" ]; then result PASS gnome-metadata "uuid, shell-version 45–48, settings-schema"
else result FAIL gnome-metadata "$meta_problems"; fi
if command -v glib-compile-schemas >/dev/null; then
    if out=$(glib-compile-schemas --strict --dry-run "$ext/schemas" 2>&1); then
        result PASS gnome-schema "glib-compile-schemas --strict accepts it"
    else
        result FAIL gnome-schema "$out"
    fi
else
    result SKIP gnome-schema "glib-compile-schemas is not installed (apt-get install libglib2.0-bin)"
fi

# --- rules a reviewer of extensions.gnome.org checks: ESM only, no synchronous IO
bad=$(grep -n -E '\bimports\.|load_contents\(|file_get_contents|_sync\(|spawn_command_line|spawn_sync|add_actor\(' \
    "$ext/extension.js" "$ext/logic.js" "$ext/prefs.js")
if [ -z "$bad" ]; then result PASS gnome-no-sync-io "ESM imports only, no synchronous IO or spawn"
else result FAIL gnome-no-sync-io "$bad"; fi
shell_imports=$(grep -n -E "from '(resource|gi):" "$ext/logic.js")
if [ -z "$shell_imports" ]; then result PASS gnome-logic-plain "logic.js imports nothing"
else result FAIL gnome-logic-plain "logic.js imports: $shell_imports"; fi

# --- the logic, alone
scenario_setup || { result FAIL gnome-scenario "could not build the scenario"; finish; }
args=()
[ "$SCENARIO_SOURCE" = binary ] && args=("$SHARED/timeline.json" "$SCENARIO_NOW")
if gjs -m "$gnome/tests/test_logic.js" "${args[@]}" >"$WORK/logic.out" 2>&1; then
    result PASS gnome-logic "$(grep -c '^ok' "$WORK/logic.out") checks${args:+, including a timeline.json of the real dosebar}"
else
    result FAIL gnome-logic "$(grep -v '^ok' "$WORK/logic.out" | head -n 8 | tr '\n' ' ')"
fi
cp "$WORK/logic.out" "$ARTIFACTS/gnome-logic.out"

# --- the two builds (build.py): 45-48 is the sources as they are; 42-44's logic.js,
# loaded as a legacy module (imports.*), gives the very view the ES module gives
if python3 "$gnome/build.py" "$WORK/build" >"$WORK/build.out" 2>&1; then
    legacy=$WORK/build/gnome42/$uuid modern=$WORK/build/gnome45/$uuid
    same=1
    for f in extension.js logic.js prefs.js stylesheet.css; do cmp -s "$ext/$f" "$modern/$f" || same=0; done
    timeline=${args[0]:-$FIXTURES_DIR/gnome/timeline-before.json}
    at=${args[1]:-$(jq -r '.entries[0].at' "$timeline")}
    cat >"$WORK/views.js" <<EOF
const text = new TextDecoder().decode(imports.gi.GLib.file_get_contents('$timeline')[1]);
const now = Date.parse('$at');
imports.searchPath.unshift('$legacy');
const legacy = imports.logic;
import('file://$ext/logic.js').then(esm => {
    const view = L => JSON.stringify(L.buildView(L.parseTimeline(text), now, {today: '${at:0:10}'}));
    print(view(legacy) === view(esm) ? 'same' : \`legacy \${view(legacy)}\nesm \${view(esm)}\`);
    imports.mainloop.quit('views');
}).catch(e => { print(e); imports.mainloop.quit('views'); });
imports.mainloop.run('views');
EOF
    views=$(gjs "$WORK/views.js" 2>&1)
    if [ $same = 1 ] && [ "$views" = same ] && jq -e '."shell-version" == ["42","43","44"]' "$legacy/metadata.json" >/dev/null &&
        jq -e '."shell-version" == ["45","46","47","48"]' "$modern/metadata.json" >/dev/null &&
        [ -s "$legacy/schemas/gschemas.compiled" ] && ! grep -q -E '^\s*(import|export) ' "$legacy/extension.js" "$legacy/logic.js" &&
        grep -q '^function init(' "$legacy/extension.js" && [ -s "$WORK/build/dosebar-gnome42.shell-extension.zip" ] &&
        [ -s "$WORK/build/dosebar-gnome45.shell-extension.zip" ]; then
        result PASS gnome-builds "both zips; the legacy logic.js gives the ES module's view"
    else
        result FAIL gnome-builds "45 build = sources: $same; views: $(head -c 400 <<<"$views")"
    fi
else
    result FAIL gnome-builds "$(tr '\n' ' ' <"$WORK/build.out")"
fi
# The compiled schemas: in both directories (installed as they are), in the 42-44 zip,
# not in the 45+ one (45+ compile them on install; extensions.gnome.org refuses them, EGO-P-006).
zipped() { python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$1" 2>&1; }
z45=$(zipped "$WORK/build/dosebar-gnome45.shell-extension.zip") z42=$(zipped "$WORK/build/dosebar-gnome42.shell-extension.zip")
if ! grep -qx 'schemas/gschemas.compiled' <<<"$z45" && grep -qx 'schemas/org.gnome.shell.extensions.dosebar.gschema.xml' <<<"$z45" &&
    grep -qx 'schemas/gschemas.compiled' <<<"$z42" && [ -s "$WORK/build/gnome45/$uuid/schemas/gschemas.compiled" ] &&
    [ -s "$WORK/build/gnome42/$uuid/schemas/gschemas.compiled" ]; then
    result PASS gnome-zip-schemas "45+ zip: the schema's XML only; 42-44 zip and both directories: compiled too"
else
    result FAIL gnome-zip-schemas "45+ zip: $(tr '\n' ' ' <<<"$z45"); 42-44 zip: $(tr '\n' ' ' <<<"$z42")"
fi

# --- extension.js with stand-ins for GNOME Shell's modules
copy=$WORK/ext
cp -r "$ext" "$copy"; cp -r "$gnome/tests/stubs" "$copy/stubs"
sed -i -e "s#'resource:///org/gnome/shell/extensions/extension.js'#'./stubs/extension.js'#" \
       -e "s#'resource:///org/gnome/shell/ui/\([a-zA-Z]*\).js'#'./stubs/\1.js'#" \
       -e "s#'gi://St'#'./stubs/St.js'#" -e "s#'gi://Clutter'#'./stubs/Clutter.js'#" "$copy/extension.js"
sed -i -e "s#'resource:///org/gnome/Shell/Extensions/js/extensions/prefs.js'#'./stubs/prefs.js'#" \
       -e "s#'gi://Adw'#'./stubs/Adw.js'#" "$copy/prefs.js"
if ! glib-compile-schemas "$copy/schemas" 2>"$WORK/schema.err"; then
    result FAIL gnome-extension "cannot compile the schema: $(cat "$WORK/schema.err")"; finish
fi
mkdir -m 700 "$WORK/gnome-shared"
if [ "$SCENARIO_SOURCE" = binary ]; then
    command=$SCENARIO_BIN
    dose_argv # the scenario's environment for the dosebar the extension runs
    run=("${DOSE_ARGV[@]:0:${#DOSE_ARGV[@]}-1}")
else
    command=$gnome/tests/fake-dosebar
    run=(env)
fi
"${run[@]}" GSETTINGS_BACKEND=memory timeout 60 gjs -m "$gnome/tests/test_extension.js" \
    "$copy" "$WORK/gnome-shared" "$command" "$SCENARIO_NOW" >"$WORK/extension.out" 2>&1
rc=$?
cp "$WORK/extension.out" "$ARTIFACTS/gnome-extension.out"
if [ $rc = 0 ] && grep -q '^1\.\.' "$WORK/extension.out"; then
    result PASS gnome-extension "$(grep -c '^ok' "$WORK/extension.out") checks of extension.js (with $(basename "$command"))"
else
    result FAIL gnome-extension "exit $rc: $(grep -v '^ok' "$WORK/extension.out" | head -n 8 | tr '\n' ' ')"
fi
# --- prefs.js with stand-ins for Adw and the shell's prefs module
if GSETTINGS_BACKEND=memory timeout 30 gjs -m "$gnome/tests/test_prefs.js" "$copy" >"$WORK/prefs.out" 2>&1; then
    result PASS gnome-prefs "$(grep -c '^ok' "$WORK/prefs.out") checks: both entries bound to their GSettings keys"
else
    result FAIL gnome-prefs "$(grep -v '^ok' "$WORK/prefs.out" | head -n 6 | tr '\n' ' ')"
fi
cp "$WORK/prefs.out" "$ARTIFACTS/gnome-prefs.out"
finish
