// Runs extension.js itself under gjs, with GNOME Shell's own modules (St,
// Clutter, Main, PanelMenu, PopupMenu, Extension) replaced by the stand-ins of
// tests/stubs and the real GLib, Gio and GObject: the real FileMonitor, the real
// asynchronous reads and the real Gio.Subprocess running dosebar.
//
//   GSETTINGS_BACKEND=memory gjs -m test_extension.js EXT_DIR SHARED_DIR COMMAND NOW
//
// EXT_DIR is a copy of the extension whose imports point at ./stubs (made by
// integrations/tests/test_gnome.sh); SHARED_DIR an empty directory; COMMAND the
// dosebar to run (the real one, with the scenario in its environment, or a fake);
// NOW the scenario's instant. Prints ok/not ok per check; exits 1 on a failure.
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gio from 'gi://Gio';
import System from 'system';

const [extDir, shared, command, nowIso] = System.programArgs;
const now = Date.parse(nowIso);
const today = nowIso.slice(0, 10);

let failures = 0, count = 0;
function check(name, condition, detail = '') {
    count++;
    print(`${condition ? 'ok' : 'not ok'} ${count} - ${name}${!condition && detail ? `: ${detail}` : ''}`);
    if (!condition)
        failures++;
}

// --- instrumentation: every main-loop source and every signal handler the
// extension creates on a real GObject is recorded, to check disable().
const liveSources = new Map();
const realTimeoutAdd = GLib.timeout_add, realSourceRemove = GLib.source_remove, realIdleAdd = GLib.idle_add;
GLib.timeout_add = (priority, ms, callback) => {
    const id = realTimeoutAdd(priority, ms, () => {
        const again = callback();
        if (!again)
            liveSources.delete(id);
        return again;
    });
    liveSources.set(id, `timeout ${ms} ms`);
    return id;
};
GLib.timeout_add_seconds = (priority, s, callback) => GLib.timeout_add(priority, s * 1000, callback);
GLib.idle_add = (priority, callback) => {
    const id = realIdleAdd(priority, () => {
        const again = callback();
        if (!again)
            liveSources.delete(id);
        return again;
    });
    liveSources.set(id, 'idle');
    return id;
};
GLib.source_remove = id => {
    liveSources.delete(id);
    return realSourceRemove(id);
};
const connections = [];
const realConnect = GObject.Object.prototype.connect;
GObject.Object.prototype.connect = function (signal, ...rest) {
    const id = realConnect.call(this, signal, ...rest);
    connections.push({object: this, id, signal});
    return id;
};

function sleep(ms) {
    return new Promise(resolve => realTimeoutAdd(GLib.PRIORITY_DEFAULT, ms, () => {
        resolve();
        return GLib.SOURCE_REMOVE;
    }));
}
async function until(condition, ms = 8000) {
    for (let waited = 0; waited < ms; waited += 50) {
        if (condition())
            return true;
        await sleep(50);
    }
    return condition();
}
function writeAtomically(path, text) {
    const tmp = `${path}.test-tmp`;
    GLib.file_set_contents(tmp, text);
    Gio.File.new_for_path(tmp).move(Gio.File.new_for_path(path), Gio.FileCopyFlags.OVERWRITE, null, null);
}

// --- the extension, as GNOME Shell would load it
const [, metaBytes] = GLib.file_get_contents(`${extDir}/metadata.json`);
const metadata = {...JSON.parse(new TextDecoder().decode(metaBytes)), path: extDir};
const {default: DosebarExtension} = await import(`file://${extDir}/extension.js`);
const Main = await import(`file://${extDir}/stubs/main.js`);
const St = (await import(`file://${extDir}/stubs/St.js`)).default;
DosebarExtension.prototype._clock = () => ({now, today});

const ext = new DosebarExtension(metadata);
const settings = ext.getSettings();
settings.set_string('shared-dir', shared);
settings.set_string('command', command);
Gio.Settings.sync();
await sleep(50); // let the memory backend's change notifications pass

