'use strict';

const probe = require('../../../probe-log');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = {
  async log(ctx) {
    ctx.body = { entries: probe.entries() };
  },

  // waits (at most 10 s) until `due` scheduled actions (executeAt passed) are left, then a little more so the
  // last one's unawaited delete and hooks are done; answers how many are left
  async settle(ctx) {
    const want = Number(ctx.query.due ?? 0);
    const actions = strapi.query('plugin::publisher.action');
    const due = () => actions.count({ where: { executeAt: { $lte: new Date() } } });
    const until = Date.now() + 10000;
    let left = await due();
    while (left > want && Date.now() < until) {
      await sleep(100);
      left = await due();
    }
    await sleep(300);
    ctx.body = { due: await due() };
  },
};
