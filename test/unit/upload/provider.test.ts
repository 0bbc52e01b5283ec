// Upload providers: the built-in local one, and v4 provider packages loaded from the project folder
// (here a small real provider written into a temporary project's node_modules).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectError } from '../../../src/project/errors';
import { createProvider, wrapProvider, type ProviderFile } from '../../../src/plugins/upload/provider';
import { installDiskProvider } from '../../integration/upload/fixtures';

let root: string;
beforeAll(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-provider-')); });
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const file = (hash: string, content: string, ext = '.txt'): ProviderFile => ({
  name: `${hash}${ext}`, hash, ext, mime: 'text/plain', size: 0.01, getStream: () => Readable.from([Buffer.from(content)]),
});

describe('local provider', () => {
  it('writes <hash><ext> under uploads (creating the folder), sets the url, and deletes', async () => {
    const uploads = path.join(root, 'local/public/uploads');
    const p = createProvider({ name: 'local', providerOptions: {}, actionOptions: {}, projectDir: root, uploadsDir: uploads });
    const f = file('notes_0123456789', 'hello');
    await p.store(f);
    expect(f.url).toBe('/uploads/notes_0123456789.txt');
    expect(fs.readFileSync(path.join(uploads, 'notes_0123456789.txt'), 'utf8')).toBe('hello');
    expect(fs.readdirSync(uploads)).toEqual(['notes_0123456789.txt']); // no partial files left
    await p.remove(f);
    expect(fs.readdirSync(uploads)).toEqual([]);
    await p.remove(f); // deleting what is gone is fine
    expect(await p.isPrivate()).toBe(false);
  });

  it('moves a temporary file into place instead of copying it', async () => {
    const uploads = path.join(root, 'move/uploads');
    const p = createProvider({ name: 'local', providerOptions: {}, actionOptions: {}, projectDir: root, uploadsDir: uploads });
    const tmp = path.join(root, 'move-src.bin');
    fs.writeFileSync(tmp, 'content');
    const f = file('big_0123456789', 'unused', '.bin');
    await p.store(f, tmp);
    expect(fs.existsSync(tmp)).toBe(false);
    expect(fs.readFileSync(path.join(uploads, 'big_0123456789.bin'), 'utf8')).toBe('content');
  });

  it('refuses storage keys that would leave the folder, leaving nothing behind', async () => {
    const uploads = path.join(root, 'keys/uploads');
    const p = createProvider({ name: 'local', providerOptions: {}, actionOptions: {}, projectDir: root, uploadsDir: uploads });
    await expect(p.store(file('../escape', 'x'))).rejects.toThrow(/invalid storage key/);
    await expect(p.store(file('.hidden', 'x'))).rejects.toThrow(/invalid storage key/);
    expect(fs.existsSync(path.join(root, 'keys/escape.txt'))).toBe(false);
  });

  it('removes its partial file when the source stream fails', async () => {
    const uploads = path.join(root, 'partial/uploads');
    const p = createProvider({ name: 'local', providerOptions: {}, actionOptions: {}, projectDir: root, uploadsDir: uploads });
    const failing: ProviderFile = { ...file('bad_0123456789', ''), getStream: () => Readable.from((async function* () { yield Buffer.from('half'); throw new Error('client went away'); })()) };
    await expect(p.store(failing)).rejects.toThrow('client went away');
    expect(fs.readdirSync(uploads)).toEqual([]);
  });
});

describe('provider packages', () => {
  const project = () => path.join(root, 'project');
  beforeAll(() => {
    fs.mkdirSync(project(), { recursive: true });
    fs.writeFileSync(path.join(project(), 'package.json'), '{"name":"p"}');
    installDiskProvider(project());
  });

  it('loads @strapi/provider-upload-<name> from the project, passing providerOptions and actionOptions', async () => {
    const dir = path.join(root, 'remote');
    const p = createProvider({ name: 'diskcopy', providerOptions: { dir, base: 'https://cdn.example' }, actionOptions: { upload: { acl: 'private' } }, projectDir: project(), uploadsDir: path.join(root, 'unused') });
    const f = file('doc_0123456789', 'remote content');
    await p.store(f, path.join(root, 'not-moved')); // no adoptFile: the stream is buffered for upload()
    expect(f.url).toBe('https://cdn.example/doc_0123456789.txt');
    expect(f.provider_metadata).toEqual({ bucket: 'b' });
    expect(f.buffer).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'doc_0123456789.txt'), 'utf8')).toBe('remote content');
    expect((p.instance as unknown as { calls: unknown[] }).calls).toEqual([['upload', { acl: 'private' }]]);
    expect(await p.isPrivate()).toBe(true);
    expect(await p.getSignedUrl({ url: f.url })).toEqual({ url: 'https://cdn.example/doc_0123456789.txt?sig=1' });
    await p.remove(f);
    expect(fs.existsSync(path.join(dir, 'doc_0123456789.txt'))).toBe(false);
  });

  it('names what is wrong with a provider', () => {
    expect(() => createProvider({ name: 'nope', providerOptions: {}, actionOptions: {}, projectDir: project(), uploadsDir: root }))
      .toThrow(/upload provider "nope" is not installed \(looked for "@strapi\/provider-upload-nope" and "nope"/);
    expect(() => wrapProvider('x', { upload() {} } as never, {}, 'config/plugins.js')).toThrow(ProjectError);
    expect(() => wrapProvider('x', { delete() {} } as never, {}, 'config/plugins.js')).toThrow(/doesn't implement the uploadStream nor the upload method/);
  });
});
