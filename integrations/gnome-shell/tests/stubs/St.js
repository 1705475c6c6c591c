// Stand-in for gi://St in the extension test: actors that remember their
// properties, children and style classes, and whether they were destroyed.
export const live = new Set();

export class Widget {
    constructor(params = {}) {
        this.children = [];
        this.styleClasses = new Set(String(params.style_class ?? '').split(/\s+/).filter(Boolean));
        this.destroyed = false;
        const {style_class: _ignored, ...rest} = params;
        Object.assign(this, rest);
        live.add(this);
    }

    add_child(child) {
        this.children.push(child);
    }

    add_style_class_name(name) {
        this.styleClasses.add(name);
    }

    remove_style_class_name(name) {
        this.styleClasses.delete(name);
    }

    destroy() {
        for (const child of this.children)
            child.destroy?.();
        this.children = [];
        this.destroyed = true;
        live.delete(this);
    }
}

export class BoxLayout extends Widget {}
export class Icon extends Widget {}
export class Label extends Widget {}

export default {Widget, BoxLayout, Icon, Label, live};
