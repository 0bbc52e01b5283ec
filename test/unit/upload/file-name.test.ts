// v4's naming and size helpers: hashes from slugified names, valid file names, KB sizes.
import { describe, expect, it } from 'vitest';
import { bytesToHumanReadable, bytesToKbytes, generateHash, hashBaseName, isSafeStorageKey, isValidFileName, slugifyName } from '../../../src/plugins/upload/file-name';

describe('slugifyName', () => {
  it('gives what v4 (@sindresorhus/slugify, separator "_", case kept) gives for these names', () => {
    // recorded with @sindresorhus/slugify from Strapi 4.26.2's node_modules
    const recorded: Array<[string, string]> = [
      ['My Photo', 'My_Photo'], ['myPhotoABC', 'my_Photo_ABC'], ['été à Paris', 'ete_a_Paris'], ['foo--bar__baz', 'foo_bar_baz'],
      ['Ünïcödé ßtraße', 'Uenicoede_sstrasse'], ['a.b.c', 'a_b_c'], ['  x  ', 'x'], ['😀smile', 'smile'], ['x&y', 'x_and_y'],
      ['100%', '100'], ['HTMLFile', 'HTML_File'], ['über-Größe', 'ueber_Groesse'], ['I♥Dogs', 'I_love_Dogs'],
    ];
    for (const [name, slug] of recorded) expect(slugifyName(name), name).toBe(slug);
  });
});

describe('hashes', () => {
  it('is `<slug>_<10 hex>`, different every time', () => {
    const a = generateHash('Big Photo');
    expect(a).toMatch(/^Big_Photo_[0-9a-f]{10}$/);
    expect(generateHash('Big Photo')).not.toBe(a);
  });

  it('takes the base name without the uploaded file\'s extension (v4)', () => {
    expect(hashBaseName('photo.jpg', '.jpg')).toBe('photo');
    expect(hashBaseName('renamed', '.jpg')).toBe('renamed');
    expect(hashBaseName('archive.tar.gz', '.gz')).toBe('archive.tar');
  });
});

describe('file names', () => {
  it('refuses path separators, control characters, reserved and overlong names', () => {
    for (const bad of ['', 'a/b.png', 'a\\b.png', 'a\u0000.png', 'x:y', '..', '.', 'CON', 'lpt1', 'a'.repeat(256), 'a<b', 'a|b']) {
      expect(isValidFileName(bad), JSON.stringify(bad)).toBe(false);
    }
    for (const ok of ['photo.png', 'été.jpg', 'a b (1).pdf', '.hidden', 'x'.repeat(255)]) expect(isValidFileName(ok), ok).toBe(true);
  });

  it('keeps storage keys inside the uploads folder', () => {
    expect(isSafeStorageKey('photo_0123456789.png')).toBe(true);
    for (const bad of ['../x.png', '.hidden', 'a/b', '', '..']) expect(isSafeStorageKey(bad), bad).toBe(false);
  });
});

describe('sizes', () => {
  it('are KB with two decimals, and human sizes as v4 prints them', () => {
    expect([bytesToKbytes(8818), bytesToKbytes(484), bytesToKbytes(200_000_000), bytesToKbytes(5)]).toEqual([8.82, 0.48, 200000, 0.01]);
    expect([bytesToHumanReadable(20000), bytesToHumanReadable(1_000_000_000), bytesToHumanReadable(1500), bytesToHumanReadable(0)]).toEqual(['20 KB', '1 GB', '2 KB', '0 Bytes']);
  });
});
