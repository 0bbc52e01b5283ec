'use strict';

// Test helpers, the same on real Strapi and Tessera: what the plugins' hooks logged, and a wait until the
// publisher's cron task has run the actions that are due.
module.exports = {
  routes: [
    { method: 'GET', path: '/probe/log', handler: 'probe.log', config: { auth: false } },
    { method: 'GET', path: '/probe/settle', handler: 'probe.settle', config: { auth: false } },
  ],
};
