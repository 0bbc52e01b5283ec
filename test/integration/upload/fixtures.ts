// Test files generated with sharp, deterministically (no randomness): the images and odd files the upload
// tests send. The golden request list (test/golden/upload-files.requests.json) embeds the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

function raw(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]) {
  const buf = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const i = (y * width + x) * 3;
      buf[i] = r; buf[i + 1] = g; buf[i + 2] = b;
    }
  }
  return sharp(buf, { raw: { width, height, channels: 3 } });
}

const gradient = (w: number, h: number) => raw(w, h, (x, y) => [(x * 255 / w) | 0, (y * 255 / h) | 0, 128]);
const PALETTE: Array<[number, number, number]> = [[230, 40, 40], [40, 200, 40], [40, 40, 220], [250, 220, 30]];
const blocks = (w: number, h: number) => raw(w, h, (x, y) => PALETTE[((x >> 5) + (y >> 5)) % 4]);

/** 2000x1500 JPEG: every format (thumbnail, large, medium, small) */
export const bigJpeg = () => gradient(2000, 1500).jpeg({ quality: 50 }).toBuffer();
/** 400x300 PNG: thumbnail only */
export const midPng = () => blocks(400, 300).png().toBuffer();
/** 16x12 PNG: no formats */
export const tinyPng = () => blocks(16, 12).png().toBuffer();
/** 300x200 pixels stored, EXIF orientation 6 (shown rotated: 200x300) */
export const exifJpeg = () => gradient(300, 200).jpeg({ quality: 80 }).withMetadata({ orientation: 6 }).toBuffer();
/** a JPEG cut short: the header reads, the image does not decode */
export const corruptJpeg = async () => (await bigJpeg()).subarray(0, 4000);
/** PNG magic, then garbage */
export const garbagePng = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('this is not a png at all')]);
/** an HTML page pretending to be a PNG */
export const htmlPage = () => Buffer.from('<!DOCTYPE html><html><body><script>alert(document.domain)</script></body></html>\n');
export const textFile = () => Buffer.from('plain text notes\nsecond line\n');
/** a minimal PDF */
export const pdfFile = () => Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/**
 * A real upload provider package (v4 interface) storing into `providerOptions.dir`, for tests of provider
 * loading: buffer-only (`upload`, no `uploadStream`), private with signed urls, an optional byte quota, and
 * a record of the action options each call received.
 */
export const DISK_PROVIDER_SOURCE = `
const fs = require('fs');
const path = require('path');
module.exports = {
  init(options) {
    const calls = [];
    let used = 0;
    return {
      calls,
      upload(file, opts) {
        calls.push(['upload', opts]);
        if (options.quota !== undefined && used + file.buffer.length > options.quota) throw new Error('quota exceeded');
        used += file.buffer.length;
        fs.mkdirSync(options.dir, { recursive: true });
        fs.writeFileSync(path.join(options.dir, file.hash + file.ext), file.buffer);
        file.url = options.base + '/' + file.hash + file.ext;
        file.provider_metadata = { bucket: 'b' };
      },
      delete(file) { fs.rmSync(path.join(options.dir, file.hash + file.ext), { force: true }); },
      isPrivate() { return true; },
      getSignedUrl(file) { return { url: file.url + '?sig=1' }; },
    };
  },
};
`;

/** installs DISK_PROVIDER_SOURCE as `@strapi/provider-upload-diskcopy` in a project folder */
export function installDiskProvider(projectDir: string): void {
  const pkg = path.join(projectDir, 'node_modules/@strapi/provider-upload-diskcopy');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), '{"name":"@strapi/provider-upload-diskcopy","main":"index.js"}');
  fs.writeFileSync(path.join(pkg, 'index.js'), DISK_PROVIDER_SOURCE);
}
