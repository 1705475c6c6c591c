#!/usr/bin/env python3
"""Builds the dosebar GNOME Shell extension for both kinds of shell, from one source.

    integrations/gnome-shell/build.py [OUTDIR]      (default: integrations/gnome-shell/build)

writes, each laid out as `gnome-extensions pack` lays out a zip (metadata.json, the
sources and stylesheet at the top, schemas/ with its XML):

    OUTDIR/gnome45/dosebar@dosebar.github.io/   and  OUTDIR/dosebar-gnome45.shell-extension.zip
        GNOME 45-48: the sources of dosebar@dosebar.github.io/ as they are (ES modules).
    OUTDIR/gnome42/dosebar@dosebar.github.io/   and  OUTDIR/dosebar-gnome42.shell-extension.zip
        GNOME 42-44: the same extension.js and logic.js turned into the legacy form
        (imports.*, init() returning the extension object, ExtensionUtils for the
        settings), and legacy/prefs.js.

Each directory also holds schemas/gschemas.compiled, so that it can be copied as it is into an
extensions directory (install.sh, a system package). Of the zips, only the 42-44 one carries it:
GNOME 45+ compile an extension's schemas themselves when it is installed (`gnome-extensions
install`, extensions.gnome.org), and the review of extensions.gnome.org refuses a 45+ zip that
ships them (shexli's EGO-P-006).

The legacy form is made by rewriting only what differs: the import lines of extension.js
(which must be exactly the ones below: a new import fails the build until it is taught
here), `export default class`, and logic.js's `export const`/`export function` (a legacy
module exports its top-level `var`s and functions). Everything else, the indicator, the
watching, the reading and the rendering, is the very code the 45+ build ships and the
gjs tests run.
"""
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
UUID = 'dosebar@dosebar.github.io'
SOURCE = HERE / UUID
LEGACY = HERE / 'legacy'

ESM_IMPORTS = """\
import Clutter from 'gi://Clutter';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gio from 'gi://Gio';
import St from 'gi://St';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import * as Logic from './logic.js';
"""

LEGACY_IMPORTS = """\
// Built by integrations/gnome-shell/build.py for GNOME Shell 42-44 from the 45+ source:
// only these lines and the class's `export` differ.
const {Clutter, GLib, GObject, Gio, St} = imports.gi;

const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;

const Logic = ExtensionUtils.getCurrentExtension().imports.logic;

/** What extension.js uses of GNOME 45's Extension class, on 42-44's ExtensionUtils. */
class Extension {
    constructor(extension) {
        this.metadata = extension.metadata;
        this.uuid = extension.uuid;
        this.path = extension.path;
    }

    getSettings() {
        return ExtensionUtils.getSettings();
    }

    openPreferences() {
        ExtensionUtils.openPrefs();
    }
}
"""

LEGACY_INIT = """
/** GNOME 42-44 call init() once, then enable() and disable() on what it returns. */
function init(extension) {
    return new DosebarExtension(extension);
}
"""


def fail(message):
    sys.exit(f'build.py: {message}')


def legacy_extension(text):
    if ESM_IMPORTS not in text:
        found = '\n'.join(line for line in text.splitlines() if line.startswith('import '))
        fail(f'extension.js imports changed; teach build.py their legacy form:\n{found}')
    text = text.replace(ESM_IMPORTS, LEGACY_IMPORTS, 1)
    head = 'export default class DosebarExtension extends Extension {'
    if text.count(head) != 1:
        fail(f'extension.js has no single `{head}`')
    text = text.replace(head, 'class DosebarExtension extends Extension {')
    left = [line for line in text.splitlines() if re.match(r'\s*(import|export)\b', line)]
    if left:
        fail(f'extension.js still has module syntax after the rewrite: {left}')
    return text + LEGACY_INIT


def legacy_logic(text):
    if re.search(r'^\s*import\b', text, re.M):
        fail('logic.js must import nothing (it runs under plain gjs and in both builds)')
    text = re.sub(r'^export const ', 'var ', text, flags=re.M)
    text = re.sub(r'^export function ', 'function ', text, flags=re.M)
    left = [line for line in text.splitlines() if re.match(r'\s*export\b', line)]
    if left:
        fail(f'logic.js exports something build.py cannot turn into the legacy form: {left}')
    return ('// Built by integrations/gnome-shell/build.py for GNOME Shell 42-44: `export const` is\n'
            '// `var` and `export function` is `function` (what a legacy module exports).\n' + text)


def build(out, name, versions, files, zip_compiled):
    """Lays out one build in out/name/UUID and zips it (with schemas/gschemas.compiled if
    zip_compiled); returns the zip's path."""
    root = out / name / UUID
    if root.exists():
        shutil.rmtree(root)
    (root / 'schemas').mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).write_text(text, encoding='utf-8')
    metadata = (SOURCE / 'metadata.json').read_text(encoding='utf-8')
    esm_versions = '"shell-version": ["45", "46", "47", "48"]'
    if esm_versions not in metadata:
        fail(f'metadata.json has no `{esm_versions}`')
    (root / 'metadata.json').write_text(
        metadata.replace(esm_versions, '"shell-version": [' + ', '.join(f'"{v}"' for v in versions) + ']'),
        encoding='utf-8')
    shutil.copy(SOURCE / 'stylesheet.css', root / 'stylesheet.css')
    for xml in (SOURCE / 'schemas').glob('*.gschema.xml'):
        shutil.copy(xml, root / 'schemas' / xml.name)
    subprocess.run(['glib-compile-schemas', '--strict', str(root / 'schemas')], check=True)
    archive = out / f'dosebar-{name}.shell-extension.zip'
    with zipfile.ZipFile(archive, 'w', zipfile.ZIP_DEFLATED) as z:
        for path in sorted(root.rglob('*')):
            if path.is_file() and (zip_compiled or path.name != 'gschemas.compiled'):
                z.write(path, path.relative_to(root).as_posix())
    return archive


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / 'build'
    out.mkdir(parents=True, exist_ok=True)
    src = {name: (SOURCE / name).read_text(encoding='utf-8') for name in ('extension.js', 'logic.js', 'prefs.js')}
    modern = build(out, 'gnome45', ['45', '46', '47', '48'], src, zip_compiled=False)
    legacy = build(out, 'gnome42', ['42', '43', '44'], {
        'extension.js': legacy_extension(src['extension.js']),
        'logic.js': legacy_logic(src['logic.js']),
        'prefs.js': (LEGACY / 'prefs.js').read_text(encoding='utf-8'),
    }, zip_compiled=True)
    print(f'{modern}  (GNOME 45-48)\n{legacy}  (GNOME 42-44)')


if __name__ == '__main__':
    main()
