// Test only, never shipped (integrations/tests/test_gnome43.sh, test_gnome48.sh): runs beside
// the dosebar extension inside a real GNOME Shell and does what the test asks
// through files in $DOSEBAR_TEST_CHANNEL. The test writes `cmd` (JSON {id, op,
// ...}); the helper removes it, does it and writes `reply` (JSON {id, ok, ...}).
//
//   state               what the panel indicator and its menu show: the label's
//                       text, style classes and colour, where the label and each
//                       menu item are on the screen, whether the menu is open
//   screenshot {path}   a PNG of the whole screen (Shell.Screenshot)
//   click {x, y}        a click of a Clutter virtual pointer at (x, y)
//   record              from now on, note every main-loop source, signal handler
//                       and file monitor that the dosebar extension's own code
//                       creates (told by its file in the call's stack). GNOME
//                       Shell 42-44 disable and enable every extension enabled
//                       after the one being disabled ("rebase"); when that is
//                       this helper, its enable() takes the recording up again.
//   disable / enable    Main.extensionManager.disableExtension / enableExtension
//   last                disable and enable this helper (from an idle, after the
//                       reply), so that it comes after dosebar in the shell's
//                       order whichever the shell found first, and every
//                       disable of dosebar also rebases the helper
//   census              what of dosebar is still there: its panel entry, actors
//                       with a dosebar style class, recorded sources still in the
//                       main context, handlers still connected, monitors not cancelled
//   overview            hide the overview (GNOME 45+ start in it)
//
// Written for GNOME 42-44 (imports.*, init/enable/disable); esm.py makes the 45+ form
// of it by rewriting the lines between the @legacy markers.
// @legacy-begin
const {Clutter, GLib, GObject, Gio, Shell, St} = imports.gi;
const Main = imports.ui.main;
const PopupMenu = imports.ui.popupMenu;
// Shell.Screenshot.screenshot takes a callback (42-44) or returns a promise (45+).
const PROMISES = false;
// @legacy-end

const UUID = 'dosebar@dosebar.github.io';
const HELPER_UUID = 'dosebar-test@dosebar.github.io';
const POLL_MS = 100;

let pollId = 0;
let pointer = null;
const recorded = {sources: new Map(), connections: [], monitors: []};
let restore = [];
let recording = false;

// Whether the patched function was called by dosebar's own code: the frame below the
// wrapper ([0] is this function, [1] the wrapper). What the shell's code creates for
// dosebar (GNOME 48's PopupMenuItem connects its own Clutter.ClickAction) is the shell's.
function fromDosebar() {
    return ((new Error().stack ?? '').split('\n')[2] ?? '').includes(`/${UUID}/`);
}

function hex(color) {
    // Clutter.Color (42-46) and Cogl.Color (47+) both have red, green, blue.
    return `#${[color.red, color.green, color.blue].map(v => v.toString(16).padStart(2, '0')).join('')}`;
}

function box(actor) {
    const [x, y] = actor.get_transformed_position();
    const [w, h] = actor.get_transformed_size();
    return [Math.round(x), Math.round(y), Math.round(w), Math.round(h)];
}

function indicator() {
    return Main.panel.statusArea[UUID] ?? null;
}

function state() {
    const ind = indicator();
    if (!ind)
        return {found: false};
    const label = ind._label;
    const items = ind.menu._getMenuItems().map(item => ({
        text: item.label ? item.label.get_text() : '',
        // A dose row's "Taken" is a second label beside the row's own.
        extra: item.get_children().filter(c => c instanceof St.Label && c !== item.label)
            .map(c => c.get_text()).filter(Boolean),
        reactive: item.reactive,
        box: box(item),
        separator: item instanceof PopupMenu.PopupSeparatorMenuItem,
    }));
    return {
        found: true,
        label: label.get_text(),
        classes: (ind.get_style_class_name() ?? '').split(/\s+/).filter(Boolean),
        labelColor: hex(label.get_theme_node().get_foreground_color()),
        labelBox: box(label),
        indicatorBox: box(ind),
        menuOpen: ind.menu.isOpen,
        menuBox: ind.menu.isOpen ? box(ind.menu.actor) : null,
        items,
        extensionState: Main.extensionManager.lookup(UUID)?.state ?? null,
    };
}

function screenshot(path, done) {
    const file = Gio.File.new_for_path(path);
    const stream = file.replace(null, false, Gio.FileCreateFlags.NONE, null);
    const shooter = new Shell.Screenshot();
    if (PROMISES) {
        shooter.screenshot(false, stream).then(() => {
            stream.close(null);
            done({path});
        }).catch(e => done({error: e.message}));
        return;
    }
    shooter.screenshot(false, stream, (source, result) => {
        try {
            source.screenshot_finish(result);
            stream.close(null);
            done({path});
        } catch (e) {
            done({error: e.message});
        }
    });
}

