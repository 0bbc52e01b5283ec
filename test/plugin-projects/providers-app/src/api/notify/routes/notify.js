'use strict';

// POST /api/notify: project code sending through the email plugin's service (open to everyone: a test route)
module.exports = {
  routes: [
    {
      method: 'POST',
      path: '/notify',
      handler: 'notify.send',
      config: { auth: false },
    },
  ],
};
