// dosebar for GNOME Shell 45+: a panel indicator (icon + text) with a menu of
// today's doses (after the earlier days' still open, with their day), a "Taken"
// item per due or late dose, a line per as-needed medicine, a "Take all due" item
// and the strip of the last 7 days.
//
// It reads timeline.json (schema 3, or 2 or 1 from an older dosebar) from dosebar's
// shared directory and picks and expands the entry in force itself (logic.js),
// so it stays right between writes and without the daemon. It watches the
// directory (not the file: dosebar replaces files by renaming) with a
// Gio.FileMonitor, reads only asynchronously, runs dosebar with Gio.Subprocess,
// and releases every source, monitor and signal in disable().
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

const TIMELINE = 'timeline.json';
// Coalesces the events of one write (create, change, rename) into one read.
const DEBOUNCE_MS = 100;
// Re-checks the clock at least this often, so a suspend or a clock change is
// noticed within a minute (the render itself is pure computation).
const MAX_TICK_MS = 60 * 1000;

/** The shared directory: the setting, else the rule dosebar itself follows. */
function sharedDir(settings) {
    const configured = settings.get_string('shared-dir').trim();
    if (configured)
        return configured.replace(/^~(?=$|\/)/, GLib.get_home_dir());
    const env = GLib.getenv('DOSEBAR_DIR');
    if (env)
        return env;
    const runtime = GLib.getenv('XDG_RUNTIME_DIR');
    if (runtime)
        return GLib.build_filenamev([runtime, 'dosebar']);
    return GLib.build_filenamev([GLib.get_user_state_dir(), 'dosebar', 'shared']);
}

/** The dosebar program: the setting, else on PATH, else ~/.local/bin/dosebar. */
function dosebarCommand(settings) {
    const configured = settings.get_string('command').trim();
    if (configured)
        return configured.replace(/^~(?=$|\/)/, GLib.get_home_dir());
    return GLib.find_program_in_path('dosebar') ??
        GLib.build_filenamev([GLib.get_home_dir(), '.local', 'bin', 'dosebar']);
}

const DosebarIndicator = GObject.registerClass(
class DosebarIndicator extends PanelMenu.Button {
    _init(openPreferences) {
        super._init(0.5, 'dosebar');
        this._openPreferences = openPreferences;
        const box = new St.BoxLayout({style_class: 'panel-status-menu-box'});
        this._icon = new St.Icon({icon_name: 'alarm-symbolic', style_class: 'system-status-icon dosebar-icon'});
        this._label = new St.Label({text: 'dosebar', y_align: Clutter.ActorAlign.CENTER, style_class: 'dosebar-label'});
        box.add_child(this._icon);
        box.add_child(this._label);
        this.add_child(box);
        this._styleClass = null;
    }

    /** Shows a view of logic.buildView; `run` runs an argv. */
    showView(view, words, run) {
        this._icon.icon_name = view.iconName;
        this._label.text = view.label;
        if (this._styleClass)
            this.remove_style_class_name(this._styleClass);
        this._styleClass = view.styleClass;
        this.add_style_class_name(view.styleClass);

        // Items are destroyed with their signal handlers by removeAll().
        this.menu.removeAll();
        if (view.message) {
            this.menu.addMenuItem(new PopupMenu.PopupMenuItem(view.message, {
                reactive: false, style_class: `dosebar-message dosebar-message-${view.severity}`,
            }));
            this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        }
        for (const item of view.items) {
            if (item.kind === 'dose') {
                const row = new PopupMenu.PopupMenuItem(item.text, {reactive: item.action !== null});
                row.label.add_style_class_name(`dosebar-dose-${item.status}`);
                if (item.action) {
                    row.add_child(new St.Label({
                        text: item.action.label, style_class: 'dosebar-take',
                        x_expand: true, x_align: Clutter.ActorAlign.END, y_align: Clutter.ActorAlign.CENTER,
                    }));
                    row.connect('activate', () => run(item.action.argv));
                }
                this.menu.addMenuItem(row);
            } else if (item.kind === 'asNeeded') {
                const row = new PopupMenu.PopupMenuItem(item.text, {reactive: false});
                row.label.add_style_class_name('dosebar-as-needed');
                this.menu.addMenuItem(row);
            } else if (item.kind === 'cycle') {
                const row = new PopupMenu.PopupMenuItem(item.text, {reactive: false});
                row.label.add_style_class_name('dosebar-cycle');
                this.menu.addMenuItem(row);
            } else if (item.kind === 'week') {
                this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
                const row = new PopupMenu.PopupMenuItem(item.text, {reactive: false});
                row.label.add_style_class_name('dosebar-week');
                this.menu.addMenuItem(row);
            } else if (item.kind === 'takeAll') {
                this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
                const all = new PopupMenu.PopupMenuItem(item.label);
                all.connect('activate', () => run(item.argv));
                this.menu.addMenuItem(all);
            } else {
                this.menu.addMenuItem(new PopupMenu.PopupMenuItem(item.text, {reactive: false}));
            }
        }
        this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const prefs = new PopupMenu.PopupMenuItem(words.settings);
        prefs.connect('activate', () => this._openPreferences());
        this.menu.addMenuItem(prefs);
    }
});

