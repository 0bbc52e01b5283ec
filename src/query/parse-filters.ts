// `filters` -> a storage where tree, as v4 validates and converts it (@strapi/utils validateFilters and
// convertFiltersQueryParams, @strapi/database processWhere), with v4's 500s turned into 400s and two
// deliberate differences: an unknown operator is a 400 at every level (v4 ignores one below an
// attribute and returns unfiltered rows), and every size is bounded (QueryLimits).
//
// v4 validates the whole tree once per rule (unknown keys, then dynamic zones, morph relations,
// passwords, private attributes, relations the caller may not read) before converting it, so with
// several mistakes the first rule decides the message. One walk here records the first mistake of each
// rule and reports the same one.
import type { Attribute, ContentType, ScalarAttribute } from '../model/types';
import { ValidationError } from '../errors';
import { ID_ATTR, isPlainObject } from '../storage/compile-where';
import { OPERATOR_SET, type Where } from './types';
import { castFilterValue } from './cast-filter-value';
import { isShownCreator, isVisible } from './visibility';
import { FirstMistake, isObject, MAX_FILTER_DEPTH, relationTarget, type QueryContext } from './query-context';

/** v4's rules in the order it applies them; CONVERSION covers what v4 finds later (or fails on with a 500) */
enum Rule { Unknown, DynamicZone, Morph, Password, Private, Restricted, Conversion }

const JOINS = new Set(['$and', '$or', '$not']);

/** qs turns arrays longer than `arrayLimit` into objects with numeric keys: read those as the list */
function listOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return Object.values(v);
  }
  return undefined;
}

class FilterWalk extends FirstMistake {
  private conditions = 0;
  private readonly maxDepth: number;

