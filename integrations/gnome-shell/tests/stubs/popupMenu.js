// Stand-in for resource:///org/gnome/shell/ui/popupMenu.js in the extension test.
import St from './St.js';

export class PopupBaseMenuItem extends St.Widget {
    constructor(params = {}) {
        super({style_class: params.style_class});
        this.reactive = params.reactive ?? true;
        this._handlers = new Map();
        this._nextId = 1;
    }

    connect(signal, callback) {
        const id = this._nextId++;
        this._handlers.set(id, {signal, callback});
        return id;
    }

    disconnect(id) {
        this._handlers.delete(id);
    }

    /** What a click does: emits `activate` (only on a reactive item). */
    activate() {
        if (!this.reactive || this.destroyed)
            return false;
        for (const {signal, callback} of [...this._handlers.values()]) {
            if (signal === 'activate')
                callback(this);
        }
        return true;
    }

    destroy() {
        this._handlers.clear();
        super.destroy();
    }
}

export class PopupMenuItem extends PopupBaseMenuItem {
    constructor(text, params = {}) {
        super(params);
        this.label = new St.Label({text});
        this.add_child(this.label);
    }

    /** All the text of the item, its label first. */
    get text() {
        return this.children.map(c => c.text).filter(t => t !== undefined).join(' | ');
    }
}

export class PopupSeparatorMenuItem extends PopupBaseMenuItem {
    constructor() {
        super({reactive: false});
    }
}

export class PopupMenu {
    constructor() {
        this.items = [];
    }

    addMenuItem(item) {
        this.items.push(item);
    }

    removeAll() {
        for (const item of this.items)
            item.destroy();
        this.items = [];
    }

    destroy() {
        this.removeAll();
        this.destroyed = true;
    }
}
