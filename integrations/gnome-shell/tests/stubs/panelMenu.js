// Stand-in for resource:///org/gnome/shell/ui/panelMenu.js in the extension
// test: a real GObject class (extension.js registers a subclass of it) with
// St-like children, style classes and a popup menu.
import GObject from 'gi://GObject';
import St from './St.js';
import {PopupMenu} from './popupMenu.js';

export const Button = GObject.registerClass(
class Button extends GObject.Object {
    _init(_menuAlignment, nameText) {
        super._init();
        this.name = nameText;
        this.menu = new PopupMenu();
        this.box = new St.Widget();
        this.destroyed = false;
    }

    add_child(child) {
        this.box.add_child(child);
    }

    add_style_class_name(name) {
        this.box.add_style_class_name(name);
    }

    remove_style_class_name(name) {
        this.box.remove_style_class_name(name);
    }

    destroy() {
        this.menu.destroy();
        this.box.destroy();
        this.destroyed = true;
    }
});
