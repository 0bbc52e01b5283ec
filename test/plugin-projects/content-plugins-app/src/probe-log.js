'use strict';

// What the plugins handed project code (the publisher's hooks, the events on strapi.eventHub), in order, for
// GET /api/probe/log. On globalThis so config/plugins.js and src/ share it however they are loaded.
const KEY = Symbol.for('content-plugins-app.probe-log');
const entries = () => (globalThis[KEY] ??= []);

module.exports = {
  add(name, data) {
    entries().push({ name, ...data });
  },
  entries,
  clear() {
    entries().length = 0;
  },
};
