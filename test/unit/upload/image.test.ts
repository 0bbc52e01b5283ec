// Image processing with real sharp on generated images: which formats exist, their sizes, orientation,
// v4's settings, and what counts as a broken image.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidImageError, processImage, type ImageSettings } from '../../../src/plugins/upload/image';
import { DEFAULT_BREAKPOINTS } from '../../../src/plugins/upload/config';
import * as gen from '../../integration/upload/fixtures';

const V4: ImageSettings = { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false };
let dir: string;
let n = 0;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-image-')); });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(data: Buffer, mime: string, settings = V4, breakpoints: Record<string, number> = DEFAULT_BREAKPOINTS) {
  const src = path.join(dir, `src-${++n}`);
  fs.writeFileSync(src, data);
  const out = fs.mkdtempSync(path.join(dir, 'out-'));
  return processImage(src, mime, out, settings, breakpoints);
}

const dims = (r: Awaited<ReturnType<typeof run>>) => r && Object.fromEntries([['original', [r.width, r.height]], ...r.formats.map((f) => [f.key, [f.width, f.height]])]);

describe('formats', () => {
  it('makes a thumbnail (inside 245x156) and each breakpoint the original is larger than', async () => {
    expect(dims(await run(await gen.bigJpeg(), 'image/jpeg'))).toEqual({ original: [2000, 1500], thumbnail: [209, 156], large: [1000, 750], medium: [750, 563], small: [500, 375] });
    expect(dims(await run(await gen.midPng(), 'image/png'))).toEqual({ original: [400, 300], thumbnail: [208, 156] });
    expect(dims(await run(await gen.tinyPng(), 'image/png'))).toEqual({ original: [16, 12] });
  });

  it('writes every format in the original\'s format, with the byte size it reports', async () => {
    const r = (await run(await gen.bigJpeg(), 'image/jpeg'))!;
    for (const f of [r, ...r.formats]) {
      expect(fs.statSync(f.path).size).toBe(f.bytes);
      expect((await sharp(f.path).metadata()).format).toBe('jpeg');
    }
  });

  it('follows the settings: no breakpoints without responsiveDimensions; the original untouched without sizeOptimization', async () => {
    const data = await gen.bigJpeg();
    const r = (await run(data, 'image/jpeg', { sizeOptimization: false, responsiveDimensions: false, autoOrientation: false }))!;
    expect(r.formats.map((f) => f.key)).toEqual(['thumbnail']);
    expect(fs.readFileSync(r.path)).toEqual(data);
    expect(dims(await run(data, 'image/jpeg', V4, { hd: 1280, sd: 640 }))).toMatchObject({ hd: [1280, 960], sd: [640, 480] });
  });
});

describe('orientation', () => {
  it('turns an EXIF-rotated image upright, original and formats, whatever the settings', async () => {
    for (const settings of [V4, { ...V4, sizeOptimization: false }]) {
      const r = (await run(await gen.exifJpeg(), 'image/jpeg', settings))!;
      expect(dims(r)).toEqual({ original: [200, 300], thumbnail: [104, 156] });
      const meta = await sharp(r.path).metadata();
      expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([200, 300, 1]);
    }
  });
});

describe('what is not a (valid) image', () => {
  it('rejects images that do not decode', async () => {
    await expect(run(await gen.corruptJpeg(), 'image/jpeg')).rejects.toBeInstanceOf(InvalidImageError);
    await expect(run(gen.garbagePng(), 'image/png')).rejects.toBeInstanceOf(InvalidImageError);
  });

  it('leaves types v4 does not process as plain files', async () => {
    expect(await run(gen.pdfFile(), 'application/pdf')).toBeNull();
    expect(await run(Buffer.from('BM'), 'image/bmp')).toBeNull();
  });

  it('records an SVG\'s size without making formats', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480"/></svg>');
    expect(dims(await run(svg, 'image/svg+xml'))).toEqual({ original: [640, 480] });
  });
});