  constructor(private readonly ctx: QueryContext) {
    super();
    this.maxDepth = ctx.limits?.filterDepth ?? MAX_FILTER_DEPTH;
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) throw new ValidationError(`Filters are nested too deeply (more than ${this.maxDepth} levels)`);
  }

  private count(): void {
    const max = this.ctx.limits?.filterConditions;
    if (max !== undefined && ++this.conditions > max) throw new ValidationError(`Too many filter conditions (more than ${max})`);
  }

  private checkLength(list: unknown[], key: string): void {
    const max = this.ctx.limits?.listLength;
    if (max !== undefined && list.length > max) throw new ValidationError(`Too many values for ${key} (more than ${max})`);
  }

  /** an entity-level where: attributes of `ct`, `id`, `$and` `$or` `$not` */
  entity(ct: ContentType, value: unknown, depth: number): Where {
    this.enter(depth);
    if (Array.isArray(value)) return { $and: value.map((v) => this.entity(ct, v, depth + 1)) };
    if (!isPlainObject(value)) {
      this.report(Rule.Conversion, 'The filters parameter must be an object or an array');
      return {};
    }
    const out: Where = {};
    for (const [key, v] of Object.entries(value)) {
      if (key === '$and' || key === '$or') {
        const items = v === null ? [] : listOf(v) ?? [v];
        // bounded like any operator's list: empty items are no condition, so the condition count alone would not stop them
        this.checkLength(items, key);
        out[key] = items.map((item) => this.entity(ct, item, depth + 1));
      } else if (key === '$not') {
        if (v !== null) out.$not = this.entity(ct, v, depth + 1);
      } else if (key.startsWith('$')) {
        if (!OPERATOR_SET.has(key)) this.report(Rule.Unknown, `Invalid parameter ${key}`);
        // an attribute operator where attributes are expected (v4: a 500, after validating what is inside)
        this.report(Rule.Conversion, `Invalid parameter ${key}`);
        if (isObject(v)) this.entity(ct, v, depth + 1);
      } else if (key === 'id') {
        out.id = this.scalar(ID_ATTR, v, depth + 1);
      } else {
        const attr = ct.attributes[key];
        if (!attr) this.report(Rule.Unknown, `Invalid parameter ${key}`);
        else if (this.allowed(ct, attr)) out[key] = attr.kind === 'scalar' ? this.scalar(attr, v, depth + 1) : this.relation(attr, v, depth + 1);
      }
    }
    return out;
  }

  /** v4's rules for naming an attribute; false when it cannot be walked into at all */
  private allowed(ct: ContentType, attr: Attribute): boolean {
    const bad = `Invalid parameter ${attr.name}`;
    if (attr.kind === 'dynamiczone') {
      this.report(Rule.DynamicZone, bad);
      return false;
    }
    if (attr.kind === 'relation' && attr.relation.startsWith('morph')) {
      this.report(Rule.Morph, bad);
      return false;
    }
    if (attr.kind === 'scalar' && attr.type === 'password') this.report(Rule.Password, bad);
    if (!isVisible(attr, this.ctx.visibility)) this.report(Rule.Private, bad);
    if (attr.kind === 'relation' && !isShownCreator(ct, attr) && !this.ctx.canRead(attr.target)) this.report(Rule.Restricted, bad);
    return true;
  }

  /** the value given to a relation, component or media attribute */
  private relation(attr: Attribute, value: unknown, depth: number): Where {
    this.enter(depth);
    this.count();
    const target = relationTarget(this.ctx.model, attr)!;
    // `filters[author]=3`, `filters[author][$in][0]=3`, `filters[author][$null]=true`: the target's id
    if (!isPlainObject(value) || listOf(value)) return { id: this.scalar(ID_ATTR, value, depth + 1) };
    const keys = Object.keys(value);
    if (!keys.every((k) => OPERATOR_SET.has(k) || JOINS.has(k))) return this.entity(target, value, depth + 1);
    const out: Where = {};
    const idOps: Record<string, unknown> = {};
    for (const [op, v] of Object.entries(value)) {
      if (op === '$not' && !isPlainObject(v)) idOps.$not = v;
      else if (JOINS.has(op)) Object.assign(out, this.entity(target, { [op]: v }, depth + 1));
      else idOps[op] = v;
    }
    if (Object.keys(idOps).length) out.id = this.scalar(ID_ATTR, idOps, depth + 1);
    return out;
  }

  /** the value given to a scalar attribute (or `id`) */
  private scalar(attr: ScalarAttribute, value: unknown, depth: number): unknown {
    this.enter(depth);
    const list = listOf(value);
    if (list) {
      this.count();
      this.checkLength(list, attr.name);
      return { $in: list.map((x) => this.cast(attr, '$eq', x)) };
    }
    // a Date (or another non-plain object) from project code is a value, as in v4, not an operator map
    if (!isPlainObject(value)) {
      this.count();
      return this.cast(attr, '$eq', value);
    }
    const out: Record<string, unknown> = {};
    for (const [op, v] of Object.entries(value)) {
      if (op === '$not') out.$not = this.scalar(attr, v, depth + 1);
      else if (op === '$and' || op === '$or') {
        const items = listOf(v) ?? [v];
        this.checkLength(items, op);
        out[op] = items.map((x) => this.scalar(attr, x, depth + 1));
      }
      else if (OPERATOR_SET.has(op)) out[op] = this.operand(attr, op, v);
      else this.report(Rule.Conversion, `Invalid parameter ${op}`); // v4 drops an unknown operator here, unfiltering
    }
    return out;
  }

  private operand(attr: ScalarAttribute, op: string, value: unknown): unknown {
    this.count();
    if (op === '$null' || op === '$notNull') return this.cast(attr, op, value);
    const list = op === '$in' || op === '$notIn' ? (value === null ? [null] : listOf(value) ?? [value]) : listOf(value);
    if (op === '$between' && list?.length !== 2) {
      this.report(Rule.Conversion, `${op} on ${attr.name} expects a list of two values`);
      return [];
    }
    if (list) {
      this.checkLength(list, op);
      return list.map((x) => this.cast(attr, op, x));
    }
    return this.cast(attr, op, value);
  }

  private cast(attr: ScalarAttribute, op: string, value: unknown): unknown {
    if (isPlainObject(value) && op !== '$null' && op !== '$notNull') {
      const [first] = Object.keys(value);
      this.report(Rule.Conversion, `Invalid parameter ${first ?? op}`);
      return null;
    }
    try {
      return castFilterValue(attr, op, value);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      this.report(Rule.Conversion, e.message);
      return null;
    }
  }
}

/**
 * `filters` of a request (or of a populate level) -> the storage where; 400 on any mistake. With `later`,
 * mistakes v4 only finds after validating every parameter (values, misplaced operators) are handed over
 * instead of thrown, so the request reports the same mistake first as v4 does.
 */
export function parseFilters(ctx: QueryContext, ct: ContentType, filters: unknown, later?: ValidationError[]): Where | undefined {
  if (filters === undefined || filters === null || filters === '') return undefined;
  const walk = new FilterWalk(ctx);
  const where = walk.entity(ct, filters, 0);
  walk.finish(later, Rule.Conversion);
  return where;
}