function click(x, y, done) {
    if (!pointer) {
        // The stage's context (45+), else the default backend (42-44).
        const backend = global.stage.context?.get_backend?.() ?? Clutter.get_default_backend();
        const seat = backend.get_default_seat();
        pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
    }
    const t = GLib.get_monotonic_time();
    pointer.notify_absolute_motion(t, x, y);
    pointer.notify_button(t + 1000, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
    pointer.notify_button(t + 60000, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
    done({});
}

function record() {
    recording = true;
    if (restore.length > 0)
        return;
    const patch = (object, name, wrapper) => {
        const original = object[name];
        object[name] = wrapper(original);
        restore.push(() => {
            object[name] = original;
        });
    };
    for (const name of ['timeout_add', 'timeout_add_seconds', 'idle_add']) {
        patch(GLib, name, original => function (...args) {
            const id = original.apply(this, args);
            if (fromDosebar())
                recorded.sources.set(id, name);
            return id;
        });
    }
    patch(GObject.Object.prototype, 'connect', original => function (...args) {
        const id = original.apply(this, args);
        // Actors are checked by their being gone; a handler on any other object must be disconnected.
        if (fromDosebar() && !(this instanceof Clutter.Actor))
            recorded.connections.push({object: this, id, signal: args[0]});
        return id;
    });
    patch(Gio.File.prototype, 'monitor_directory', original => function (...args) {
        const monitor = original.apply(this, args);
        if (fromDosebar())
            recorded.monitors.push(monitor);
        return monitor;
    });
}

function dosebarActors(actor, found = []) {
    for (const child of actor.get_children()) {
        const classes = child.get_style_class_name?.() ?? '';
        if (/(^|\s)dosebar/.test(classes))
            found.push(`${child.constructor.name}.${classes}`);
        dosebarActors(child, found);
    }
    return found;
}

function census() {
    const context = GLib.MainContext.default();
    return {
        statusArea: indicator() !== null,
        actors: dosebarActors(global.stage),
        recorded: {sources: recorded.sources.size, connections: recorded.connections.length, monitors: recorded.monitors.length},
        sources: [...recorded.sources].filter(([id]) => context.find_source_by_id(id) !== null).map(([id, how]) => `${how} ${id}`),
        connections: recorded.connections.filter(c => GObject.signal_handler_is_connected(c.object, c.id))
            .map(c => `${c.object.constructor.name}::${c.signal}`),
        monitors: recorded.monitors.filter(m => !m.is_cancelled()).length,
        extensionState: Main.extensionManager.lookup(UUID)?.state ?? null,
        // Which extension was enabled first (private; for a failure's message).
        order: Main.extensionManager._extensionOrder ?? null,
    };
}

function handle(cmd, done) {
    switch (cmd.op) {
    case 'state': return done(state());
    case 'screenshot': return screenshot(cmd.path, done);
    case 'click': return click(cmd.x, cmd.y, done);
    case 'record': record(); return done({});
    case 'disable': Main.extensionManager.disableExtension(UUID); return done(census());
    case 'enable': Main.extensionManager.enableExtension(UUID); return done({});
    case 'census': return done(census());
    case 'overview': Main.overview.hide(); return done({visible: Main.overview.visible});
    case 'last':
        // Enabled again only once the disable has settled: GNOME 45+ handle the
        // setting's change asynchronously, and an enable that comes before the
        // disable is done is lost (the helper would stay off).
        GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
            Main.extensionManager.disableExtension(HELPER_UUID);
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, 300, () => {
                Main.extensionManager.enableExtension(HELPER_UUID);
                return GLib.SOURCE_REMOVE;
            });
            return GLib.SOURCE_REMOVE;
        });
        return done({});
    default: return done({error: `unknown op ${cmd.op}`});
    }
}

function poll(channel) {
    const cmdPath = GLib.build_filenamev([channel, 'cmd']);
    if (!GLib.file_test(cmdPath, GLib.FileTest.EXISTS))
        return;
    let cmd;
    try {
        cmd = JSON.parse(new TextDecoder().decode(GLib.file_get_contents(cmdPath)[1]));
    } catch (e) {
        return; // half written: next time
    }
    GLib.unlink(cmdPath);
    const reply = extra => {
        // Written to a temporary file and renamed: the test never reads half of it.
        GLib.file_set_contents(GLib.build_filenamev([channel, 'reply']),
            JSON.stringify({id: cmd.id, ok: !extra.error, ...extra}));
    };
    try {
        handle(cmd, reply);
    } catch (e) {
        reply({error: `${e.message}\n${e.stack}`});
    }
}

// @legacy-begin
function init() {
}
// @legacy-end

function enable() {
    const channel = GLib.getenv('DOSEBAR_TEST_CHANNEL');
    if (!channel)
        return;
    pollId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, POLL_MS, () => {
        poll(channel);
        return GLib.SOURCE_CONTINUE;
    });
    if (recording)
        record();
}

function disable() {
    if (pollId)
        GLib.source_remove(pollId);
    pollId = 0;
    restore.reverse().forEach(f => f());
    restore = [];
    pointer = null;
}
