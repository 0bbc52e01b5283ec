// The lifecycle registry (storage/lifecycles.ts): which (model, operation) pairs have hooks, the order
// subscribers run in, `models`, the state each subscriber keeps from before to after, and v4's metadata.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/model/build-model';
import { Lifecycles, type LifecycleEvent } from '../../../src/storage/lifecycles';

const type = (name: string) => ({
  uid: `api::${name}.${name}`, kind: 'collectionType' as const, origin: 'api' as const, modelName: name,
  schema: { collectionName: `${name}s`, info: { singularName: name, pluralName: `${name}s`, displayName: name }, options: { draftAndPublish: false }, attributes: { title: { type: 'string' } } },
});
const model = buildModel([type('note'), type('label')]);
const note = model.require('api::note.note');
const label = model.require('api::label.label');

describe('Lifecycles', () => {
  it('has no hooks and no read hooks without subscribers', () => {
    const lc = new Lifecycles({});
    expect(lc.none).toBe(true);
    expect(lc.has(note.uid, 'create')).toBe(false);
    expect(lc.hasReads(note.uid)).toBe(false);
  });

  it('knows exactly which operations lifecycles.js files and subscribers hook', () => {
    const lc = new Lifecycles({ [note.uid]: { beforeCreate() {}, afterCount() {}, notAHook() {} } });
    expect(lc.has(note.uid, 'create')).toBe(true);
    expect(lc.has(note.uid, 'count')).toBe(true);
    expect(lc.has(note.uid, 'update')).toBe(false);
    expect(lc.has(label.uid, 'create')).toBe(false);
    expect(lc.hasReads(note.uid)).toBe(true);
    expect(lc.hasReads(label.uid)).toBe(false);
    const off = lc.subscribe({ models: [label.uid], afterFindOne() {} });
    expect(lc.hasReads(label.uid)).toBe(true);
    expect(lc.has(label.uid, 'create')).toBe(false);
    off();
    expect(lc.hasReads(label.uid)).toBe(false);
    const all = lc.subscribe(() => undefined);
    expect(lc.has(label.uid, 'deleteMany')).toBe(true);
    all();
    lc.disable();
    expect(lc.has(note.uid, 'create')).toBe(false);
    lc.enable();
    expect(lc.has(note.uid, 'create')).toBe(true);
    lc.clear();
    expect(lc.none).toBe(true);
  });

  it('runs lifecycles.js first, then subscribers in order; each keeps its own state from before to after', async () => {
    const seen: string[] = [];
    const lc = new Lifecycles({
      [note.uid]: {
        beforeCreate(e: LifecycleEvent) { seen.push('file before'); e.state.file = 1; },
        afterCreate(e: LifecycleEvent) { seen.push(`file after ${JSON.stringify(e.state)}`); },
      },
    });
    lc.subscribe({
      models: [note.uid],
      beforeCreate(e: LifecycleEvent) { seen.push(`object before ${JSON.stringify(e.state)}`); e.state.object = 2; },
      afterCreate(e: LifecycleEvent) { seen.push(`object after ${JSON.stringify(e.state)} ${e.result.id}`); },
    });
    lc.subscribe({ models: [label.uid], beforeCreate() { seen.push('label only'); } });
    lc.subscribe((e: LifecycleEvent) => { seen.push(`fn ${e.action} ${e.model.uid} ${JSON.stringify(e.state)}`); });
    const params = { data: { title: 't' } };
    const states = await lc.run('beforeCreate', note, { params });
    await lc.run('afterCreate', note, { params, result: { id: 7 } }, states);
    expect(seen).toEqual([
      'file before',
      'object before {}',
      'fn beforeCreate api::note.note {}',
      'file after {"file":1}',
      'object after {"object":2} 7',
      'fn afterCreate api::note.note {}',
    ]);
  });

  it('gives v4 model metadata: uid, singularName, tableName, attributes with id, the lifecycles', async () => {
    const hooks = { beforeCreate() {} };
    const lc = new Lifecycles({ [note.uid]: hooks });
    let meta: Record<string, unknown> | undefined;
    lc.subscribe((e: LifecycleEvent) => { meta = e.model; });
    await lc.run('beforeCount', note, { params: {} });
    expect(meta).toMatchObject({ uid: 'api::note.note', singularName: 'note', tableName: 'notes', collectionName: 'notes', modelName: 'note', kind: 'collectionType', lifecycles: hooks });
    expect(Object.keys(meta!.attributes as object)).toEqual(expect.arrayContaining(['id', 'title', 'createdAt', 'updatedAt']));
    expect((meta!.attributes as Record<string, unknown>).id).toEqual({ type: 'increments' });
  });
});
