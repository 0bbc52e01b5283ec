// The database an app runs on is whole (after a fuzz run, a crash, real Strapi writing beside Tessera). SQLite's own checks (integrity_check,
// foreign_key_check), then v4's layout, read from the Model on either dialect: no component row that no entry
// holds, no component link to a missing entry or component, no relation link to a missing row, no media link to
// a missing file or entry. Each problem is a line naming the table and the count.
import type { Tessera } from '../../src/core/tessera';
import type { ContentType } from '../../src/model/types';
import { dbCount, dbRows } from './db-rows';

export async function consistencyProblems(app: Pick<Tessera, 'db' | 'model'>): Promise<string[]> {
  const db = app.db;
  const q = (name: string) => db.dialect.quote(name);
  const problems: string[] = [];
  const none = async (what: string, table: string, where: string, ...params: string[]) => {
    const n = await dbCount(db, table, where, ...params);
    if (n) problems.push(`${what}: ${n} rows of ${table}`);
  };

  if (db.dialect.name === 'sqlite') {
    const [check] = await dbRows<{ integrity_check: string }>(db, 'PRAGMA integrity_check');
    if (check.integrity_check !== 'ok') problems.push(`integrity_check: ${check.integrity_check}`);
    const broken = await dbRows(db, 'PRAGMA foreign_key_check');
    if (broken.length) problems.push(`foreign_key_check: ${JSON.stringify(broken.slice(0, 5))}`);
  }

  const tables = await db.introspect();
  const models = [...app.model.contentTypes.values(), ...app.model.components.values()].filter((m) => tables.has(m.collectionName));
  const holders = models.filter((m) => tables.has(m.componentsTable) && Object.values(m.attributes).some((a) => a.kind === 'component' || a.kind === 'dynamiczone'));

  for (const holder of holders) {
    const links = holder.componentsTable;
    await none('component links of a missing entry', links, `entity_id NOT IN (SELECT id FROM ${q(holder.collectionName)})`);
    for (const component of app.model.components.values()) {
      await none(`links to a missing ${component.uid}`, links, `component_type = ? AND component_id NOT IN (SELECT id FROM ${q(component.collectionName)})`, component.uid);
    }
  }
  for (const component of app.model.components.values()) {
    if (!tables.has(component.collectionName)) continue;
    const held = holders.map((h) => `SELECT component_id FROM ${q(h.componentsTable)} WHERE component_type = ?`);
    await none(`${component.uid} rows no entry holds`, component.collectionName, held.length ? `id NOT IN (${held.join(' UNION ')})` : '1 = 1', ...holders.map(() => component.uid));
  }

  for (const owner of models) {
    for (const a of Object.values(owner.attributes)) {
      if (a.kind !== 'relation' || !a.owner || !a.joinTable || !tables.has(a.joinTable.name)) continue;
      const target = app.model.get(a.target) as ContentType | undefined;
      if (!target) continue;
      const jt = a.joinTable;
      await none(`${owner.uid}.${a.name} links from a missing row`, jt.name, `${q(jt.joinColumn)} NOT IN (SELECT id FROM ${q(owner.collectionName)})`);
      await none(`${owner.uid}.${a.name} links to a missing row`, jt.name, `${q(jt.inverseJoinColumn)} NOT IN (SELECT id FROM ${q(target.collectionName)})`);
    }
  }

  if (tables.has('files_related_morphs')) {
    await none('media links to a missing file', 'files_related_morphs', `file_id NOT IN (SELECT id FROM ${q('files')})`);
    for (const m of models) {
      if (!Object.values(m.attributes).some((a) => a.kind === 'media')) continue;
      await none(`media links of a missing ${m.uid}`, 'files_related_morphs', `related_type = ? AND related_id NOT IN (SELECT id FROM ${q(m.collectionName)})`, m.uid);
    }
  }
  return problems;
}