export default class DosebarExtension extends Extension {
    enable() {
        this._settings = this.getSettings();
        this._cancellable = new Gio.Cancellable();
        this._lang = Logic.languageFor(GLib.get_language_names()[0]);
        this._loaded = null;
        this._generation = 0;
        this._monitor = null;
        this._monitorId = 0;
        this._loadId = 0;
        this._tickId = 0;
        this._restartId = 0;
        this._exportTriedFor = null;

        this._indicator = new DosebarIndicator(() => this.openPreferences());
        Main.panel.addToStatusArea(this.uuid, this._indicator);
        // Typing a path fires one change per key: settle first.
        this._settingsId = this._settings.connect('changed', () => {
            if (this._restartId)
                GLib.source_remove(this._restartId);
            this._restartId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 500, () => {
                this._restartId = 0;
                this._start();
                return GLib.SOURCE_REMOVE;
            });
        });
        this._start();
    }

    disable() {
        this._settings.disconnect(this._settingsId);
        this._stopWatching();
        // Each main-loop source removed by name (a reviewer, and shexli, must see each one go).
        if (this._loadId) {
            GLib.source_remove(this._loadId);
            this._loadId = 0;
        }
        if (this._tickId) {
            GLib.source_remove(this._tickId);
            this._tickId = 0;
        }
        if (this._restartId) {
            GLib.source_remove(this._restartId);
            this._restartId = 0;
        }
        this._cancellable.cancel();
        this._indicator.destroy();
        this._indicator = null;
        this._cancellable = null;
        this._settings = null;
        this._loaded = null;
    }

    /** (Re)reads the settings, watches the directory and loads the timeline. */
    _start() {
        this._stopWatching();
        this._dir = sharedDir(this._settings);
        this._command = dosebarCommand(this._settings);
        this._explicitDir = this._settings.get_string('shared-dir').trim() !== '';
        try {
            this._monitor = Gio.File.new_for_path(this._dir)
                .monitor_directory(Gio.FileMonitorFlags.WATCH_MOVES, null);
            this._monitorId = this._monitor.connect('changed', (_monitor, file, other) => {
                if (file?.get_basename() === TIMELINE || other?.get_basename() === TIMELINE)
                    this._scheduleLoad();
            });
        } catch (e) {
            console.warn(`dosebar: cannot watch ${this._dir}: ${e.message}`);
        }
        this._load();
    }

    _stopWatching() {
        if (this._monitor) {
            this._monitor.disconnect(this._monitorId);
            this._monitor.cancel();
        }
        this._monitor = null;
        this._monitorId = 0;
    }

    _scheduleLoad() {
        if (this._loadId)
            return;
        this._loadId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, DEBOUNCE_MS, () => {
            this._loadId = 0;
            this._load();
            return GLib.SOURCE_REMOVE;
        });
    }

    /** Reads timeline.json asynchronously; a newer read wins over an older one. */
    _load() {
        const generation = ++this._generation;
        const file = Gio.File.new_for_path(GLib.build_filenamev([this._dir, TIMELINE]));
        file.load_contents_async(this._cancellable, (source, result) => {
            let loaded;
            try {
                const [, bytes] = source.load_contents_finish(result);
                loaded = Logic.parseTimeline(new TextDecoder().decode(bytes));
            } catch (e) {
                if (e.matches?.(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                    return;
                loaded = e.matches?.(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_FOUND) ? null : {error: e.message};
            }
            if (generation !== this._generation || !this._indicator)
                return;
            this._loaded = loaded;
            this._render();
        });
    }

    /** The instant (ms since the epoch) and the local day; tests replace it. */
    _clock() {
        return {now: Date.now(), today: GLib.DateTime.new_now_local().format('%Y-%m-%d')};
    }

    /** Shows the entry in force now and sets a timer for the next change. */
    _render() {
        if (!this._indicator)
            return;
        const {now, today} = this._clock();
        const view = Logic.buildView(this._loaded, now, {
            today, command: this._command, dir: this._explicitDir ? this._dir : '', lang: this._lang,
        });
        const words = Logic.WORDS[this._lang];
        this._indicator.showView(view, words, argv => this._run(argv));

        // No file, or yesterday's, and no daemon: have dosebar write today's, once a day.
        if ((view.state === 'stale' || this._loaded === null) && this._exportTriedFor !== today) {
            this._exportTriedFor = today;
            const argv = [this._command, 'export'];
            if (this._explicitDir)
                argv.push('--dir', this._dir);
            this._run(argv);
        }

        if (this._tickId)
            GLib.source_remove(this._tickId);
        const until = this._loaded?.timeline ? Logic.msUntilNextChange(this._loaded.timeline, now) : null;
        this._tickId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, Math.min(until ?? MAX_TICK_MS, MAX_TICK_MS), () => {
            this._tickId = 0;
            this._render();
            return GLib.SOURCE_REMOVE;
        });
    }

    /** Runs dosebar without waiting for it; says so when it fails. */
    _run(argv) {
        let proc;
        try {
            proc = Gio.Subprocess.new(argv, Gio.SubprocessFlags.STDOUT_SILENCE | Gio.SubprocessFlags.STDERR_PIPE);
        } catch (e) {
            Main.notifyError('dosebar', `${argv[0]}: ${e.message}`);
            return;
        }
        proc.communicate_utf8_async(null, this._cancellable, (p, result) => {
            try {
                const [, , stderr] = p.communicate_utf8_finish(result);
                if (!p.get_successful())
                    Main.notifyError('dosebar', stderr?.trim() || `${argv.join(' ')} failed`);
            } catch (e) {
                if (!e.matches?.(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                    console.warn(`dosebar: ${e.message}`);
                return;
            }
            // The monitor sees the new file; read anyway in case the directory is elsewhere.
            if (this._indicator)
                this._scheduleLoad();
        });
    }
}
