// Stand-in for resource:///org/gnome/Shell/Extensions/js/extensions/prefs.js in
// the preferences test: getSettings() from the extension's compiled schemas.
import Gio from 'gi://Gio';

export class ExtensionPreferences {
    constructor(metadata) {
        this.metadata = metadata;
        this.path = metadata.path;
    }

    getSettings() {
        const source = Gio.SettingsSchemaSource.new_from_directory(
            `${this.path}/schemas`, Gio.SettingsSchemaSource.get_default(), false);
        return new Gio.Settings({settings_schema: source.lookup(this.metadata['settings-schema'], false)});
    }
}
