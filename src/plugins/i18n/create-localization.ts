// `POST /api/<plural>/:id/localizations` (single types: `POST /api/<singular>/localizations`): a new locale
// of an existing entry, as v4's i18n does it (I18N: createCreateLocalizationHandler). The body is NOT
// wrapped in `data`; the answer is the flat entry with its `localizations`. The shared (non-localized)
// attributes of the base entry are copied in, the request's writable attributes win, and the new entry is
// linked to the whole group; then v4's create sync runs (siblings relinked, shared attributes copied).
// Like v4's entity service, it does not publish: a new localization is a draft unless `publishedAt` is sent.
// A multipart body is read as v4's parseMultipartData does (the body in a JSON `data` field, files under
// `files.<path>`), the files stored and linked in the same write (rest/entry-uploads.ts).
import { ApplicationError, NotFoundError } from '../../errors';
import { validateInput } from '../../documents/validate-input';
import type { ContentType } from '../../model/types';
import type { Entity } from '../../query/types';
import { isVisible, visibleScalars, type Visibility } from '../../query/visibility';
import type { RequestContext } from '../../rest/context';
import { isMultipartRequest, withMultipartData, type EntryUploads } from '../../rest/entry-uploads';
import { findEntities } from '../../storage/read-entities';
import { copyNonLocalized } from './non-localized';
import { inContentTransaction, type LocalizedContentDeps } from './localized-content';
import { webhooksOf } from '../../webhooks/registry';
import { removeRestrictedRelations } from '../../content/sanitize-input';

export interface CreateLocalizationDeps extends LocalizedContentDeps {
  visibility: Visibility;
  /** may this caller `find` entries of `uid` (relations in the body) */
  canRead(ctx: RequestContext, uid: string): boolean;
  localeExists(code: string): Promise<boolean>;
  /** the upload plugin's part in multipart bodies (absent: not installed); asked when the routes are built */
  uploads?(): EntryUploads | undefined;
}

type Data = Record<string, unknown>;

function isPlainObject(v: unknown): v is Data {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** v4 reads `locale` off whatever the body is: anything but an object has none */
const asBody = (v: unknown): Data => (isPlainObject(v) ? v : {});

/** v4 createSanitizer: the writable attributes but `locale`/`localizations`; relations only to readable targets */
function writableInput(d: CreateLocalizationDeps, ctx: RequestContext, ct: ContentType, body: Data): Data {
  const out: Data = {};
  for (const [name, value] of Object.entries(body)) {
    const attr = ct.attributes[name];
    if (!attr || !attr.writable || name === 'locale' || name === 'localizations') continue;
    out[name] = value;
  }
  // relations to types the caller may not find, at any depth (components, zones), as the core controllers do
  return removeRestrictedRelations(d.model, ct, out, (uid) => d.canRead(ctx, uid)) as Data;
}

/** v4 sanitize.contentAPI.output: no private attributes, on the entry and on its localizations */
function flatOutput(d: CreateLocalizationDeps, ct: ContentType, entry: Entity): Data {
  const keep = (e: Entity) => {
    const out: Data = { id: e.id };
    for (const name of visibleScalars(ct, d.visibility)) if (name in e) out[name] = e[name];
    return out;
  };
  const localizations = ct.attributes.localizations;
  return { ...keep(entry), ...(localizations && isVisible(localizations, d.visibility) ? { localizations: (entry.localizations as Entity[]).map(keep) } : {}) };
}

export function createLocalizationHandler(d: CreateLocalizationDeps, ct: ContentType) {
  const uploads = d.uploads?.();
  const create = async (ctx: RequestContext, body: Data): Promise<Data> => {
    let baseWhere: Data | undefined;
    if (ct.kind !== 'singleType') {
      const raw = ctx.params.id ?? '';
      if (!/^\d{1,15}$/.test(raw)) throw new NotFoundError();
      baseWhere = { id: Number(raw) };
    }
    const [base] = await findEntities(d.db, d.model, ct, { where: baseWhere, populate: { localizations: { select: ['locale'] } }, limit: 1 });
    if (!base) throw new NotFoundError();
    if (body.locale === undefined || body.locale === null) throw new ApplicationError('locale is missing');
    if (typeof body.locale !== 'string' || !(await d.localeExists(body.locale))) throw new ApplicationError('locale is invalid');
    const group = [base, ...(base.localizations as Entity[])];
    if (group.some((e) => e.locale === body.locale)) throw new ApplicationError('locale is already used');

    const input: Data = {
      ...copyNonLocalized(d.model, ct, base),
      ...writableInput(d, ctx, ct, body),
      locale: body.locale,
      localizations: group.map((e) => e.id),
    };
    if (ct.draftAndPublish && input.publishedAt === undefined) {
      // v4's entity service validates this as a published entry, then stores publishedAt NULL (a draft)
      validateInput(d.model, ct, input, { isCreate: true, isDraft: false });
      input.publishedAt = null;
    }
    const entry = await inContentTransaction(d, async (docs, siblings) => {
      const created = await docs.create(ct, input, { populate: { localizations: {} } });
      await siblings.relink(ct, created);
      await siblings.copyShared(ct, created);
      return created;
    });
    // v4 creates it through the entity service, which sends `entry.create` (after the commit)
    webhooksOf(d.db)?.entry('entry.create', ct.uid, entry);
    return flatOutput(d, ct, entry);
  };
  return async (ctx: RequestContext): Promise<Data> => {
    if (uploads && isMultipartRequest(ctx)) return withMultipartData(uploads, d.model, ct, ctx, { isCreate: true, toData: asBody }, (body) => create(ctx, body));
    return create(ctx, asBody(ctx.request.body));
  };
}
