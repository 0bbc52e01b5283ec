// A private bucket (aws-s3 `params.ACL: 'private'`): entry answers carry presigned GET urls for every media file
// of the provider and each of its formats, as v4's upload decorator signs them through the provider's
// getSignedUrl; the upload API's own answers are signed too (v4 leaves those unsigned: a deliberate difference).
// The signature is checked here by computing AWS Signature V4 again (s3rver does not check V4 signatures, only
// the access key and the expiry), and the signed url is fetched from s3rver.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, form, post } from '../upload/app';
import * as gen from '../upload/fixtures';
import { startProvidersApp, type ProvidersApp } from './app';
import { S3RVER_CREDENTIALS, startS3Server, type S3Server } from './servers';

const BUCKET = 'media-private';
const EXPIRES = 600;
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s3: S3Server;
let t: ProvidersApp;
beforeAll(async () => {
  s3 = await startS3Server([BUCKET]);
  t = await startProvidersApp({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET, S3_ACL: 'private', S3_SIGNED_URL_EXPIRES: String(EXPIRES) });
});
afterAll(async () => {
  await t?.stop();
  await s3?.stop();
});

const hmac = (key: crypto.BinaryLike, text: string) => crypto.createHmac('sha256', key).update(text).digest();
const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
/** RFC 3986 encoding, as SigV4 wants the query */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** AWS Signature V4 of a presigned GET url (unsigned payload, host the only signed header), computed again */
function sigV4(url: URL, secretAccessKey: string): string {
  const p = url.searchParams;
  const query = [...p.entries()].filter(([k]) => k !== 'X-Amz-Signature').map(([k, v]) => [encode(k), encode(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&');
  const canonicalRequest = ['GET', url.pathname, query, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const [, day, region, service, terminator] = p.get('X-Amz-Credential')!.split('/');
  const stringToSign = ['AWS4-HMAC-SHA256', p.get('X-Amz-Date')!, [day, region, service, terminator].join('/'), sha256(canonicalRequest)].join('\n');
  const key = [day, region, service, terminator].reduce<Buffer>((k, part) => hmac(k, part), Buffer.from(`AWS4${secretAccessKey}`));
  return hmac(key, stringToSign).toString('hex');
}

/**
 * a url as real Strapi 4.26.2 signs it with this config, e.g.
 * http://127.0.0.1:4568/media-private/mid_7509e3fb28.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD
 * &X-Amz-Credential=S3RVER%2F20261126%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261126T011956Z&X-Amz-Expires=900
 * &X-Amz-Signature=53e0…&X-Amz-SignedHeaders=host&x-id=GetObject (the endpoint's port kept; 900 s by default)
 */
function expectSignedUrl(signed: string, key: string): void {
  const url = new URL(signed);
  expect(`${url.origin}${url.pathname}`).toBe(`${s3.endpoint}/${BUCKET}/${key}`);
  expect([...url.searchParams.keys()]).toEqual(['X-Amz-Algorithm', 'X-Amz-Content-Sha256', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-Signature', 'X-Amz-SignedHeaders', 'x-id']);
  const p = url.searchParams;
  expect(p.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
  expect(p.get('X-Amz-Content-Sha256')).toBe('UNSIGNED-PAYLOAD');
  expect(p.get('X-Amz-Credential')).toMatch(new RegExp(`^${S3RVER_CREDENTIALS.accessKeyId}/\\d{8}/us-east-1/s3/aws4_request$`));
  expect(p.get('X-Amz-Date')).toMatch(/^\d{8}T\d{6}Z$/);
  expect(Math.abs(Date.parse(p.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')) - Date.now())).toBeLessThan(60_000);
  expect(p.get('X-Amz-Expires')).toBe(String(EXPIRES)); // providerOptions.s3Options.params.signedUrlExpires
  expect(p.get('X-Amz-SignedHeaders')).toBe('host');
  expect(p.get('x-id')).toBe('GetObject');
  expect(p.get('X-Amz-Signature')).toBe(sigV4(url, S3RVER_CREDENTIALS.secretAccessKey));
}

let file: Obj;
let articleId: number;
describe('a private bucket', () => {
  it('answers the upload API with signed urls (v4: unsigned, docs/compatibility.md), storing them unsigned', async () => {
    const res = await post(t, form([{ name: 'big.jpg', type: 'image/jpeg', data: await gen.bigJpeg() }]));
    expect(res.status).toBe(200);
    [file] = res.body;
    expectSignedUrl(file.url, `${file.hash}.jpg`);
    expect(file).not.toHaveProperty('isUrlSigned');
    const listed = (await call(t, 'GET', `/api/upload/files/${file.id}`)).body;
    expectSignedUrl(listed.url, `${file.hash}.jpg`);
    expectSignedUrl(listed.formats.thumbnail.url, `thumbnail_${file.hash}.jpg`);
    // what the provider stored: lib-storage's path-style Location, without the endpoint's port (v4's urls too)
    expect(await t.rows('SELECT url FROM files WHERE id = ?', file.id)).toEqual([{ url: `http://127.0.0.1/${BUCKET}/${file.hash}.jpg` }]);
  });

  it('signs every media url of an entry answer (file and formats), marking them isUrlSigned as v4', async () => {
    const res = await fetch(`${t.url}/api/articles?populate=*`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'Private media', slug: 'private-media', cover: file.id, gallery: [file.id] } }),
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as Obj;
    articleId = data.id;
    const reads = [data.attributes.cover.data.attributes, data.attributes.gallery.data[0].attributes];
    const again = (await call(t, 'GET', `/api/articles/${data.id}?populate[cover]=true&populate[gallery]=true`)).body.data.attributes;
    reads.push(again.cover.data.attributes, again.gallery.data[0].attributes);
    for (const signed of reads) {
      expect(Object.keys(signed).at(-1)).toBe('isUrlSigned'); // v4 marks the file before copying it
      expect(signed.isUrlSigned).toBe(true);
      expectSignedUrl(signed.url, `${file.hash}.jpg`);
      for (const [name, format] of Object.entries<Obj>(signed.formats)) {
        expect(format.isUrlSigned).toBe(true);
        expectSignedUrl(format.url, `${name}_${file.hash}.jpg`);
      }
    }
    // the signed urls open the objects; the stored ones stay unsigned
    const served = await fetch(reads[0].url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(s3.object(BUCKET, `${file.hash}.jpg`));
    expect(await t.rows('SELECT url FROM files WHERE id = ?', file.id)).toEqual([{ url: `http://127.0.0.1/${BUCKET}/${file.hash}.jpg` }]);
  });

  it('REST populate selecting only url: unsigned and marked so, as v4 (signing needs the file\'s provider)', async () => {
    const res = await call(t, 'GET', `/api/articles/${articleId}?fields[0]=title&populate[cover][fields][0]=url`);
    expect(res.body.data.attributes.cover.data).toEqual({ id: file.id, attributes: { url: `http://127.0.0.1/${BUCKET}/${file.hash}.jpg`, isUrlSigned: false } });
  });

  /** an article's cover and the file itself through GraphQL, selecting `fields` of the file */
  async function graphqlCover(fields: string): Promise<{ cover: Obj; own: Obj }> {
    const query = `{ article(id: ${articleId}) { data { attributes { cover { data { attributes { ${fields} } } } } } }
      uploadFile(id: ${file.id}) { data { attributes { ${fields} } } } }`;
    const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const { data, errors } = (await res.json()) as Obj;
    expect(errors).toBeUndefined();
    return { cover: data.article.data.attributes.cover.data.attributes, own: data.uploadFile.data.attributes };
  }

  it('GraphQL: media of entries signed, the upload queries unsigned (unlike REST\'s upload API), as v4\'s', async () => {
    const { cover, own } = await graphqlCover('url formats provider hash ext');
    expectSignedUrl(cover.url, `${file.hash}.jpg`);
    expect(cover.formats.small.isUrlSigned).toBe(true);
    expectSignedUrl(cover.formats.small.url, `small_${file.hash}.jpg`);
    expect(own.url).toBe(`http://127.0.0.1/${BUCKET}/${file.hash}.jpg`);
    expect(own.formats.small.url).toBe(`http://127.0.0.1/${BUCKET}/small_${file.hash}.jpg`);
  });

  // v4 loads media files whole in GraphQL, so their urls are signed whatever the selection; Tessera reads the
  // selected fields only, and signing needs provider, hash and ext (the GraphQL read plan must read them)
  it('GraphQL: a cover selecting only url is signed too', async () => {
    const { cover } = await graphqlCover('url');
    expectSignedUrl(cover.url, `${file.hash}.jpg`);
  });

  it('keeps the url of a file stored by another provider as it is, only marked unsigned', async () => {
    const res = await call(t, 'GET', '/api/articles/1?populate[cover]=true');
    const cover = res.body.data.attributes.cover.data.attributes; // from the fixture data: provider local
    expect(cover).toMatchObject({ provider: 'local', isUrlSigned: false });
    expect(cover.url).toMatch(/^\/uploads\//);
  });
});
