// prefs.js under gjs with stand-ins for Adw and the shell's prefs module: it
// fills the window with one entry per setting, each bound both ways to its
// GSettings key.
//
//   GSETTINGS_BACKEND=memory gjs -m test_prefs.js EXT_DIR   (a copy made by test_gnome.sh)
import GLib from 'gi://GLib';
import System from 'system';

const [extDir] = System.programArgs;
let failures = 0, count = 0;
function check(name, condition, detail = '') {
    count++;
    print(`${condition ? 'ok' : 'not ok'} ${count} - ${name}${!condition && detail ? `: ${detail}` : ''}`);
    if (!condition)
        failures++;
}

const metadata = {...JSON.parse(new TextDecoder().decode(GLib.file_get_contents(`${extDir}/metadata.json`)[1])), path: extDir};
const {default: DosebarPreferences} = await import(`file://${extDir}/prefs.js`);
const Adw = (await import(`file://${extDir}/stubs/Adw.js`)).default;

const prefs = new DosebarPreferences(metadata);
const window = new Adw.PreferencesWindow();
prefs.fillPreferencesWindow(window);
const rows = window.children.flatMap(page => page.children).flatMap(group => group.children);
check('a page with a group of two entries', rows.length === 2, `${rows.length} rows`);

const settings = prefs.getSettings();
const [dirRow, commandRow] = rows;
dirRow.text = '/run/user/1000/dosebar-test';
commandRow.text = '/opt/dosebar/bin/dosebar';
check('the directory entry writes shared-dir', settings.get_string('shared-dir') === '/run/user/1000/dosebar-test',
    settings.get_string('shared-dir'));
check('the command entry writes command', settings.get_string('command') === '/opt/dosebar/bin/dosebar',
    settings.get_string('command'));
settings.set_string('shared-dir', '');
check('shared-dir shows in the entry', dirRow.text === '', dirRow.text);

print(`1..${count}`);
if (failures > 0)
    System.exit(1);
