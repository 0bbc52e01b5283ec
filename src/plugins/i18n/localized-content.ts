// What i18n adds to content writes and reads of localized types, as v4's entity-service decorator does
// (I18N: decorator.create/update, syncLocalizations, syncNonLocalizedAttributes):
// - create: `data.locale` must be a known locale (400 "This locale doesn't exist"), the default when absent;
// - after a create or update whose entry came back WITH `localizations` (the request populated them),
//   the shared (non-localized) attributes the entry carries are copied to every sibling, and after a
//   create the siblings' own `localizations` are relinked to the new group. Without `populate` nothing
//   is synced: that is what v4.26.2 does (verified; see docs/compatibility.md);
// - reads: entry-level `meta.availableLocales`, one query per response.
// The entry, the sibling updates and the relinking are ONE transaction.
import { ApplicationError } from '../../errors';
import { createDocumentService, type DocumentService, type ReadParams } from '../../documents/document-service';
import type { ContentType, Model } from '../../model/types';
import type { QueryFn } from '../../query/query-engine';
import type { Entity } from '../../query/types';
import type { Database, Executor } from '../../storage/dialect';
import { populate } from '../../storage/read-entities';
import type { LocalizedContent } from '../../content/core-service';
import { LIVE } from '../../query/publication-state';
import { ENTRY_META } from '../../content/entry-meta';
import { copyNonLocalized } from './non-localized';
import { transactionOrHook, type Lifecycles } from '../../storage/lifecycles';
import { joinTransaction } from './transaction-view';

const LOCALE = 'plugin::i18n.locale';

export interface LocalizedContentDeps {
  db: Database;
  model: Model;
  query: QueryFn;
  defaultLocale(): string;
  /** input accepted but not written (the document service's warnings) */
  warn?(message: string): void;
  /** the models' lifecycle hooks, run by the document service of each transaction */
  lifecycles?: Lifecycles;
  /** config/api.js `rest.maxJsonDepth`, for the document service of each transaction */
  maxJsonDepth?: number;
}

export interface Siblings {
  /** v4 syncLocalizations: every sibling of `entry` links to the whole group but itself */
  relink(ct: ContentType, entry: Entity): Promise<void>;
  /** v4 syncNonLocalizedAttributes: the shared attributes `entry` carries, written to each sibling */
  copyShared(ct: ContentType, entry: Entity): Promise<void>;
}

export function localizationIds(entry: Entity): number[] | null {
  return Array.isArray(entry.localizations) ? (entry.localizations as Entity[]).map((l) => l.id) : null;
}

/** The sibling operations inside one open transaction, through the document service on it. */
export function siblingsIn(tx: Executor, d: LocalizedContentDeps, docs: DocumentService): Siblings {
  return {
    async relink(ct, entry) {
      const ids = localizationIds(entry);
      if (!ids) return;
      const group = [entry.id, ...ids];
      for (const id of ids) await d.query(ct.uid, tx).update({ where: { id }, data: { localizations: group.filter((x) => x !== id) }, select: [] });
    },
    async copyShared(ct, entry) {
      const ids = localizationIds(entry);
      if (!ids) return;
      const shared = copyNonLocalized(d.model, ct, entry);
      if (!Object.keys(shared).length) return;
      for (const id of ids) await docs.update(ct, id, shared, { select: [] });
    },
  };
}

/** run `fn` in one transaction with a document service and the sibling operations bound to it */
export function inContentTransaction<T>(d: LocalizedContentDeps, fn: (docs: DocumentService, siblings: Siblings, tx: Executor) => Promise<T>): Promise<T> {
  // inside a lifecycle hook's write (a hook writing a localized entry): that write's transaction
  return transactionOrHook(d.db, (tx) => {
    const docs = createDocumentService(joinTransaction(tx, d.db), d.model, { warn: d.warn, lifecycles: d.lifecycles, maxJsonDepth: d.maxJsonDepth });
    return fn(docs, siblingsIn(tx, d, docs), tx);
  });
}

/**
 * v4 getValidLocale: the default when absent, else an existing locale code. An object is never used as a
 * query (v4 does, and an operator matches some locale): it goes on to the validator, which rejects it
 * with v4's own message (`locale must be a \`string\` type, ...`).
 */
export async function validLocale(d: LocalizedContentDeps, ex: Executor, locale: unknown): Promise<unknown> {
  if (locale === undefined || locale === null) return d.defaultLocale();
  if (typeof locale === 'object') return locale;
  const found = typeof locale === 'string' ? await d.query(LOCALE, ex).findOne({ where: { code: locale }, select: ['code'] }) : null;
  if (!found) throw new ApplicationError("This locale doesn't exist");
  return locale;
}

export function createLocalizedContent(d: LocalizedContentDeps): LocalizedContent {
  return {
    create(ct, input, read: ReadParams) {
      return inContentTransaction(d, async (docs, siblings, tx) => {
        const entry = await docs.create(ct, { ...input, locale: await validLocale(d, tx, input.locale) }, read);
        await siblings.relink(ct, entry);
        await siblings.copyShared(ct, entry);
        return entry;
      });
    },
    update(ct, id, input, read) {
      const { locale: _l, localizations: _z, ...data } = input;
      void _l; void _z;
      return inContentTransaction(d, async (docs, siblings) => {
        const entry = await docs.update(ct, id, data, read);
        if (entry) await siblings.copyShared(ct, entry);
        return entry;
      });
    },
    /**
     * `meta: { availableLocales: [{ id, locale, publishedAt }] }` on each entry: its other localizations,
     * filtered as a populate of `localizations` would be (drafts left out under `live`). One query.
     */
    async attachAvailableLocales(ct, entities, state) {
      if (!entities.length) return;
      const shells: Entity[] = entities.map((e) => ({ id: e.id }));
      const select = ct.draftAndPublish ? ['locale', 'publishedAt'] : ['locale'];
      const where = ct.draftAndPublish && state === 'live' ? LIVE : undefined;
      await populate(d.db, d.model, ct, shells, { localizations: { select, where } });
      shells.forEach((shell, i) => {
        const availableLocales = (shell.localizations as Entity[]).map((l) => (ct.draftAndPublish ? { id: l.id, locale: l.locale, publishedAt: l.publishedAt } : { id: l.id, locale: l.locale }));
        (entities[i] as Record<symbol, unknown>)[ENTRY_META] = { availableLocales };
      });
    },
  };
}
