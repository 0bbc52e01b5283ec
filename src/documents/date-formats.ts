// date/time/datetime input conversion as v4's database layer does it (@strapi/database 4.26.2 fields):
// v4's validator lets any value through for these types; the DB field's toDB() rejects or normalizes it.
import { dbMessages } from './validation-messages';

export type Converted = { ok: true; value: string } | { ok: false; message: string };

const DATE_PREFIX = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/;
// v4's TIME_REGEX: seconds are required; the fraction separator is any character.
const TIME = /^(2[0-3]|[01]\d):([0-5]\d):([0-5]\d)(.\d{1,3})?$/;
// The ISO 8601 forms date-fns parseISO accepts in practice (no week or ordinal dates).
const ISO = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?|(\d{2})(\d{2}))?(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `date`: 'YYYY-MM-DD'; a longer string starting with a date keeps only the date (v4 stores the prefix). */
export function toDate(v: unknown): Converted {
  const m = typeof v === 'string' ? DATE_PREFIX.exec(v) : null;
  if (!m) return { ok: false, message: dbMessages.dateFormat };
  if (Number(m[3]) > daysInMonth(Number(m[1]), Number(m[2]))) return { ok: false, message: dbMessages.date };
  return { ok: true, value: m[0] };
}

/** `time`: 'HH:mm:ss(.SSS)' normalized to 'HH:mm:ss.SSS'. */
export function toTime(v: unknown): Converted {
  if (typeof v !== 'string') return { ok: false, message: dbMessages.timeType(v) };
  const m = TIME.exec(v);
  if (!m) return { ok: false, message: dbMessages.time };
  const fraction = (m[4] ?? '.000').slice(1).padEnd(3, '0');
  return { ok: true, value: `${m[1]}:${m[2]}:${m[3]}.${fraction}` };
}

function parseIso(s: string): Date | undefined {
  const m = ISO.exec(s);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2] ?? m[4] ?? 1);
  const day = Number(m[3] ?? m[5] ?? 1);
  const [h, mi, sec] = [Number(m[6] ?? 0), Number(m[7] ?? 0), Number(m[8] ?? 0)];
  const ms = m[9] ? Math.floor(Number(`0.${m[9]}`) * 1000) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (mi > 59 || sec > 59 || h > 24 || (h === 24 && (mi > 0 || sec > 0 || ms > 0))) return undefined;
  let offset = 0;
  const tz = m[10];
  if (tz && tz !== 'Z') {
    const tzh = Number(tz.slice(1, 3));
    const tzm = Number(tz.slice(3).replace(':', '') || 0);
    if (tzh > 23 || tzm > 59) return undefined;
    offset = (tz[0] === '-' ? -1 : 1) * (tzh * 60 + tzm) * 60_000;
  }
  // No zone given: read as UTC (date-fns reads it in the server's zone; Strapi servers usually run in UTC).
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, mi, sec, ms);
  return new Date(d.getTime() - offset);
}

/** `datetime`/`timestamp`: an ISO date(-time) or a millisecond timestamp; normalized to an ISO string. */
export function toDateTime(v: unknown): Converted {
  const s = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  if (s !== undefined) {
    const d = parseIso(s) ?? (/^-?\d+$/.test(s) ? new Date(Number(s)) : undefined);
    if (d && !Number.isNaN(d.getTime())) return { ok: true, value: d.toISOString() };
  }
  return { ok: false, message: dbMessages.datetime };
}