const indicator = () => Main.panel.statusArea[metadata.uuid];
const label = () => indicator()?._label?.text ?? '';
const icon = () => indicator()?._icon?.icon_name ?? '';
const classes = () => [...(indicator()?.box?.styleClasses ?? [])];
const items = () => indicator()?.menu?.items ?? [];
const texts = () => items().map(i => i.text ?? '').filter(Boolean);

ext.enable();
check('enable: an indicator in the panel', indicator() !== undefined && !indicator().destroyed);

// No timeline.json yet: the extension runs `dosebar export` itself, then the
// directory monitor sees the new file and the panel shows the day.
const loaded = await until(() => label().includes('Levothyroxine'));
check('first view: label from timeline.json (written by `dosebar export` run by the extension)', loaded,
    `label '${label()}', notifications ${JSON.stringify(Main.notifications)}`);
check('first view: late icon', icon() === 'dialog-warning-symbolic', icon());
check('first view: late style class', classes().includes('dosebar-late'), classes().join(' '));
check('first view: the message first', /Levothyroxine/.test(texts()[0] ?? ''), texts()[0]);
const doseRows = () => items().filter(i => /\d\d:\d\d {2}/.test(i.label?.text ?? ''));
check('menu: a row per dose', doseRows().length === 4, JSON.stringify(texts()));
const takeRows = () => doseRows().filter(i => i.reactive && i.text.includes('Taken'));
check('menu: a Taken item for the late and the due dose',
    JSON.stringify(takeRows().map(i => i.label.text.split('  ')[1].split(' ')[0])) === '["Levothyroxine","Magnesium"]',
    JSON.stringify(takeRows().map(i => i.text)));
check('menu: the taken dose is not clickable', doseRows().some(i => i.text.includes('Omega-3') && !i.reactive));
const takeAll = () => items().find(i => i.reactive && /Take all due/.test(i.text));
check('menu: a Take all due item', takeAll() !== undefined, JSON.stringify(texts()));
// The 7-day strip, in the words and symbols dosebar wrote: the scenario's medicines were
// added that morning (6 days without slots), today is not complete (integrations/tests/lib.sh).
const strip = () => items().find(i => !i.reactive && /^Week: /.test(i.text ?? ''));
check('menu: the 7-day strip', strip()?.text === 'Week: · · · · · · ○', JSON.stringify(texts()));

// Click "Taken" on Levothyroxine: dosebar runs (Gio.Subprocess), rewrites the
// directory, the monitor fires, the panel follows.
const before = label();
takeRows()[0]?.activate();
check('Taken: the panel follows the take', await until(() => label() !== before && !label().includes('Levothyroxine late')),
    `label '${label()}'`);
check('Taken: Levothyroxine no longer offered', !takeRows().some(i => i.text.includes('Levothyroxine')),
    JSON.stringify(texts()));

// "Take all due".
const beforeAll = label();
takeAll()?.activate();
check('Take all due: the panel follows', await until(() => label() !== beforeAll && takeRows().length === 0),
    `label '${label()}', ${JSON.stringify(texts())}`);
check('Take all due: nothing due, no take-all item', takeAll() === undefined);
check('Take all due: no error notification', Main.notifications.length === 0, JSON.stringify(Main.notifications));
const goodTimeline = new TextDecoder().decode(GLib.file_get_contents(`${shared}/timeline.json`)[1]);

// A broken file (a foreign writer): an error state, no exception.
writeAtomically(`${shared}/timeline.json`, '{"schema": 1, "entries": [');
check('broken file: error state', await until(() => classes().includes('dosebar-error')), classes().join(' '));
check('broken file: says why', texts().some(t => t.includes('not JSON')), JSON.stringify(texts()));
writeAtomically(`${shared}/timeline.json`, goodTimeline);
check('good file again: recovers', await until(() => !classes().includes('dosebar-error')), classes().join(' '));
const goodLabel = label(), goodTexts = JSON.stringify(texts());

// Issue 46: a medicine in a cycle shows the line dosebar wrote for it, as a row that is not clickable.
const cycleLine = 'Yaz: day 13 of 21, rest from Tue 1 Dec';
writeAtomically(`${shared}/timeline.json`, JSON.stringify({...JSON.parse(goodTimeline),
    cycle: [{medication: 'Yaz', phase: 'active', day: 13, length: 21, next: '2026-12-01', text: cycleLine}]}));
