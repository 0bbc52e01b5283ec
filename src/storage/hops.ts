// One hop from an entity table to the rows an attribute points at (relation, component, media):
// the FROM clause and the condition tying it to its parent. Filters, sorts and population all use it.
import type { Attribute, ContentType, Model } from '../model/types';
import { COMPONENT_LINK, MEDIA_MORPH_TABLE } from '../model/names';
import type { SqlBuilder } from './sql-builder';
import { isMediaMorph } from './media-morph';

export interface Hop {
  target: ContentType;
  /** alias of the target table */
  alias: string;
  /** alias of the link table (the parent table itself for a foreign-key column) */
  linkAlias: string;
  /** `FROM <link> l JOIN <target> a ON ...` */
  from: string;
  /**
   * condition relating the link rows to a parent: `match` receives the parent-id column of the link (and may
   * answer '': any parent; the result is then the link's own conditions, possibly '').
   * `byParent`: `match` selects a few parents (population, correlated sorts), so the other link columns
   * are written `+col` to keep SQLite on the parent-id index: without statistics it prefers the
   * `component_type` index and reads every component of the type (bench/README.md, finding 1).
   */
  link(match: (parentExpr: string) => string, byParent?: boolean): string;
  /** shorthand: the link rows of the parent whose id is `parentIdExpr` (by parent) */
  on(parentIdExpr: string): string;
  /** expression of the parent id in the link row (for batched population) */
  parentExpr: string;
  /** ordering of targets within one parent */
  orderExpr: string | null;
  /** extra columns selected for population (polymorphic links: their order and link id) */
  extra: string[];
}

export class HopError extends Error {}

/**
 * `filter` binds its parameters when called, so placeholders stay in text order; `pin` is `dialect.skipIndex` or
 * ''; it answers '' or ` AND <conditions>`. A `match` answering '' leaves the link's own conditions only ('' if none).
 */
function linkOf(b: SqlBuilder, parentExpr: string, filter: (pin: string) => string): Pick<Hop, 'link' | 'on'> {
  const link = (match: (e: string) => string, byParent = false) => {
    const m = match(parentExpr);
    const f = filter(byParent ? b.dialect.skipIndex : '');
    return m ? `${m}${f}` : f.slice(' AND '.length);
  };
  return { link, on: (pid) => link((e) => `${e} = ${pid}`, true) };
}

/**
 * `componentUid`: the type read for a polymorphic attribute (a dynamic zone's component, or a type a file's
 * `related` lists).
 */
export function hopFor(b: SqlBuilder, model: Model, ct: ContentType, attr: Attribute, componentUid?: string): Hop {
  const q = (s: string) => b.q(s);
  const l = b.alias();
  const a = b.alias();
  if (isMediaMorph(ct, attr)) {
    if (!componentUid) throw new HopError(`${ct.uid}.${attr.name} needs a type to be traversed`);
    const target = model.require(componentUid);
    return {
      target, alias: a, linkAlias: l,
      from: `FROM ${q(MEDIA_MORPH_TABLE)} ${l} JOIN ${q(target.collectionName)} ${a} ON ${a}.id = ${l}.related_id`,
      ...linkOf(b, `${l}.file_id`, (pin) => ` AND ${pin}${l}.related_type = ${b.param(componentUid)}`),
      parentExpr: `${l}.file_id`,
      orderExpr: `${l}.${q('order')}, ${l}.id`,
      extra: [`${l}.${q('order')} AS __order`, `${l}.id AS __link`],
    };
  }
  switch (attr.kind) {
    case 'relation': {
      const target = model.require(attr.target);
      if (attr.joinColumn) {
        // createdBy/updatedBy: a plain foreign key column on the parent row
        const parentTable = q(ct.collectionName);
        return {
          target, alias: a, linkAlias: l,
          from: `FROM ${parentTable} ${l} JOIN ${q(target.collectionName)} ${a} ON ${a}.id = ${l}.${q(attr.joinColumn.name)}`,
          ...linkOf(b, `${l}.id`, () => ''),
          parentExpr: `${l}.id`, orderExpr: null, extra: [],
        };
      }
      const jt = attr.joinTable;
      if (!jt) throw new HopError(`relation ${ct.uid}.${attr.name} cannot be traversed`);
      return {
        target, alias: a, linkAlias: l,
        from: `FROM ${q(jt.name)} ${l} JOIN ${q(target.collectionName)} ${a} ON ${a}.id = ${l}.${q(jt.inverseJoinColumn)}`,
        ...linkOf(b, `${l}.${q(jt.joinColumn)}`, () => ''),
        parentExpr: `${l}.${q(jt.joinColumn)}`,
        orderExpr: jt.orderColumn ? `${l}.${q(jt.orderColumn)}, ${l}.id` : `${l}.id`,
        extra: [],
      };
    }
    case 'media': {
      const target = model.require('plugin::upload.file');
      return {
        target, alias: a, linkAlias: l,
        from: `FROM ${q(MEDIA_MORPH_TABLE)} ${l} JOIN ${q(target.collectionName)} ${a} ON ${a}.id = ${l}.file_id`,
        ...linkOf(b, `${l}.related_id`, (pin) => ` AND ${pin}${l}.related_type = ${b.param(ct.uid)} AND ${pin}${l}.field = ${b.param(attr.name)}`),
        parentExpr: `${l}.related_id`,
        orderExpr: `${l}.${q('order')}, ${l}.id`,
        extra: [],
      };
    }
    case 'component':
    case 'dynamiczone': {
      const uid = attr.kind === 'component' ? attr.component : componentUid;
      if (!uid) throw new HopError(`dynamic zone ${ct.uid}.${attr.name} cannot be traversed`);
      const target = model.require(uid);
      return {
        target, alias: a, linkAlias: l,
        from: `FROM ${q(ct.componentsTable)} ${l} JOIN ${q(target.collectionName)} ${a} ON ${a}.id = ${l}.${COMPONENT_LINK.component}`,
        ...linkOf(b, `${l}.${COMPONENT_LINK.entity}`, (pin) => ` AND ${pin}${l}.${COMPONENT_LINK.field} = ${b.param(attr.name)} AND ${pin}${l}.${COMPONENT_LINK.type} = ${b.param(uid)}`),
        parentExpr: `${l}.${COMPONENT_LINK.entity}`,
        orderExpr: `${l}.${q(COMPONENT_LINK.order)}, ${l}.id`,
        extra: [`${l}.${q(COMPONENT_LINK.order)} AS __order`, `${l}.id AS __link`],
      };
    }
    default:
      throw new HopError(`${ct.uid}.${(attr as Attribute).name} cannot be traversed`);
  }
}
