// Stand-in for gi://Adw in the preferences test: containers that keep what is
// added, and an EntryRow with a real GObject `text` property (for settings.bind).
import GObject from 'gi://GObject';

class Container {
    constructor(params = {}) {
        Object.assign(this, params);
        this.children = [];
    }

    add(child) {
        this.children.push(child);
    }
}

export class PreferencesWindow extends Container {}
export class PreferencesPage extends Container {}
export class PreferencesGroup extends Container {}

export const EntryRow = GObject.registerClass({
    Properties: {
        text: GObject.ParamSpec.string('text', 'Text', 'The entry text', GObject.ParamFlags.READWRITE, ''),
        title: GObject.ParamSpec.string('title', 'Title', 'The row title', GObject.ParamFlags.READWRITE, ''),
    },
}, class EntryRow extends GObject.Object {});

export default {PreferencesWindow, PreferencesPage, PreferencesGroup, EntryRow};