check('cycle: its line in the menu', await until(() => items().some(i => i.text === cycleLine)), JSON.stringify(texts()));
check('cycle: not clickable', items().filter(i => i.text === cycleLine).every(i => !i.reactive));
writeAtomically(`${shared}/timeline.json`, goodTimeline);
check('cycle: gone with the file without it', await until(() => JSON.stringify(texts()) === goodTexts), JSON.stringify(texts()));

// The file dosebar writes is schema 3; a dosebar newer than the extension may write
// schema 4: the panel and the menu say the extension needs updating.
const good = JSON.parse(goodTimeline);
check('timeline.json is schema 3', good.schema === 3, String(good.schema));
writeAtomically(`${shared}/timeline.json`, JSON.stringify({...good, schema: 4}));
check('schema 4: the panel asks for a newer extension', await until(() => label() === 'dosebar: update the extension'),
    `label '${label()}'`);
check('schema 4: and the menu says why', texts().some(t => t.includes('(schema 4) needs a newer dosebar extension')),
    JSON.stringify(texts()));
check('schema 4: error style', classes().includes('dosebar-error'), classes().join(' '));

// Schema 1 (every entry a whole snapshot, from an older dosebar) shows the same as schema 3
// (with the words, which a reader takes from any schema: the strip needs them).
const Logic = await import(`file://${extDir}/logic.js`);
const schema1 = {
    schema: 1, generated_at: good.generated_at, day: good.day, timezone: good.timezone, reload_at: good.reload_at,
    words: good.words,
    entries: good.entries.map(e => ({schema: 1, ...Logic.expandEntry(good, e), messages: [e.message], tooltip: ''})),
};
writeAtomically(`${shared}/timeline.json`, JSON.stringify(schema1));
check('schema 1: read like schema 3', await until(() => label() === goodLabel && JSON.stringify(texts()) === goodTexts),
    `label '${label()}', ${JSON.stringify(texts())}`);
writeAtomically(`${shared}/timeline.json`, goodTimeline);

// The next day, yesterday's file is shown as stale (not as today).
DosebarExtension.prototype._clock = () => ({now: now + 86400000, today: '2099-01-01'});
ext._render();
check('next day: stale', classes().includes('dosebar-stale') && icon() === 'content-loading-symbolic', classes().join(' '));
DosebarExtension.prototype._clock = () => ({now, today});
ext._render();

// Settings: the preferences item opens the preferences.
items().find(i => i.reactive && i.text === 'Settings')?.activate();
check('Settings item opens the preferences', ext.preferencesOpened === 1);

// --- disable(): nothing left behind
const monitor = ext._monitor;
const panelIndicator = indicator();
ext.disable();
check('disable: indicator destroyed', panelIndicator.destroyed === true);
check('disable: every St actor destroyed', St.live.size === 0, `${St.live.size} left`);
check('disable: every main-loop source removed', liveSources.size === 0, JSON.stringify([...liveSources.values()]));
const stillConnected = connections.filter(c => GObject.signal_handler_is_connected(c.object, c.id));
check('disable: every signal handler disconnected', stillConnected.length === 0,
    stillConnected.map(c => `${c.object.constructor.name}::${c.signal}`).join(', '));
check('disable: the file monitor cancelled', monitor !== null && monitor.is_cancelled());

// After disable, changes in the directory wake nothing.
writeAtomically(`${shared}/timeline.json`, goodTimeline);
await sleep(400);
check('after disable: no source revived by a file change', liveSources.size === 0, JSON.stringify([...liveSources.values()]));

// Enable again (the lock screen does disable/enable), then disable again.
ext.enable();
check('re-enable: loads again', await until(() => label().length > 0 && !indicator().destroyed && classes().some(c => c !== 'dosebar-error')),
    `label '${label()}'`);
ext.disable();
check('re-disable: clean', liveSources.size === 0 && St.live.size === 0 &&
    connections.every(c => !GObject.signal_handler_is_connected(c.object, c.id)));

print(`1..${count}`);
if (failures > 0) {
    print(`${failures} of ${count} failed`);
    System.exit(1);
}
