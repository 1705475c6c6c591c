// Stand-in for resource:///org/gnome/shell/extensions/extension.js in the
// extension test: metadata, uuid and getSettings() from the extension's own
// compiled schemas (run with GSETTINGS_BACKEND=memory).
import Gio from 'gi://Gio';

export class Extension {
    constructor(metadata) {
        this.metadata = metadata;
        this.uuid = metadata.uuid;
        this.path = metadata.path;
        this.preferencesOpened = 0;
    }

    getSettings() {
        const source = Gio.SettingsSchemaSource.new_from_directory(
            `${this.path}/schemas`, Gio.SettingsSchemaSource.get_default(), false);
        const schema = source.lookup(this.metadata['settings-schema'], false);
        if (!schema)
            throw new Error(`schema ${this.metadata['settings-schema']} not found in ${this.path}/schemas`);
        return new Gio.Settings({settings_schema: schema});
    }

    openPreferences() {
        this.preferencesOpened++;
    }
}
