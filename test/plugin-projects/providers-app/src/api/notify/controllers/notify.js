'use strict';

module.exports = ({ strapi }) => ({
  async send(ctx) {
    const { to, subject, text, html, from } = ctx.request.body;
    const info = await strapi.plugin('email').service('email').send({ to, subject, text, html, from });
    // what nodemailer's SMTP transport reports: the recipients the server accepted
    ctx.body = { sent: true, accepted: info.accepted, rejected: info.rejected };
  },
});
