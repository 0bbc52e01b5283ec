// config/database.js for a project that real Strapi v4 and Tessera serve from one SQLite file at once (the
// adoption path while editors keep v4's admin). Tessera reads the same file and ignores `pool`. The test copies
// this over the fixture app's; docs/reliability.md ("Beside a live Strapi") quotes it.
const path = require('path');

module.exports = ({ env }) => ({
  connection: {
    client: 'sqlite',
    connection: {
      filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')),
    },
    useNullAsDefault: true,
    pool: {
      // knex opens Strapi's transactions with a deferred `BEGIN;`. Strapi's relation writes read first (the
      // next order value), then insert: that upgrade to a write fails AT ONCE with SQLITE_BUSY ("database is
      // locked") when the other process holds the write lock, because SQLite never calls the busy handler for
      // a transaction that already reads; busy_timeout cannot help there. `BEGIN IMMEDIATE` takes the write
      // lock up front, where SQLite does wait (busy_timeout).
      afterCreate(conn, done) {
        conn.pragma('journal_mode = WAL'); // readers never block the writer (Tessera sets it too; it stays in the file)
        conn.pragma('busy_timeout = 10000'); // wait up to 10 s for the other side's write lock (better-sqlite3's default: 5 s)
        const prepare = conn.prepare.bind(conn);
        conn.prepare = (sql) => prepare(sql === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : sql);
        done(null, conn);
      },
    },
  },
});
