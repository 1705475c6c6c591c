// Stand-in for gi://Clutter in the extension test: the enums extension.js uses.
export default {ActorAlign: {FILL: 0, START: 1, CENTER: 2, END: 3}};
