// Public and uploaded files: no way out of the folder (.., encoded dots, symlinks, NUL, backslashes,
// hidden files), canonical spellings only, uploads known wherever they are reached from, byte ranges, and the
// content types uploads are served with.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalFilePath, contentTypeOf, extensionOfMime, isActiveContent, mimeOfExtension, parseRange, resolvePublicFile } from '../../../src/server/static-files';

let root: string;
let pub: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-static-'));
  pub = path.join(root, 'public');
  fs.mkdirSync(path.join(pub, 'uploads/sub'), { recursive: true });
  fs.writeFileSync(path.join(root, 'secret.txt'), 'secret');
  fs.writeFileSync(path.join(pub, 'robots.txt'), 'robots');
  fs.writeFileSync(path.join(pub, 'uploads/a.png'), 'png');
  fs.writeFileSync(path.join(pub, 'uploads/sub/index.html'), 'index');
  fs.writeFileSync(path.join(pub, '.env'), 'SECRET=1');
  fs.mkdirSync(path.join(pub, '.git'));
  fs.writeFileSync(path.join(pub, '.git/config'), 'x');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(pub, 'uploads/link.txt'));
  fs.symlinkSync(root, path.join(pub, 'uploads/outside'));
  fs.symlinkSync(path.join(pub, 'robots.txt'), path.join(pub, 'uploads/inside.txt'));
  fs.symlinkSync(path.join(pub, 'uploads'), path.join(pub, 'link-to-uploads'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const resolve = async (url: string, base = pub) => (await resolvePublicFile(base, url))?.path ?? null;

describe('resolvePublicFile', () => {
  it('finds files and directory index pages inside the folder', async () => {
    expect(await resolve('/robots.txt')).toBe(fs.realpathSync(path.join(pub, 'robots.txt')));
    expect(await resolve('/uploads/a.png?x=1')).toBe(fs.realpathSync(path.join(pub, 'uploads/a.png')));
    expect(await resolve('/uploads/sub/')).toBe(fs.realpathSync(path.join(pub, 'uploads/sub/index.html')));
    expect(await resolve('/uploads/%61.png')).toBe(fs.realpathSync(path.join(pub, 'uploads/a.png')));
  });

  it('answers only the canonical spelling of a path (issue #20: another spelling could reach another handler)', async () => {
    for (const url of ['/uploads/sub/../a.png', '//uploads/a.png', '/./uploads/a.png', '/uploads//a.png', '/uploads%2fa.png', '/uploads%5ca.png', '/uploads\\a.png', '/uploads/%2e/a.png', '/uploads/a.png/.']) {
      expect(await resolve(url), url).toBeNull();
    }
    expect([canonicalFilePath('/uploads/a%20b.png?x=/../'), canonicalFilePath('/x/%2e%2e/y'), canonicalFilePath('/%c0%ae'), canonicalFilePath('x.png')]).toEqual(['/uploads/a b.png', null, 'malformed', null]);
  });

  it('marks a file whose real path is inside the uploads folder as untrusted, whatever path reached it', async () => {
    const uploadsDir = path.join(pub, 'uploads');
    expect((await resolvePublicFile(pub, '/uploads/a.png', { uploadsDir }))?.untrusted).toBe(true);
    expect((await resolvePublicFile(pub, '/robots.txt', { uploadsDir }))?.untrusted).toBe(false);
    // a link out of the uploads folder points at public content; a link into it at uploaded content
    expect((await resolvePublicFile(pub, '/uploads/inside.txt', { uploadsDir }))?.untrusted).toBe(false);
    expect((await resolvePublicFile(pub, '/link-to-uploads/a.png', { uploadsDir }))?.untrusted).toBe(true);
  });

  it('never leaves the folder', async () => {
    const attempts = [
      '/../secret.txt', '/uploads/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/%2e%2e/secret.txt', '/..%2fsecret.txt',
      '/uploads/..%5c..%5csecret.txt', '/uploads/link.txt', '/uploads/outside/secret.txt', '/uploads/a.png%00.txt',
      '/%252e%252e/secret.txt', '/uploads/%ff', '/uploads/nope.png', '/uploads/',
    ];
    for (const url of attempts) expect(await resolve(url), url).toBeNull();
    // a root given through a symlink or with a trailing part of its own still confines
    expect(await resolve('/../robots.txt', path.join(pub, 'uploads'))).toBeNull();
  });

  it('does not serve hidden files or folders', async () => {
    expect(await resolve('/.env')).toBeNull();
    expect(await resolve('/.git/config')).toBeNull();
    expect(await resolve('/uploads/%2egit')).toBeNull();
  });

  it('follows symlinks that stay inside', async () => {
    expect(await resolve('/uploads/inside.txt')).toBe(fs.realpathSync(path.join(pub, 'robots.txt')));
  });
});

describe('parseRange', () => {
  it('reads one range, and answers unsatisfiable ones', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=95-200', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('invalid');
    expect(parseRange('bytes=5-2', 100)).toBe('invalid');
    expect(parseRange('bytes=-0', 100)).toBe('invalid');
    for (const ignored of [undefined, 'bytes=0-1,5-6', 'items=0-1', 'bytes=-', 'bytes=a-b']) expect(parseRange(ignored, 100)).toBeNull();
  });
});

describe('types', () => {
  it('maps extensions and types both ways; text types carry a charset', () => {
    expect([mimeOfExtension('.PNG'), mimeOfExtension('.jpeg'), mimeOfExtension('.nope')]).toEqual(['image/png', 'image/jpeg', undefined]);
    expect([extensionOfMime('image/jpeg'), extensionOfMime('text/plain'), extensionOfMime('application/pdf'), extensionOfMime('x/y')]).toEqual(['.jpeg', '.txt', '.pdf', undefined]);
    expect([contentTypeOf('a.txt'), contentTypeOf('a.svg'), contentTypeOf('a.png'), contentTypeOf('a.weird')]).toEqual(['text/plain; charset=utf-8', 'image/svg+xml; charset=utf-8', 'image/png', 'application/octet-stream']);
    expect(['text/html', 'image/svg+xml', 'application/javascript', 'image/png', 'text/plain'].map(isActiveContent)).toEqual([true, true, true, false, false]);
  });
});
