// Preferences of the dosebar extension for GNOME Shell 42-44 (the legacy build made
// by build.py; the 45+ one is ../dosebar@dosebar.github.io/prefs.js): the same two
// GSettings keys of org.gnome.shell.extensions.dosebar, each bound to an entry.
// libadwaita 1.1 (GNOME 42) has no Adw.EntryRow, so each is an ActionRow with a
// Gtk.Entry.
const {Adw, Gio, Gtk} = imports.gi;
const ExtensionUtils = imports.misc.extensionUtils;

function init() {
}

function fillPreferencesWindow(window) {
    const settings = ExtensionUtils.getSettings();
    const page = new Adw.PreferencesPage({title: 'dosebar', icon_name: 'alarm-symbolic'});
    const group = new Adw.PreferencesGroup({
        title: 'Where dosebar is',
        description: 'Leave a field empty to use what dosebar itself uses.',
    });
    for (const [key, title] of [
        ['shared-dir', 'Shared directory (empty: $XDG_RUNTIME_DIR/dosebar)'],
        ['command', 'dosebar program (empty: on PATH, else ~/.local/bin/dosebar)'],
    ]) {
        const row = new Adw.ActionRow({title});
        const entry = new Gtk.Entry({valign: Gtk.Align.CENTER, hexpand: true});
        settings.bind(key, entry, 'text', Gio.SettingsBindFlags.DEFAULT);
        row.add_suffix(entry);
        group.add(row);
    }
    page.add(group);
    window.add(page);
    // The bindings live as long as the settings object: keep it with the window.
    window._dosebarSettings = settings;
}
