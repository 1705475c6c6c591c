#!/usr/bin/env python3
"""Turns the test helper (written for GNOME Shell 42-44) into its GNOME 45+ form, in place:

    esm.py DIR      (DIR: a copy of dosebar-test@dosebar.github.io)

The lines between `// @legacy-begin` and `// @legacy-end` are the only ones that differ: the
imports become ES-module imports (plus the shell's Extension class), the callback screenshot a
promise, init() goes, and a default-exported Extension calls the module's enable()/disable().
metadata.json's shell-version becomes 45-48. Test only, like the helper.
"""
import json
import pathlib
import re
import sys

ESM_HEAD = """\
import Clutter from 'gi://Clutter';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gio from 'gi://Gio';
import Shell from 'gi://Shell';
import St from 'gi://St';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';
const PROMISES = true;
"""

ESM_TAIL = """
export default class DosebarTestHelper extends Extension {
    enable() {
        enable();
    }

    disable() {
        disable();
    }
}
"""

root = pathlib.Path(sys.argv[1])
js = root / 'extension.js'
text = js.read_text(encoding='utf-8')
blocks = re.findall(r'// @legacy-begin\n.*?// @legacy-end\n', text, flags=re.S)
if len(blocks) != 2:
    sys.exit(f'esm.py: {js} has {len(blocks)} @legacy blocks, not 2')
text = text.replace(blocks[0], ESM_HEAD, 1).replace(blocks[1], '', 1) + ESM_TAIL
js.write_text(text, encoding='utf-8')
meta = root / 'metadata.json'
data = json.loads(meta.read_text(encoding='utf-8'))
data['shell-version'] = ['45', '46', '47', '48']
meta.write_text(json.dumps(data, indent=4) + '\n', encoding='utf-8')
