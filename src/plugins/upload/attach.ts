// Attaching uploads to an entry's media attribute (`ref`, `refId`, `field`): the target must exist and be
// a media attribute (v4 writes a link to whatever it is given, or answers 500), the caller must be allowed
// to update the entry that owns it (v4 does not check), and each file must be of the attribute's
// `allowedTypes` (v4 does not check either). Links are written as v4 writes them. Replacing a used file
// follows the same rules for every attribute using it (`fileUsages`).
import type { Auth } from '../../auth/authenticate';
import { ValidationError } from '../../errors';
import type { ContentType, MediaAttribute, Model } from '../../model/types';
import { COMPONENT_LINK, MEDIA_MORPH_TABLE } from '../../model/names';
import type { Executor } from '../../storage/dialect';
import { mediaKind } from './file-type';

export interface AttachTarget {
  ct: ContentType;
  attr: MediaAttribute;
  id: number;
}

export interface AttachRequest {
  ref?: unknown;
  refId?: unknown;
  field?: unknown;
}

const MAX_COMPONENT_NESTING = 10;

function invalid(path: string, message: string): never {
  throw new ValidationError(message, { errors: [{ path: [path], message, name: 'ValidationError' }] });
}

/** who may hold a component of a given uid: the models with a component or dynamic-zone attribute of it */
export function componentOwners(model: Model): Map<string, ContentType[]> {
  const owners = new Map<string, ContentType[]>();
  const add = (uid: string, ct: ContentType) => owners.set(uid, [...(owners.get(uid) ?? []), ct]);
  for (const ct of [...model.contentTypes.values(), ...model.components.values()]) {
    for (const attr of Object.values(ct.attributes)) {
      if (attr.kind === 'component') add(attr.component, ct);
      if (attr.kind === 'dynamiczone') for (const c of attr.components) add(c, ct);
    }
  }
  return owners;
}

export interface AttachDeps {
  model: Model;
  owners: Map<string, ContentType[]>;
  /** throws ForbiddenError / UnauthorizedError */
  authorize(auth: Auth, action: string): void;
}

/** the entries (content type, id) that own a component row, following nested components up */
async function owningEntries(db: Executor, d: AttachDeps, ct: ContentType, id: number, depth = 0): Promise<Array<{ ct: ContentType; id: number }>> {
  if (ct.kind !== 'component') return [{ ct, id }];
  if (depth > MAX_COMPONENT_NESTING) return [];
  const out: Array<{ ct: ContentType; id: number }> = [];
  for (const owner of d.owners.get(ct.uid) ?? []) {
    const rows = await db.all<{ e: number }>(
      `SELECT ${COMPONENT_LINK.entity} AS e FROM ${db.dialect.quote(owner.componentsTable)} WHERE ${COMPONENT_LINK.component} = ? AND ${COMPONENT_LINK.type} = ?`,
      [id, ct.uid],
    );
    for (const r of rows) out.push(...(await owningEntries(db, d, owner, Number(r.e), depth + 1)));
  }
  return out;
}

/** null when the request does not ask to attach (v4 needs all three of ref, refId and field) */
export async function resolveAttachTarget(db: Executor, d: AttachDeps, auth: Auth | undefined, req: AttachRequest): Promise<AttachTarget | null> {
  const { ref, refId, field } = req;
  if (!ref || !refId || !field) return null;
  const ct = typeof ref === 'string' ? d.model.get(ref) : undefined;
  if (!ct || ct.origin === 'admin' || ct.origin === 'strapi') invalid('ref', `ref must be the uid of a content type or component, got ${JSON.stringify(ref)}`);
  const attr = typeof field === 'string' ? ct.attributes[field] : undefined;
  if (!attr || attr.kind !== 'media') invalid('field', `field must be a media attribute of ${ct.uid}, got ${JSON.stringify(field)}`);
  const id = typeof refId === 'number' ? refId : /^\d{1,15}$/.test(String(refId)) ? Number(refId) : NaN;
  const exists = Number.isSafeInteger(id) && (await db.get(`SELECT id FROM ${db.dialect.quote(ct.collectionName)} WHERE id = ?`, [id]));
  if (!exists) invalid('refId', `${ct.uid} has no entry with id ${JSON.stringify(refId)}`);
  if (auth) {
    const entries = await owningEntries(db, d, ct, id);
    if (!entries.length) invalid('refId', `${ct.uid} ${id} does not belong to any entry`);
    for (const entry of entries) d.authorize(auth, `${entry.ct.uid}.update`);
  }
  return { ct, attr, id };
}

/** where a file is used: each media attribute (of an entry or a component row) linking it in files_related_morphs */
export async function fileUsages(db: Executor, d: AttachDeps, fileId: number): Promise<AttachTarget[]> {
  const rows = await db.all<{ id: number; type: string; field: string }>(
    `SELECT DISTINCT related_id AS id, related_type AS type, field FROM ${db.dialect.quote(MEDIA_MORPH_TABLE)} WHERE file_id = ?`,
    [fileId],
  );
  const out: AttachTarget[] = [];
  for (const r of rows) {
    const ct = d.model.get(r.type);
    const attr = ct?.attributes[r.field];
    if (ct && attr?.kind === 'media') out.push({ ct, attr, id: Number(r.id) }); // links of removed types or fields protect nothing
  }
  return out;
}

/** changing what these targets show needs `update` on every entry behind them (a component: the entries owning it) */
export async function authorizeEntryChange(db: Executor, d: AttachDeps, auth: Auth, targets: AttachTarget[]): Promise<void> {
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(`${t.ct.uid}:${t.id}`)) continue;
    seen.add(`${t.ct.uid}:${t.id}`);
    for (const entry of await owningEntries(db, d, t.ct, t.id)) d.authorize(auth, `${entry.ct.uid}.update`);
  }
}

/** v4's media kinds: `images`, `videos`, `audios`, `files` (anything else); no list allows all */
export function checkAllowedType(target: AttachTarget, mime: string, fileName: string): void {
  const allowed = target.attr.allowedTypes;
  if (!allowed?.length) return;
  const kind = mediaKind(mime);
  if (!allowed.includes(kind)) {
    invalid('files', `${fileName} is of type ${mime}, but ${target.ct.uid}.${target.attr.name} only accepts ${allowed.join(', ')}`);
  }
}

/** v4's morph link: a single media attribute loses its previous file; new links get order 1 */
export async function writeAttachLink(db: Executor, target: AttachTarget, fileId: number): Promise<void> {
  const M = db.dialect.quote(MEDIA_MORPH_TABLE);
  const O = db.dialect.quote('order');
  if (!target.attr.multiple) {
    await db.run(`DELETE FROM ${M} WHERE related_id = ? AND related_type = ? AND field = ?`, [target.id, target.ct.uid, target.attr.name]);
  }
  await db.run(`INSERT INTO ${M} (file_id, related_id, related_type, field, ${O}) VALUES (?, ?, ?, ?, ?)`, [fileId, target.id, target.ct.uid, target.attr.name, 1]);
}
