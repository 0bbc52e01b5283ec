// `sort` in every v4 form -> storage orderBy items. Validation follows v4 (@strapi/utils validateSort:
// its tokenizer, its rules and their order, so messages match); conversion follows
// convertSortQueryParams, with its 500s (a bad direction, an empty field, a path through a scalar)
// turned into 400s.
import type { Attribute, ContentType } from '../model/types';
import { ValidationError } from '../errors';
import { isShownCreator, isVisible } from './visibility';
import { nestedSort, sortPaths, type SortReading } from './sort-paths';
import { FirstMistake, invalid, MAX_FILTER_DEPTH, relationTarget, type QueryContext } from './query-context';

/** v4's sort rules in the order it applies them */
enum Rule { Unknown, DynamicZone, Morph, Private, Password, Empty, Restricted }

const isSortOrder = (s: string) => s.toLowerCase() === 'asc' || s.toLowerCase() === 'desc';

/** v4's tokenizer: `author.name:desc` -> author, name, desc */
function tokenize(s: string): string[] {
  return s.split('.').flatMap((p) => p.split(':'));
}

/** what follows the first token, re-joined as v4 does (`name:desc`) */
function recompose(parts: string[]): string | undefined {
  if (parts.length === 0) return undefined;
  return parts.reduce((acc, part) => (!part ? acc : acc === '' ? part : `${acc}${isSortOrder(part) ? ':' : '.'}${part}`), '');
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (typeof v === 'object' && Object.keys(v as object).length === 0);

class SortCheck extends FirstMistake {
  constructor(private readonly ctx: QueryContext) {
    super();
  }

  value(ct: ContentType, sort: unknown, depth: number): void {
    if (depth > MAX_FILTER_DEPTH) throw new ValidationError(`Sort is nested too deeply (more than ${MAX_FILTER_DEPTH} levels)`);
    if (typeof sort === 'string') {
      const parts = sort.split(',');
      if (parts.length > 1) return parts.forEach((p) => this.value(ct, p.trim(), depth + 1));
      const [key, ...rest] = tokenize(sort.trim());
      if (key) this.key(ct, key, recompose(rest), depth);
    } else if (Array.isArray(sort) && (sort.every((s) => typeof s === 'string') || sort.every((s) => typeof s === 'object' && s !== null))) {
      sort.forEach((s) => this.value(ct, s, depth + 1));
    } else if (typeof sort === 'object' && sort !== null) {
      // objects, and arrays mixing strings and objects (v4 reads their indexes as keys: `Invalid parameter 0`)
      for (const [key, v] of Object.entries(sort)) this.key(ct, key, v, depth);
    }
  }

  private key(ct: ContentType, key: string, value: unknown, depth: number): void {
    if (key === 'id') return;
    const attr = ct.attributes[key];
    if (!attr) return this.report(Rule.Unknown, `Invalid parameter ${key}`);
    const bad = `Invalid parameter ${key}`;
    if (attr.kind === 'dynamiczone') this.report(Rule.DynamicZone, bad);
    const morph = attr.kind === 'relation' && attr.relation.startsWith('morph');
    if (morph) this.report(Rule.Morph, bad);
    if (!isVisible(attr, this.ctx.visibility)) this.report(Rule.Private, bad);
    if (attr.kind === 'scalar' && attr.type === 'password') this.report(Rule.Password, bad);
    if (attr.kind !== 'scalar' && isEmpty(value)) this.report(Rule.Empty, bad);
    if (attr.kind === 'relation' && !morph && !isShownCreator(ct, attr) && !this.ctx.canRead(attr.target)) this.report(Rule.Restricted, bad);
    const target = attr.kind === 'dynamiczone' || morph ? undefined : relationTarget(this.ctx.model, attr);
    if (target && !isEmpty(value)) this.value(target, value, depth + 1);
  }
}

/** v4's convertSortQueryParams rules and messages, through the one sort normaliser */
export const SORT_PARAMETER: SortReading = { strict: true, fail: (message) => new ValidationError(message) };

/** a path v4 validated can still cross a scalar (`title.x`) or stop at a relation: storage cannot sort on those */
function checkPath(ctx: QueryContext, ct: ContentType, path: string[]): void {
  let current: ContentType | undefined = ct;
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    const last = i === path.length - 1;
    const attr: Attribute | undefined = key === 'id' ? undefined : current?.attributes[key];
    if (key === 'id' && last) return;
    if (!attr || attr.kind === 'dynamiczone') invalid(path.slice(0, i + 1).join('.'));
    if (attr.kind === 'scalar') {
      if (!last) invalid(path.slice(0, i + 2).join('.'));
      return;
    }
    if (last) invalid(path.join('.'));
    current = relationTarget(ctx.model, attr);
  }
}

/**
 * `sort` of a request (or of a populate level) -> storage orderBy items; 400 on any mistake. With `later`,
 * mistakes v4 only finds after validating every parameter (a bad direction) are handed over instead.
 */
export function parseSort(ctx: QueryContext, ct: ContentType, sort: unknown, later?: ValidationError[]): Array<Record<string, unknown>> | undefined {
  if (sort === undefined || sort === null || sort === '') return undefined;
  const check = new SortCheck(ctx);
  check.value(ct, sort, 0);
  check.finish();
  try {
    return convert(ctx, ct, sort);
  } catch (e) {
    if (!later || !(e instanceof ValidationError)) throw e;
    later.push(e);
    return undefined;
  }
}

/**
 * sort items one request level may name: each relation path is a correlated subquery per row (v4 sets no bound;
 * a thousand of them kept the server busy for minutes)
 */
export const MAX_SORT_ITEMS = 32;

function convert(ctx: QueryContext, ct: ContentType, sort: unknown): Array<Record<string, unknown>> | undefined {
  const items = sortPaths(sort, SORT_PARAMETER);
  if (items.length === 0) return undefined;
  if (items.length > MAX_SORT_ITEMS) throw new ValidationError(`Invalid sort: more than ${MAX_SORT_ITEMS} sort fields`);
  return items.map((item) => {
    checkPath(ctx, ct, item.path);
    return nestedSort(item);
  });
}
