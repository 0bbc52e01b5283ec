// Date objects (and other non-plain objects) in the filters of project code are values, as in v4: the core
// service (`strapi.service(uid).find`), `strapi.entityService` and `strapi.query(uid)` cast them by the
// attribute's type as v4's database fields do (date and time: the server's local date and time of the instant;
// datetime and timestamp: the instant; numbers: its epoch milliseconds; strings: its text). Every expected
// result below was recorded on real Strapi 4.26.2 with the same rows, in UTC and in Pacific/Kiritimati (UTC+14).
// The REST door still takes nothing but strings where a value belongs.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProjectCopy, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';

const ALL_TYPES = path.resolve(__dirname, '../../fixtures/all-types');
const UID = 'api::thing.thing';

type Json = any;
let running: RunningApp;
const strapi = () => running.app.strapi as Json;
const service = () => strapi().service(UID);
/** the names of a find's entries (a service page or a list), sorted */
const names = (r: Json) => (Array.isArray(r) ? r : r.results).map((e: Json) => e.name).sort().join(',');

/** runs `fn` with the process in time zone `tz` (Node reads TZ again when it changes) */
async function inTimeZone<T>(tz: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = tz;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

beforeAll(async () => {
  running = await startProjectCopy(ALL_TYPES);
  const q = strapi().query(UID);
  await q.create({ data: { name: 'one', day: '2024-03-11', at: '10:00:00.000', when: '2024-03-10T20:00:00.000Z', stamp: '2024-03-10T20:00:00.000Z', count: 5 } });
  await q.create({ data: { name: 'two', day: '2024-03-12', at: '11:00:00.000', when: '2024-03-12T20:00:00.000Z', stamp: '2024-03-12T20:00:00.000Z', count: 7 } });
});
afterAll(async () => {
  await running?.stop();
});

const D = new Date('2024-03-11T12:00:00.000Z');

describe('in UTC', () => {
  it('the core service casts a Date by the attribute type (no filter lost, no 400)', async () => {
    await inTimeZone('UTC', async () => {
      const find = async (filters: Json) => names(await service().find({ filters }));
      expect(await find({ day: D })).toBe('one');
      expect(await find({ day: { $lt: D } })).toBe('');
      expect(await find({ day: { $gte: D } })).toBe('one,two');
      expect(await find({ at: new Date('2024-01-01T10:00:00.000Z') })).toBe('one');
      expect(await find({ when: { $lt: D } })).toBe('one');
      expect(await find({ when: new Date('2024-03-10T20:00:00.000Z') })).toBe('one');
      expect(await find({ stamp: { $lt: D } })).toBe('one');
      expect(await find({ stamp: { $in: [new Date('2024-03-12T20:00:00.000Z')] } })).toBe('two');
      expect(await find({ when: { $between: [new Date('2024-03-01T00:00:00.000Z'), D] } })).toBe('one');
      expect(await find({ $or: [{ when: { $gt: D } }, { day: { $eq: new Date('2024-03-11T00:00:00.000Z') } }] })).toBe('one,two');
      expect(await find({ $not: { when: { $gte: D } } })).toBe('one');
      // numbers compare with the epoch milliseconds, strings with the Date's text (v4's NumberField / StringField)
      expect(await find({ count: { $lt: new Date(6) } })).toBe('one');
      expect(await find({ name: new Date(6) })).toBe('');
      expect(await find({ name: { $contains: new Date(6) } })).toBe('');
    });
  });

  it('other non-plain objects are values too (their primitive value), as in v4', async () => {
    // eslint-disable-next-line no-new-wrappers
    expect(names(await service().find({ filters: { name: new String('two') } }))).toBe('two');
    // eslint-disable-next-line no-new-wrappers
    expect(names(await service().find({ filters: { count: { $gt: new Number(6) } } }))).toBe('two');
  });

  it('strapi.entityService and strapi.query take Dates in filters and where', async () => {
    await inTimeZone('UTC', async () => {
      expect(names(await strapi().entityService.findMany(UID, { filters: { when: { $gt: D } } }))).toBe('two');
      expect(names(await strapi().entityService.findMany(UID, { filters: { day: D } }))).toBe('one');
      expect(await strapi().entityService.count(UID, { filters: { stamp: { $lte: D } } })).toBe(1);
      expect(names(await strapi().query(UID).findMany({ where: { when: { $lt: D } } }))).toBe('one');
      expect(names(await strapi().query(UID).findMany({ where: { day: { $lte: D } } }))).toBe('one');
      expect(names(await strapi().query(UID).findMany({ where: { at: { $lt: new Date('2024-01-01T10:30:00.000Z') } } }))).toBe('one');
      expect(names(await strapi().query(UID).findMany({ where: { stamp: new Date('2024-03-12T20:00:00.000Z') } }))).toBe('two');
    });
  });

  it('an invalid Date is a 400-class ValidationError, not an unfiltered answer', async () => {
    await expect(service().find({ filters: { when: { $lt: new Date('nope') } } })).rejects.toMatchObject({ name: 'ValidationError' });
  });
});

describe('in a time zone far from UTC (Pacific/Kiritimati, UTC+14)', () => {
  it('date and time attributes take the local date and time of a Date, in filters and writes (v4: date-fns format)', async () => {
    await inTimeZone('Pacific/Kiritimati', async () => {
      const instant = new Date('2024-03-10T20:00:00.000Z'); // 2024-03-11 10:00 local
      expect(names(await service().find({ filters: { day: instant } }))).toBe('one');
      expect(names(await service().find({ filters: { at: instant } }))).toBe('one');
      expect(names(await strapi().query(UID).findMany({ where: { day: instant } }))).toBe('one');
      // PostgreSQL keeps a datetime as the wall time of the zone it was written in (as v4 does there): the row was
      // written under UTC, so under another zone it means another instant
      if (!onPostgres) expect(names(await service().find({ filters: { when: instant } }))).toBe('one');
      const written = { day: instant, at: new Date('2024-03-10T21:30:00.000Z'), when: instant };
      const viaEntityService = await strapi().entityService.create(UID, { data: { name: 'three', ...written } });
      const viaQuery = await strapi().query(UID).create({ data: { name: 'four', ...written } });
      try {
        // a time reads back without zero milliseconds on PostgreSQL, as v4 answers there
        for (const e of [viaEntityService, viaQuery]) expect({ day: e.day, at: e.at, when: e.when }).toEqual({ day: '2024-03-11', at: onPostgres ? '11:30:00' : '11:30:00.000', when: '2024-03-10T20:00:00.000Z' });
      } finally {
        await strapi().query(UID).deleteMany({ where: { id: { $in: [viaEntityService.id, viaQuery.id] } } });
      }
    });
  });
});

describe('the REST door', () => {
  const get = async (query: string) => {
    const res = await fetch(`${running.url}/api/things?${query}`);
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('still filters by date strings', async () => {
    const r = await get('filters[when][$lt]=2024-03-11T12:00:00.000Z&filters[day][$lte]=2024-03-11');
    expect(r.status).toBe(200);
    expect(r.body.data.map((e: Json) => e.attributes.name)).toEqual(['one']);
  });

  it('still rejects an object where a value belongs', async () => {
    for (const q of ['filters[when][$lt][foo]=1', 'filters[day][$eq][x]=2024-03-11', 'filters[count][$in][0][a]=1', 'filters[name][$between][0][b]=a&filters[name][$between][1]=b']) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(r.body.error.name, q).toBe('ValidationError');
    }
  });
});
