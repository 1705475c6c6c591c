// Preferences of the dosebar extension (GNOME 45+, libadwaita): where dosebar
// writes its shared directory and which dosebar program the menu runs. Both are
// GSettings keys of org.gnome.shell.extensions.dosebar, bound to the entries.
import Adw from 'gi://Adw';
import Gio from 'gi://Gio';

import {ExtensionPreferences} from 'resource:///org/gnome/Shell/Extensions/js/extensions/prefs.js';

export default class DosebarPreferences extends ExtensionPreferences {
    fillPreferencesWindow(window) {
        const settings = this.getSettings();
        const page = new Adw.PreferencesPage({title: 'dosebar', icon_name: 'alarm-symbolic'});
        const group = new Adw.PreferencesGroup({
            title: 'Where dosebar is',
            description: 'Leave a field empty to use what dosebar itself uses.',
        });

        const dir = new Adw.EntryRow({title: 'Shared directory (empty: $XDG_RUNTIME_DIR/dosebar)'});
        settings.bind('shared-dir', dir, 'text', Gio.SettingsBindFlags.DEFAULT);
        group.add(dir);

        const command = new Adw.EntryRow({title: 'dosebar program (empty: on PATH, else ~/.local/bin/dosebar)'});
        settings.bind('command', command, 'text', Gio.SettingsBindFlags.DEFAULT);
        group.add(command);

        page.add(group);
        window.add(page);
        // The bindings live as long as the settings object: keep it with the window.
        window._dosebarSettings = settings;
    }
}
