// Images with sharp, as v4's image-manipulation service: the original re-encoded at quality 80 when
// `sizeOptimization` is on (v4 default), a `thumbnail` inside 245x156 and the responsive `breakpoints`
// (inside NxN) when the original is larger. Unlike v4 (autoOrientation off by default, so its re-encoded
// originals lose the EXIF tag and show sideways), EXIF orientation is always applied.
import fs from 'node:fs';
import path from 'node:path';
import type Sharp from 'sharp';
import { lazyModule } from '../../lazy-module';

/** sharp (libvips: ~8 MB resident, ~35 ms to load) on the first image upload, never for reads */
const loadSharp = lazyModule('sharp', 'image upload processing', () => {
  const sharp = require('sharp') as typeof Sharp;
  // temporary files are deleted right after processing: libvips must not keep them open in its cache
  sharp.cache({ files: 0 });
  return sharp;
});

/** formats v4 treats as images (width/height recorded), may resize, and may re-encode */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'tiff', 'svg', 'gif', 'avif']);
const RESIZE_FORMATS = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);
const OPTIMIZE_FORMATS = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif']);
/** sniffed types that must decode: a file claiming to be one of these that sharp cannot read is corrupt */
export const RASTER_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/tiff']);

export const THUMBNAIL = { key: 'thumbnail', width: 245, height: 156 } as const;

export interface ImageSettings {
  sizeOptimization: boolean;
  responsiveDimensions: boolean;
  autoOrientation: boolean;
}

export interface ImageFile {
  path: string;
  width: number | null;
  height: number | null;
  bytes: number;
}

export interface ProcessedImage extends ImageFile {
  /** thumbnail first, then the breakpoints in configuration order */
  formats: Array<ImageFile & { key: string }>;
}

export class InvalidImageError extends Error {}

interface Probe {
  format: string;
  width: number | null;
  height: number | null;
  orientation: number;
}

// each step loads sharp outside its try: a missing package is an error, not "not an image"
async function probe(file: string): Promise<Probe | null> {
  const sharp = loadSharp();
  try {
    const m = await sharp(file).metadata();
    return { format: String(m.format), width: m.width ?? null, height: m.height ?? null, orientation: m.orientation ?? 1 };
  } catch {
    return null;
  }
}

/** v4's isFaultyImage: the whole image must decode */
async function decodes(file: string): Promise<boolean> {
  const sharp = loadSharp();
  try {
    await sharp(file).stats();
    return true;
  } catch {
    return false;
  }
}

type Pipeline = ReturnType<typeof Sharp>;

function encoder(img: Pipeline, format: string, quality?: number): Pipeline {
  switch (format) {
    case 'jpeg': return img.jpeg(quality ? { quality } : {});
    case 'png': return img.png(quality ? { quality } : {});
    case 'webp': return img.webp(quality ? { quality } : {});
    case 'tiff': return img.tiff(quality ? { quality } : {});
    case 'avif': return img.avif(quality ? { quality } : {});
    case 'gif': return img.gif();
    default: return img;
  }
}

/** the original as stored: re-encoded (and turned upright) when v4's settings or an EXIF rotation call for it */
async function storedOriginal(src: string, p: Probe, dir: string, s: ImageSettings): Promise<ImageFile> {
  const rotate = p.orientation > 1 || s.autoOrientation;
  if (OPTIMIZE_FORMATS.has(p.format) && (s.sizeOptimization || rotate)) {
    const out = path.join(dir, 'original');
    let img = loadSharp()(src);
    if (rotate) img = img.rotate();
    const info = await encoder(img, p.format, s.sizeOptimization ? 80 : 100).toFile(out);
    return { path: out, width: info.width, height: info.height, bytes: info.size };
  }
  const { size } = await fs.promises.stat(src);
  return { path: src, width: p.width, height: p.height, bytes: size };
}

async function resized(src: string, format: string, out: string, width: number, height: number): Promise<ImageFile> {
  const info = await encoder(loadSharp()(src).rotate().resize({ width, height, fit: 'inside' }), format).toFile(out);
  return { path: out, width: info.width, height: info.height, bytes: info.size };
}

/**
 * The stored original and its formats, written into `dir`; null when the file is not an image v4 processes
 * (it is then stored as a plain file). Throws InvalidImageError for an image that does not decode.
 */
export async function processImage(src: string, sniffedMime: string, dir: string, s: ImageSettings, breakpoints: Record<string, number>): Promise<ProcessedImage | null> {
  const p = await probe(src);
  if (!p || !IMAGE_FORMATS.has(p.format)) {
    if (RASTER_TYPES.has(sniffedMime)) throw new InvalidImageError('File is not a valid image');
    return null;
  }
  if (!(await decodes(src))) throw new InvalidImageError('File is not a valid image');
  const original = await storedOriginal(src, p, dir, s);
  const formats: ProcessedImage['formats'] = [];
  if (RESIZE_FORMATS.has(p.format)) {
    const w = original.width ?? 0;
    const h = original.height ?? 0;
    if (w > THUMBNAIL.width || h > THUMBNAIL.height) {
      formats.push({ key: THUMBNAIL.key, ...(await resized(original.path, p.format, path.join(dir, THUMBNAIL.key), THUMBNAIL.width, THUMBNAIL.height)) });
    }
    if (s.responsiveDimensions) {
      for (const [key, size] of Object.entries(breakpoints)) {
        if (size < w || size < h) formats.push({ key, ...(await resized(original.path, p.format, path.join(dir, `bp-${key}`), size, size)) });
      }
    }
  }
  return { ...original, formats };
}
