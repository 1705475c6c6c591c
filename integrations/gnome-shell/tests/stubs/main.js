// Stand-in for resource:///org/gnome/shell/ui/main.js in the extension test.
export const notifications = [];

export const panel = {
    statusArea: {},
    addToStatusArea(role, indicator) {
        if (this.statusArea[role] && !this.statusArea[role].destroyed)
            throw new Error(`Extension point conflict: there is already a status indicator for role ${role}`);
        this.statusArea[role] = indicator;
        return indicator;
    },
};

export function notifyError(title, body) {
    notifications.push({title, body});
}
