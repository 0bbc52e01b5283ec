// Writes test/golden/upload-files.requests.json: the upload request list with its generated files embedded
// (base64), so recording against real Strapi and replaying against Tessera send the same bytes.
//   npx tsx test/golden/upload-make-requests.ts
// Requests where Tessera differs on purpose come last (upload-files.deviations.json lists them): some of
// them make real Strapi write a row that Tessera refuses, which shifts every later id.
import fs from 'node:fs';
import path from 'node:path';
import qs from 'qs';
import * as gen from '../integration/upload/fixtures';

type Req = Record<string, unknown>;
const file = (name: string, type: string, data: Buffer) => ({ name, type, base64: data.toString('base64') });
const upload = (name: string, files: ReturnType<typeof file>[], fields: Record<string, string> = {}, extra: Req = {}): Req => ({
  name, method: 'POST', url: '/api/upload', files: { files }, fields, ...extra,
});
const get = (name: string, url: string, extra: Req = {}): Req => ({ name, method: 'GET', url, ...extra });
const q = (o: Record<string, unknown>) => qs.stringify(o, { encodeValuesOnly: true });

async function main() {
  const big = file('big.jpg', 'image/jpeg', await gen.bigJpeg());
  const mid = file('mid.png', 'image/png', await gen.midPng());
  const tiny = file('tiny.png', 'image/png', await gen.tinyPng());
  const text = file('notes.txt', 'text/plain', gen.textFile());
  const pdf = file('doc.pdf', 'application/pdf', gen.pdfFile());
  const requests: Req[] = [
    upload('upload a 2000x1500 jpeg with fileInfo', [big], { fileInfo: JSON.stringify({ name: 'Big Photo.jpg', alternativeText: 'a big photo', caption: 'its caption' }) }),
    upload('upload a 400x300 png', [mid]),
    upload('upload a tiny png as public', [tiny], {}, { auth: 'none' }),
    upload('upload a text file', [text]),
    upload('upload a pdf', [pdf]),
    upload('upload two files with a fileInfo array', [file('first.txt', 'text/plain', Buffer.from('first\n')), tiny], { fileInfo: JSON.stringify([{ caption: 'first' }, { caption: 'second', alternativeText: 'tiny' }]) }),
    get('find all files', '/api/upload/files'),
    get('find png files newest first', `/api/upload/files?${q({ filters: { mime: { $eq: 'image/png' } }, sort: 'id:desc' })}`),
    get('find with fields', `/api/upload/files?${q({ fields: ['name', 'mime'], sort: ['id:asc'] })}`),
    get('find with start and limit', `/api/upload/files?${q({ start: 2, limit: 3, sort: 'id:asc' })}`),
    get('find ignores pagination', `/api/upload/files?${q({ pagination: { page: 2, pageSize: 2 }, sort: 'id:asc' })}`),
    get('find with $or', `/api/upload/files?${q({ filters: { $or: [{ name: { $eq: 'notes.txt' } }, { ext: { $eq: '.pdf' } }] }, sort: 'id:asc' })}`),
    get('find by size', `/api/upload/files?${q({ filters: { size: { $gt: 5 } }, sort: 'size:desc' })}`),
    get('find with an unknown filter', `/api/upload/files?${q({ filters: { nope: 1 } })}`),
    get('find with a private filter', `/api/upload/files?${q({ filters: { folderPath: { $eq: '/1' } } })}`),
    get('find sorted by a private field', '/api/upload/files?sort=folderPath'),
    get('find one', '/api/upload/files/4'),
    get('find one ignores fields', `/api/upload/files/4?${q({ fields: ['name'] })}`),
    get('find one missing', '/api/upload/files/9999'),
    get('find one non-numeric', '/api/upload/files/abc'),
    { name: 'update file info (json)', method: 'POST', url: '/api/upload?id=4', body: { fileInfo: { name: 'renamed.jpg', caption: 'new caption' } } },
    { name: 'update file info (multipart)', method: 'POST', url: '/api/upload?id=4', files: {}, fields: { fileInfo: JSON.stringify({ alternativeText: 'new alt' }) } },
    { name: 'update a missing file', method: 'POST', url: '/api/upload?id=9999', body: { fileInfo: { name: 'x' } } },
    upload('replace the png with a tiny png', [tiny], {}, { url: '/api/upload?id=5' }),
    upload('replace the text file with a jpeg', [big], { fileInfo: JSON.stringify({ caption: 'now a photo' }) }, { url: '/api/upload?id=7' }),
    get('find one replaced', '/api/upload/files/7'),
    upload('replace with two files', [tiny, tiny], {}, { url: '/api/upload?id=5' }),
    upload('replace a missing file', [tiny], {}, { url: '/api/upload?id=9999' }),
    { name: 'upload without files', method: 'POST', url: '/api/upload', files: {}, fields: { fileInfo: JSON.stringify({ name: 'x' }) } },
    { name: 'upload a json body', method: 'POST', url: '/api/upload', body: { fileInfo: { name: 'x' } } },
    upload('fileInfo that is not json', [tiny], { fileInfo: '{bad' }),
    upload('fileInfo array for one file', [tiny], { fileInfo: JSON.stringify([{ name: 'a.png' }]) }),
    upload('one fileInfo for two files', [tiny, text], { fileInfo: JSON.stringify({ name: 'a.png' }) }),
    upload('fileInfo name not a string', [tiny], { fileInfo: JSON.stringify({ name: { x: 1 } }) }),
    upload('fileInfo name with a slash', [tiny], { fileInfo: JSON.stringify({ name: 'a/b.png' }) }),
    upload('a corrupt jpeg', [file('broken.jpg', 'image/jpeg', await gen.corruptJpeg())]),
    upload('attach to an article gallery', [tiny], { ref: 'api::article.article', refId: '1', field: 'gallery' }),
    get('the gallery after attaching', `/api/articles/1?${q({ fields: ['title'], populate: { gallery: { fields: ['name'] } } })}`),
    upload('attach to an article cover', [mid], { ref: 'api::article.article', refId: '4', field: 'cover' }),
    get('the cover after attaching', `/api/articles/4?${q({ fields: ['title'], populate: { cover: { fields: ['name'] } } })}`),
    upload('attach to a component', [tiny], { ref: 'shared.seo', refId: '1', field: 'shareImage' }),
    get('the component after attaching', `/api/articles/1?${q({ fields: ['title'], populate: { seo: { populate: { shareImage: { fields: ['name'] } } } } })}`),
    upload('attach as public', [tiny], { ref: 'api::article.article', refId: '2', field: 'gallery' }, { auth: 'none' }),
    get('the public attach', `/api/articles/2?${q({ fields: ['title'], populate: { gallery: { fields: ['name'] } } })}`),
    { name: 'delete a file', method: 'DELETE', url: '/api/upload/files/6' },
    get('find the deleted file', '/api/upload/files/6'),
    { name: 'delete it again', method: 'DELETE', url: '/api/upload/files/6' },
    { name: 'delete as public', method: 'DELETE', url: '/api/upload/files/5', auth: 'none' },
    { name: 'delete non-numeric', method: 'DELETE', url: '/api/upload/files/abc' },
    get('find all files at the end', '/api/upload/files'),
    get('an uploaded file', '/uploads/landscape_9e07983b1e.jpg', { auth: 'none' }),
    get('a missing uploaded file', '/uploads/nope.jpg', { auth: 'none' }),
    // ---- deliberate differences (upload-files.deviations.json, docs/compatibility.md "Upload") ----
    upload('an exif-rotated jpeg', [file('exif.jpg', 'image/jpeg', await gen.exifJpeg())]),
    upload('html sent as a png', [file('evil.png', 'image/png', gen.htmlPage())]),
    upload('a png sent as octet-stream', [file('photo.png', 'application/octet-stream', await gen.midPng())]),
    get('populate related', '/api/upload/files/1?populate=related'),
    upload('png magic with garbage', [file('garbage.png', 'image/png', gen.garbagePng())]),
    upload('attach to a wrong field name', [tiny], { ref: 'api::article.article', refId: '1', field: 'nope' }),
    upload('attach to an unknown ref', [tiny], { ref: 'api::nope.nope', refId: '1', field: 'cover' }),
    upload('attach to a missing entry', [tiny], { ref: 'api::article.article', refId: '9999', field: 'cover' }),
    upload('attach a text file to an images-only field', [text], { ref: 'api::article.article', refId: '3', field: 'cover' }),
  ];
  const out = path.join(__dirname, 'upload-files.requests.json');
  fs.writeFileSync(out, JSON.stringify(requests, null, 1) + '\n');
  console.log(`${requests.length} requests -> ${out}`);
}

void main();
