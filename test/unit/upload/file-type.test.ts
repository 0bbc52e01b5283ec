// Sniffing the type from the bytes, and which type and extension a file is stored with.
import { describe, expect, it } from 'vitest';
import { mediaKind, sniffType, storedType } from '../../../src/plugins/upload/file-type';
import * as gen from '../../integration/upload/fixtures';

const b = (...bytes: number[]) => Buffer.from(bytes);

describe('sniffType', () => {
  it('recognizes binary formats by their signatures', async () => {
    const cases: Array<[Buffer, string]> = [
      [await gen.bigJpeg(), 'image/jpeg'],
      [await gen.tinyPng(), 'image/png'],
      [Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
      [Buffer.concat([Buffer.from('RIFF'), b(0, 0, 0, 0), Buffer.from('WEBPVP8 ')]), 'image/webp'],
      [Buffer.concat([Buffer.from('RIFF'), b(0, 0, 0, 0), Buffer.from('WAVEfmt ')]), 'audio/wav'],
      [b(0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0), 'image/tiff'],
      [Buffer.concat([b(0, 0, 0, 0x1c), Buffer.from('ftypavif')]), 'image/avif'],
      [Buffer.concat([b(0, 0, 0, 0x18), Buffer.from('ftypheic')]), 'image/heic'],
      [Buffer.concat([b(0, 0, 0, 0x18), Buffer.from('ftypisom')]), 'video/mp4'],
      [Buffer.concat([b(0, 0, 0, 0x14), Buffer.from('ftypqt  ')]), 'video/quicktime'],
      [Buffer.concat([b(0x1a, 0x45, 0xdf, 0xa3), Buffer.from('....webm')]), 'video/webm'],
      [Buffer.from('ID3\x04\x00', 'latin1'), 'audio/mpeg'],
      [Buffer.from('fLaC'), 'audio/flac'],
      [Buffer.from('OggS\x00\x02'), 'audio/ogg'],
      [gen.pdfFile(), 'application/pdf'],
      [Buffer.concat([b(0x50, 0x4b, 0x03, 0x04), Buffer.alloc(26), Buffer.from('[Content_Types].xml...word/document.xml')]), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [Buffer.concat([b(0x50, 0x4b, 0x03, 0x04), Buffer.alloc(26), Buffer.from('data.csv')]), 'application/zip'],
      [b(0x1f, 0x8b, 0x08), 'application/gzip'],
      [Buffer.from('wOF2'), 'font/woff2'],
      [b(0x7f, 0x45, 0x4c, 0x46, 2, 1), 'application/x-executable'],
      [Buffer.from('MZ\x90\x00', 'latin1'), 'application/x-msdownload'],
    ];
    for (const [bytes, mime] of cases) expect(sniffType(bytes), mime).toEqual({ mime, kind: 'binary' });
  });

  it('tells inert text from markup a browser would render', () => {
    expect(sniffType(gen.textFile())).toEqual({ mime: 'text/plain', kind: 'text' });
    expect(sniffType(Buffer.from('naïve café, 日本語\n'))).toEqual({ mime: 'text/plain', kind: 'text' });
    expect(sniffType(gen.htmlPage())).toEqual({ mime: 'text/html', kind: 'markup' });
    expect(sniffType(Buffer.from('hello <script>alert(1)</script>'))).toEqual({ mime: 'text/html', kind: 'markup' });
    expect(sniffType(Buffer.from('\ufeff  <svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({ mime: 'image/svg+xml', kind: 'markup' });
    expect(sniffType(Buffer.from('<?xml version="1.0"?><svg/>'))).toEqual({ mime: 'image/svg+xml', kind: 'markup' });
    expect(sniffType(Buffer.from('<?xml version="1.0"?><feed/>'))).toEqual({ mime: 'application/xml', kind: 'markup' });
  });

  it('calls anything else binary application/octet-stream', () => {
    expect(sniffType(b(0, 1, 2, 3, 0, 0, 0xff))).toEqual({ mime: 'application/octet-stream', kind: 'unknown' });
    expect(sniffType(Buffer.from([0xc3, 0x28]))).toEqual({ mime: 'application/octet-stream', kind: 'unknown' }); // invalid UTF-8
  });

  it('accepts a multi-byte character cut by the sniff window', () => {
    const text = Buffer.from('é'.repeat(10));
    expect(sniffType(text.subarray(0, 19)).kind).toBe('text');
  });
});

describe('storedType', () => {
  const png = { mime: 'image/png', kind: 'binary' } as const;
  it('keeps the client extension when it names the sniffed type (case kept, as v4)', () => {
    expect(storedType(png, 'photo.png')).toEqual({ mime: 'image/png', ext: '.png' });
    expect(storedType(png, 'PHOTO.PNG')).toEqual({ mime: 'image/png', ext: '.PNG' });
    expect(storedType({ mime: 'image/jpeg', kind: 'binary' }, 'a.jpeg')).toEqual({ mime: 'image/jpeg', ext: '.jpeg' });
  });

  it('replaces an extension that lies about the content', () => {
    expect(storedType(png, 'photo.jpg')).toEqual({ mime: 'image/png', ext: '.png' });
    expect(storedType(png, 'noext')).toEqual({ mime: 'image/png', ext: '.png' });
    expect(storedType({ mime: 'text/html', kind: 'markup' }, 'evil.png')).toEqual({ mime: 'text/html', ext: '.html' });
    expect(storedType({ mime: 'text/plain', kind: 'text' }, 'page.html')).toEqual({ mime: 'text/plain', ext: '.txt' });
    expect(storedType({ mime: 'text/plain', kind: 'text' }, 'x.svg')).toEqual({ mime: 'text/plain', ext: '.txt' });
    expect(storedType({ mime: 'application/octet-stream', kind: 'unknown' }, 'x.html')).toEqual({ mime: 'application/octet-stream', ext: '.bin' });
    expect(storedType({ mime: 'application/octet-stream', kind: 'unknown' }, 'x.png')).toEqual({ mime: 'application/octet-stream', ext: '.bin' });
  });

  it('lets inert text keep its own text type, markup inside or not', () => {
    expect(storedType({ mime: 'text/plain', kind: 'text' }, 'data.csv')).toEqual({ mime: 'text/csv', ext: '.csv' });
    expect(storedType({ mime: 'text/plain', kind: 'text' }, 'notes.txt')).toEqual({ mime: 'text/plain', ext: '.txt' });
    expect(storedType({ mime: 'text/html', kind: 'markup' }, 'README.md')).toEqual({ mime: 'text/markdown', ext: '.md' });
    expect(storedType({ mime: 'text/html', kind: 'markup' }, 'data.json')).toEqual({ mime: 'application/json', ext: '.json' });
    expect(storedType({ mime: 'text/plain', kind: 'text' }, 'server.log')).toEqual({ mime: 'text/plain', ext: '.log' });
  });

  it('keeps an unknown binary extension (served as a download) and narrows zip containers by extension', () => {
    expect(storedType({ mime: 'application/octet-stream', kind: 'unknown' }, 'data.parquet')).toEqual({ mime: 'application/octet-stream', ext: '.parquet' });
    expect(storedType({ mime: 'application/zip', kind: 'binary' }, 'report.xlsx')).toEqual({ mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: '.xlsx' });
    expect(storedType({ mime: 'application/zip', kind: 'binary' }, 'report.png')).toEqual({ mime: 'application/zip', ext: '.zip' });
  });
});

it('maps types to v4 media kinds', () => {
  expect(['image/png', 'video/mp4', 'audio/ogg', 'application/pdf', 'text/plain'].map(mediaKind)).toEqual(['images', 'videos', 'audios', 'files', 'files']);
});
