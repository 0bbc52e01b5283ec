#!/usr/bin/env node
// Writes the request lists of the query-parameter golden files (test/golden/query-*.requests.json):
//   node test/golden/query-build-requests.mjs
// then record each on a fresh real Strapi 4.26.2 (see docs in test/helpers/golden.ts). URLs are built the
// way client libraries build them: qs.stringify(query, { encodeValuesOnly: true }).
import fs from 'node:fs';
import path from 'node:path';
import qs from 'qs';

const here = path.dirname(new URL(import.meta.url).pathname);
const url = (base, query) => `${base}?${qs.stringify(query, { encodeValuesOnly: true })}`;
const get = (name, u) => ({ name, method: 'GET', url: u });
const write = (file, list) => {
  const names = new Set();
  for (const r of list) {
    if (names.has(r.name)) throw new Error(`duplicate request name ${r.name}`);
    names.add(r.name);
  }
  fs.writeFileSync(path.join(here, `${file}.requests.json`), `${JSON.stringify(list, null, 1)}\n`);
  console.log(`${file}: ${list.length} requests`);
};

// Entries with mixed case, non-ASCII letters, LIKE wildcards and NULLs in every nullable column.
const seed = [
  { title: 'Äpfel ÜBER straße', slug: 'case-1', body: 'ÉCOLE élève Ωmega', views: 7, rating: null, price: 1.5, featured: true, kind: 'news',
    publishDate: '2024-12-31', scheduledAt: '2026-01-15T08:00:00.000Z', meta: { tags: ['Äpfel'], n: 1 }, big: '9007199254740993' },
  { title: 'MiXeD Case Title', slug: 'case-2', body: '100% _under_ back\\slash', views: 1475, rating: 4.3, price: 915.33, featured: false, kind: 'review',
    publishDate: '2025-01-01', scheduledAt: '2026-01-15T09:00:00.000Z', meta: { tags: ['MiXeD'], n: 2 }, big: '-5' },
  { title: 'naïve café', slug: 'case-3', body: null, views: null, rating: null, price: null, featured: null, kind: null,
    publishDate: null, scheduledAt: null, meta: null, big: null },
];
const seedRequests = seed.map((data, i) => ({ name: `seed ${i + 1}`, method: 'POST', url: '/api/articles', body: { data } }));

const OPS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi',
  '$notContainsi', '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi'];

// one typical value per attribute (lists for $in/$notIn/$between), plus values worth a request of their own
const TYPES = {
  title: { v: 'dune dune 1', list: ['dune dune 1', 'jade jade 6'], range: ['a', 'c'], part: 'dune', extra: ['DUNE DUNE 1', 'Dune', 'äpfel', 'Äpfel', 'ÄPFEL', 'über', 'ÜBER', 'STRASSE', 'straße', 'MiXeD', 'mixed', 'NAÏVE', 'naïve', 'CAFÉ', 'café', ''] },
  slug: { v: 'art-5', list: ['art-5', 'case-2'], range: ['art-1', 'art-2'], part: 'art-1', extra: ['ART-5', 'Art-5', 'CASE'] },
  body: { v: 'Body 5: dune basil 5', list: ['Body 5: dune basil 5'], range: ['Body 1', 'Body 2'], part: 'basil', extra: ['école', 'ÉCOLE', 'Élève', 'élève', 'ωmega', 'ΩMEGA', 'BACK\\SLASH', 'back\\slash'] },
  views: { v: '1475', list: ['151', '4013', '1475'], range: ['1000', '2000'], part: '47', extra: ['1475.0', '1e3', '', '0x10', ' 1475 ', '-1'] },
  rating: { v: '4.3', list: ['4.3', '0.4'], range: ['1', '2'], part: '.3', extra: ['4.30', '0'] },
  price: { v: '915.33', list: ['915.33', '9.98'], range: ['10', '100'], part: '.33', extra: ['915.330', '1.5'] },
  featured: { v: 'true', list: ['true', 'false'], range: ['0', '1'], part: 'true', extra: ['false', 't', 'f', '1', '0', 'TRUE', 'yes', ''] },
  kind: { v: 'news', list: ['news', 'review'], range: ['news', 'opinion'], part: 'ew', extra: ['NEWS', 'News', 'nope'] },
  publishDate: { v: '2025-01-01', list: ['2025-01-01', '2025-02-02'], range: ['2025-01-01', '2025-03-31'], part: '2025-01', extra: ['2025-01-01T10:00:00.000Z', '2024-12-31'] },
  scheduledAt: { v: '2026-01-15T08:00:00.000Z', list: ['2026-01-15T08:00:00.000Z', '1781510400000'], range: ['2026-01-01', '2026-03-31'], part: '1768', extra: ['1768464000000', '2026-01-15T09:00:00+01:00', '2026-01-15T08:00:00Z', '2026-06-01'] },
  meta: { v: '{"i":0,"tags":["pearl"]}', list: ['x', 'y'], range: ['a', 'z'], part: 'pearl', extra: ['Äpfel', 'äpfel', '"i":5'] },
  big: { v: '1000000000005', list: ['1000000000005', '9007199254740993'], range: ['1000000000050', '1000000000059'], part: '0005', extra: ['9007199254740993', '-5', '1000000000005.0'] },
  id: { v: '5', list: ['1', '2', '61'], range: ['3', '6'], part: '1', extra: ['05', 'abc', ' 5'] },
};

function opValue(t, op) {
  if (op === '$in' || op === '$notIn') return t.list;
  if (op === '$between') return t.range;
  if (op === '$null' || op === '$notNull') return 'true';
  if (/contains|startsWith|endsWith/i.test(op)) return t.part;
  return t.v;
}

// v4 leaves the order of an unsorted list to the query plan (an index scan can return slug order): these
// lists sort by id so that they compare which entries match; the default order has requests of its own
const list = (extra = {}) => ({ fields: ['slug'], sort: 'id', pagination: { pageSize: 100 }, publicationState: 'preview', ...extra });
const A = '/api/articles';

function operatorRequests() {
  const out = [...seedRequests];
  for (const [field, t] of Object.entries(TYPES)) {
    for (const op of OPS) out.push(get(`${field} ${op}`, url(A, list({ filters: { [field]: { [op]: opValue(t, op) } } }))));
    out.push(get(`${field} implicit eq`, url(A, list({ filters: { [field]: t.v } }))));
    out.push(get(`${field} implicit in`, url(A, list({ filters: { [field]: t.list } }))));
    out.push(get(`${field} $not $eq`, url(A, list({ filters: { [field]: { $not: { $eq: t.v } } } }))));
    out.push(get(`${field} $not value`, url(A, list({ filters: { [field]: { $not: t.v } } }))));
    out.push(get(`${field} top $not`, url(A, list({ filters: { $not: { [field]: { $eq: t.v } } } }))));
    out.push(get(`${field} $null false`, url(A, list({ filters: { [field]: { $null: 'false' } } }))));
    out.push(get(`${field} $notNull false`, url(A, list({ filters: { [field]: { $notNull: 'false' } } }))));
    out.push(get(`${field} $eq list`, url(A, list({ filters: { [field]: { $eq: t.list } } }))));
    out.push(get(`${field} $ne list`, url(A, list({ filters: { [field]: { $ne: t.list } } }))));
    out.push(get(`${field} $in single`, url(A, list({ filters: { [field]: { $in: t.v } } }))));
    out.push(get(`${field} no value`, `${A}?filters[${field}]&fields[0]=slug&sort=id&pagination[pageSize]=100&publicationState=preview`));
    out.push(get(`${field} $eq no value`, `${A}?filters[${field}][$eq]&fields[0]=slug&sort=id&pagination[pageSize]=100&publicationState=preview`));
    out.push(get(`${field} $ne no value`, `${A}?filters[${field}][$ne]&fields[0]=slug&sort=id&pagination[pageSize]=100&publicationState=preview`));
    t.extra.forEach((v, i) => {
      for (const op of ['$eq', '$eqi', '$ne', '$containsi', '$startsWith', '$lt']) {
        out.push(get(`${field} extra ${i} ${op}`, url(A, list({ filters: { [field]: { [op]: v } } }))));
      }
    });
  }
  // $null / $notNull values, as v4 casts them
  for (const v of ['true', 'false', 't', 'f', '1', '0', 'TRUE', 'FALSE', 'yes', '']) {
    out.push(get(`rating $null value ${v || "empty"}`, url(A, list({ filters: { rating: { $null: v } } }))));
  }
  out.push(get('rating $null no value', `${A}?filters[rating][$null]&fields[0]=slug&sort=id&pagination[pageSize]=100&publicationState=preview`));
  // values v4 lets fail (500) or compare across types; Tessera answers 400 (deviations)
  for (const [field, v] of [['views', 'abc'], ['rating', 'x1'], ['price', '1,5'], ['big', 'abc'], ['big', '']]) {
    out.push(get(`${field} bad number ${v || 'empty'}`, url(A, list({ filters: { [field]: { $gt: v } } }))));
  }
  for (const [field, v] of [['publishDate', 'nope'], ['publishDate', '2025-02-30'], ['publishDate', '2025-02'], ['scheduledAt', 'nope'], ['scheduledAt', '2026-13-01']]) {
    out.push(get(`${field} bad date ${v}`, url(A, list({ filters: { [field]: { $eq: v } } }))));
  }
  out.push(get('between one value', url(A, list({ filters: { views: { $between: '5' } } }))));
  out.push(get('between three values', url(A, list({ filters: { views: { $between: ['1', '2', '3'] } } }))));
  // LIKE wildcards are literal characters in Tessera (deviation)
  for (const v of ['%', '_', '100%', '_under_', '%under%']) {
    for (const op of ['$contains', '$eqi', '$startsWith']) out.push(get(`wildcard ${v} ${op}`, url(A, list({ filters: { body: { [op]: v } } }))));
  }
  // unknown and misplaced operators
  out.push(get('unknown operator at root', url(A, list({ filters: { $foo: '1' } }))));
  out.push(get('unknown operator on attribute', url(A, list({ filters: { title: { $foo: '1' } } }))));
  out.push(get('uppercase operator', url(A, list({ filters: { title: { $EQ: 'dune dune 1' } } }))));
  out.push(get('unknown operator under $and', url(A, list({ filters: { $and: [{ $foo: '1' }] } }))));
  out.push(get('unknown operator on id', url(A, list({ filters: { id: { $foo: '1' } } }))));
  out.push(get('attribute operator at root', url(A, list({ filters: { $eq: '1' } }))));
  out.push(get('attribute name under attribute', url(A, list({ filters: { title: { views: '1' } } }))));
  out.push(get('column name in filters', url(A, list({ filters: { publish_date: '2025-01-01' } }))));
  out.push(get('filters as a string', `${A}?filters=abc&fields[0]=slug`));
  out.push(get('$and/$or combination', url(A, list({ filters: { $or: [{ views: { $lt: 500 } }, { $and: [{ kind: 'news' }, { featured: true }] }] } }))));
  out.push(get('$not $or', url(A, list({ filters: { $not: { $or: [{ kind: 'news' }, { rating: { $gt: 4 } }] } } }))));
  out.push(get('$not $and', url(A, list({ filters: { $not: { $and: [{ kind: 'news' }, { rating: { $gt: 4 } }] } } }))));
  out.push(get('double $not', url(A, list({ filters: { $not: { $not: { kind: 'news' } } } }))));
  out.push(get('array of filters', url(A, list({ filters: [{ kind: 'news' }, { featured: true }] }))));
  out.push(get('$or with more than 100 items', url(A, list({ filters: { $or: Array.from({ length: 101 }, (_, i) => ({ views: i })) } }))));
  out.push(get('$in with more than 100 items on id', url(A, list({ filters: { id: { $in: Array.from({ length: 101 }, (_, i) => i + 1) } } }))));
  out.push(get('$in with more than 100 items on views', url(A, list({ filters: { views: { $in: Array.from({ length: 101 }, (_, i) => i) } } }))));
  return out;
}

function deepRequests() {
  const out = [];
  const d = (name, filters, base = A, extra = {}) => out.push(get(name, url(base, { fields: [base === A ? 'slug' : 'name'], sort: 'id', pagination: { pageSize: 100 }, filters, ...extra })));
  // manyToOne
  d('author name', { author: { name: { $eq: 'Author amber' } } });
  d('author name $ne', { author: { name: { $ne: 'Author amber' } } });
  d('author name $containsi', { author: { name: { $containsi: 'AMBER' } } });
  d('author name $null', { author: { name: { $null: true } } });
  d('author name $notNull', { author: { name: { $notNull: true } } });
  d('author id', { author: { id: 2 } });
  d('author implicit id', { author: '2' });
  d('author id list', { author: ['1', '2'] });
  d('author $in', { author: { $in: ['1', '2'] } });
  d('author $notIn', { author: { $notIn: ['1', '2'] } });
  d('author $eq', { author: { $eq: '3' } });
  d('author $ne', { author: { $ne: '3' } });
  d('author $null', { author: { $null: true } });
  d('author $null false', { author: { $null: 'false' } });
  d('author $notNull', { author: { $notNull: true } });
  d('author id $null', { author: { id: { $null: true } } });
  d('author two conditions one row', { author: { name: { $startsWith: 'Author' }, email: { $endsWith: '1@example.com' } } });
  d('author email', { author: { email: { $eq: 'author3@example.com' } } });
  d('$not author name', { $not: { author: { name: { $eq: 'Author amber' } } } });
  d('$not author id', { $not: { author: { id: '1' } } });
  d('$not author $null', { $not: { author: { $null: true } } });
  d('$not author name $null', { $not: { author: { name: { $null: true } } } });
  d('author name $not', { author: { name: { $not: { $eq: 'Author amber' } } } });
  d('author $or inside', { author: { $or: [{ name: 'Author amber' }, { name: 'Author basil' }] } });
  d('author $and inside', { author: { $and: [{ name: { $startsWith: 'Author' } }, { id: { $lt: 3 } }] } });
  d('$or author or scalar', { $or: [{ author: { name: 'Author amber' } }, { views: { $lt: 500 } }] });
  d('$not $or author or scalar', { $not: { $or: [{ author: { name: 'Author amber' } }, { views: { $lt: 500 } }] } });
  d('author private field', { author: { secret: { $eq: 'secret-0' } } });
  d('author private field $startsWith', { author: { secret: { $startsWith: 'secret' } } });
  d('author unknown field', { author: { nope: 'x' } });
  d('author unknown operator', { author: { $foo: '1' } });
  d('author unknown operator on field', { author: { name: { $foo: '1' } } });
  d('author createdBy', { author: { createdBy: { id: 1 } } });
  d('createdBy', { createdBy: { id: 1 } });
  d('createdBy firstname', { createdBy: { firstname: { $startsWith: 'a' } } });
  d('updatedBy', { updatedBy: { $null: true } });
  // manyToMany
  d('categories slug', { categories: { slug: { $eq: 'cat-kelp' } } });
  d('categories slug $ne', { categories: { slug: { $ne: 'cat-kelp' } } });
  d('categories slug $notIn', { categories: { slug: { $notIn: ['cat-kelp', 'cat-pearl'] } } });
  d('$not categories slug', { $not: { categories: { slug: { $eq: 'cat-kelp' } } } });
  d('categories two mentions', { $and: [{ categories: { slug: 'cat-kelp' } }, { categories: { slug: 'cat-pearl' } }] });
  d('categories one mention two conditions', { categories: { slug: 'cat-kelp', name: 'Cat pearl' } });
  d('categories priority range', { categories: { priority: { $between: [10, 30] } } });
  d('categories priority $gt and $lt', { categories: { priority: { $gt: 10, $lt: 40 } } });
  d('categories $null', { categories: { $null: true } });
  d('categories $notNull', { categories: { $notNull: true } });
  d('categories id $in', { categories: { id: { $in: [1, 2] } } });
  d('categories $in', { categories: { $in: [1, 2] } });
  d('categories name $null', { categories: { name: { $null: true } } });
  d('$not categories $null', { $not: { categories: { $null: true } } });
  // oneToMany, oneToOne
  d('related title', { related: { title: { $contains: 'jade' } } });
  d('related $null', { related: { $null: true } });
  d('$not related title', { $not: { related: { title: { $contains: 'jade' } } } });
  d('editorPick title', { editorPick: { title: { $contains: 'dune' } } });
  d('editorPick $notNull', { editorPick: { $notNull: true } });
  d('editorPick related title', { editorPick: { related: { title: { $contains: 'a' } } } });
  // deep chains
  d('author articles categories slug', { author: { articles: { categories: { slug: { $eq: 'cat-kelp' } } } } });
  d('author articles title', { author: { articles: { title: { $startsWith: 'jade' } } } });
  d('categories articles author name', { categories: { articles: { author: { name: 'Author amber' } } } });
  d('$not deep chain', { $not: { author: { articles: { categories: { slug: 'cat-kelp' } } } } });
  d('deep chain $null', { author: { articles: { categories: { slug: { $null: true } } } } });
  // components
  d('seo metaTitle', { seo: { metaTitle: { $eq: 'SEO 1' } } });
  d('seo metaTitle $startsWith', { seo: { metaTitle: { $startsWith: 'SEO 1' } } });
  d('seo metaTitle $null', { seo: { metaTitle: { $null: true } } });
  d('seo $null', { seo: { $null: true } });
  d('seo $notNull', { seo: { $notNull: true } });
  d('$not seo metaTitle', { $not: { seo: { metaTitle: { $eq: 'SEO 1' } } } });
  d('seo shareImage name', { seo: { shareImage: { name: { $eq: 'landscape.jpg' } } } });
  d('links label', { links: { label: { $eq: 'L1' } } });
  d('links url', { links: { url: { $endsWith: '/1' } } });
  d('$not links label', { $not: { links: { label: 'L1' } } });
  d('links label and url', { links: { label: 'L1', url: { $contains: '/2/' } } });
  d('links unknown field', { links: { nope: 'x' } });
  // media
  d('cover name', { cover: { name: { $eq: 'portrait.png' } } });
  d('cover $null', { cover: { $null: true } });
  d('cover id', { cover: '2' });
  d('gallery mime', { gallery: { mime: { $contains: 'png' } } });
  d('gallery $notNull', { gallery: { $notNull: true } });
  d('$not gallery mime', { $not: { gallery: { mime: { $contains: 'png' } } } });
  d('cover width', { cover: { width: { $gt: 100 } } });
  d('cover related (morph)', { cover: { related: { id: 1 } } });
  d('cover folder', { cover: { folder: { $null: true } } });
  // dynamic zones and morphs: 400
  d('blocks', { blocks: { id: 1 } });
  d('blocks body', { blocks: { body: { $contains: 'x' } } });
  // from the other side
  d('authors articles title', { articles: { title: { $contains: 'jade' } } }, '/api/authors');
  d('authors $not articles title', { $not: { articles: { title: { $contains: 'jade' } } } }, '/api/authors');
  d('authors articles $null', { articles: { $null: true } }, '/api/authors');
  d('authors avatar $null', { avatar: { $null: true } }, '/api/authors');
  d('authors secret', { secret: { $null: false } }, '/api/authors');
  d('authors $or secret', { $or: [{ name: 'x' }, { secret: 'secret-1' }] }, '/api/authors');
  d('categories articles author', { articles: { author: { name: { $eq: 'Author amber' } } } }, '/api/categories');
  d('categories articles $null', { articles: { $null: true } }, '/api/categories');
  // precedence of v4's rules: an unknown key is reported before a private one, wherever it is
  d('private then unknown', { author: { secret: 'x' }, nope: '1' });
  d('unknown then private', { nope: '1', author: { secret: 'x' } });
  d('dynamic zone then private', { author: { secret: 'x' }, blocks: { id: 1 } });
  d('private then bad value', { views: { $gt: 'abc' }, author: { secret: 'x' } });
  d('bad value then unknown field in sort', { views: { $gt: 'abc' } }, A, { sort: 'nope' });
  d('bad date and unknown sort', { publishDate: 'nope' }, A, { sort: 'nope' });
  // _q
  for (const q of ['jade', 'JADE ember', '4013', '1000000000005', 'news', 'Äpfel', 'äpfel', '']) {
    out.push(get(`_q ${q || 'empty'}`, url(A, { _q: q, fields: ['slug'], sort: 'id', pagination: { pageSize: 100 } })));
  }
  out.push(get('_q with filters', url(A, { _q: 'jade', filters: { views: { $gt: 2000 } }, fields: ['slug'] })));
  out.push(get('_q authors', url('/api/authors', { _q: 'Author', fields: ['name'] })));
  out.push(get('_q private value', url('/api/authors', { _q: 'secret-3', fields: ['name'] })));
  out.push(get('_q wildcard', url('/api/authors', { _q: '_ecret', fields: ['name'] })));
  // findOne, single types and writes validate filters too
  out.push(get('findOne with unknown filter', url(`${A}/1`, { filters: { nope: 'x' }, fields: ['slug'] })));
  out.push(get('findOne ignores filters', url(`${A}/1`, { filters: { slug: 'nope' }, fields: ['slug'] })));
  out.push(get('findOne with unknown sort', url(`${A}/1`, { sort: 'nope', fields: ['slug'] })));
  out.push(get('single type filter match', url('/api/homepage', { filters: { title: 'Welcome' }, fields: ['title'] })));
  out.push(get('single type filter miss', url('/api/homepage', { filters: { title: 'nope' } })));
  out.push(get('single type unknown filter', url('/api/homepage', { filters: { nope: '1' } })));
  out.push({ name: 'create with unknown filter', method: 'POST', url: url(A, { filters: { nope: '1' } }), body: { data: { title: 'x' } } });
  out.push({ name: 'delete with unknown filter', method: 'DELETE', url: url(`${A}/1`, { filters: { nope: '1' } }) });
  out.push(get('deleted entry still there', url(`${A}/1`, { fields: ['slug'] })));
  // public role: relations whose target it cannot read
  out.push({ ...get('public filter through author', url(A, { filters: { author: { name: 'Author amber' } }, fields: ['slug'] })), auth: 'none' });
  out.push({ ...get('public filter through cover', url(A, { filters: { cover: { name: 'portrait.png' } }, fields: ['slug'] })), auth: 'none' });
  return out;
}

function sortPaginationRequests() {
  const out = [];
  const s = (name, sort, extra = {}) => out.push(get(name, url(A, { sort, fields: ['slug'], pagination: { pageSize: 12 }, ...extra })));
  s('title', 'title');
  s('title:desc', 'title:desc');
  s('title:DESC', 'title:DESC');
  s('title:Asc', 'title:Asc');
  s('comma list', 'kind:asc,views:desc');
  s('comma list with spaces', ' kind , views:desc ');
  s('comma list with empty part', ',views');
  s('array of strings', ['kind:desc', 'title']);
  s('array with comma strings', ['kind,views:desc']);
  s('object', { views: 'desc' });
  s('object uppercase', { title: 'DESC' });
  s('array of objects', [{ kind: 'asc' }, { views: 'desc' }]);
  s('object two keys', { kind: 'desc', title: 'asc' });
  s('relation object', { author: { name: 'desc' } });
  s('relation dotted', 'author.name:desc');
  s('relation dotted asc', 'author.name');
  s('relation email', 'author.email:asc');
  s('relation then scalar', ['author.name:asc', 'views:desc']);
  s('component dotted', 'seo.metaTitle:desc');
  s('component object', { seo: { metaTitle: 'asc' } });
  s('media dotted', 'cover.name:desc');
  s('oneToOne dotted', 'editorPick.title:asc');
  s('deep to-one chain', 'editorPick.author.name:desc');
  s('id desc', 'id:desc');
  s('nullable asc', 'scheduledAt');
  s('nullable desc', 'scheduledAt:desc');
  s('kind ties', 'kind');
  s('kind ties desc', 'kind:desc');
  s('boolean', 'featured:desc');
  s('date', 'publishDate');
  s('decimal', 'price:desc');
  s('biginteger', 'big:desc');
  s('json', 'meta');
  s('createdAt', 'createdAt:desc');
  s('extra colon part', 'title:desc:x');
  s('empty sort', '');
  s('bad direction', 'title:up');
  s('direction with space', 'views: desc');
  s('empty field', ':desc');
  s('trailing colon', 'title:');
  s('object bad direction', { title: 'up' });
  s('nested bad direction', { author: { name: 'sideways' } });
  s('relation without field', 'author');
  s('relation with direction only', 'author:desc');
  s('relation object with direction', { author: 'asc' });
  s('relation object with field name', { author: 'name' });
  s('unknown', 'nope');
  s('unknown in list', 'title,nope');
  s('unknown nested', 'author.nope');
  s('private', 'author.secret');
  s('private top', { createdBy: { id: 'asc' } });
  s('dynamic zone', 'blocks.body');
  s('scalar path', 'title.x');
  s('uppercase id', 'ID');
  s('number', '5');
  s('column name', 'publish_date');
  s('mixed array', ['title', { views: 'desc' }]);
  out.push(get('sort null value', `${A}?sort[title]&fields[0]=slug&pagination[pageSize]=3`));
  out.push(get('sort no value', `${A}?sort&fields[0]=slug&pagination[pageSize]=3`));
  out.push(get('sort authors private', url('/api/authors', { sort: 'secret' })));
  out.push(get('sort categories by articles', url('/api/categories', { sort: 'articles.title', fields: ['name'] })));
  // to-many sorts: v4 repeats an entry once per related value (deviation)
  s('to-many categories', 'categories.name:asc', { pagination: { pageSize: 100 } });
  s('to-many links', 'links.label:desc', { pagination: { pageSize: 100 } });

  const p = (name, pagination, extra = {}) => out.push(get(name, url(A, { fields: ['slug'], pagination, ...extra })));
  const raw = (name, query) => out.push(get(name, `${A}?fields[0]=slug&${query}`));
  p('page 2 size 10', { page: 2, pageSize: 10 });
  p('page only', { page: 3 });
  p('pageSize only', { pageSize: 7 });
  p('last page', { page: 6, pageSize: 10 });
  p('page past the end', { page: 50, pageSize: 10 });
  p('page 0', { page: 0, pageSize: 5 });
  p('page -1', { page: -1, pageSize: 5 });
  p('pageSize 0', { pageSize: 0 });
  p('pageSize -1', { pageSize: -1 });
  p('pageSize over max', { pageSize: 1000 });
  p('pageSize max', { pageSize: 100 });
  p('page as text', { page: 'abc' });
  p('pageSize as text', { pageSize: 'abc' });
  p('page fraction', { page: '1.5', pageSize: 5 });
  p('pageSize empty', { pageSize: '' });
  p('page empty', { page: '', pageSize: 5 });
  raw('pageSize no value', 'pagination[pageSize]');
  raw('page no value', 'pagination[page]&pagination[pageSize]=4');
  p('start and limit', { start: 10, limit: 5 });
  p('start only', { start: 55 });
  p('limit only', { limit: 4 });
  p('limit -1', { limit: -1 });
  p('limit 0', { limit: 0 });
  p('limit over max', { limit: 500 });
  p('limit -5', { limit: -5 });
  p('start -5', { start: -5, limit: 3 });
  p('start past the end', { start: 100, limit: 3 });
  p('start as text', { start: 'x', limit: 3 });
  p('limit as text', { limit: 'x' });
  p('limit fraction', { limit: '2.5' });
  p('start fraction', { start: '1.5', limit: 2 });
  p('start empty', { start: '', limit: 2 });
  raw('limit no value', 'pagination[limit]');
  p('mixed page and start', { page: 1, start: 0 });
  p('mixed pageSize and limit', { pageSize: 5, limit: 5 });
  p('withCount false page', { withCount: 'false', pageSize: 3 });
  p('withCount false offset', { withCount: 'false', limit: 3 });
  p('withCount f', { withCount: 'f', pageSize: 2 });
  p('withCount 0', { withCount: '0', pageSize: 2 });
  p('withCount true', { withCount: 'true', pageSize: 2 });
  p('withCount t', { withCount: 't', pageSize: 2 });
  p('withCount 1', { withCount: '1', pageSize: 2 });
  p('withCount TRUE', { withCount: 'TRUE', pageSize: 2 });
  p('withCount bad', { withCount: 'x', pageSize: 2 });
  p('withCount alone false', { withCount: 'false' });
  raw('withCount no value', 'pagination[withCount]&pagination[pageSize]=2');
  raw('pagination not an object', 'pagination=5');
  raw('pagination array', 'pagination[0]=5');
  p('pagination with filters', { page: 2, pageSize: 5 }, { filters: { kind: 'news' } });
  p('pagination with relation filter', { page: 2, pageSize: 5 }, { filters: { categories: { slug: 'cat-kelp' } } });
  p('pagination with sort', { page: 2, pageSize: 5 }, { sort: 'views:desc' });
  p('pagination offset with sort', { start: 3, limit: 4 }, { sort: ['kind', 'title:desc'] });
  p('pagination preview', { pageSize: 100 }, { publicationState: 'preview' });
  // no sort: v4's order is the query plan's (here the slug index's); Tessera's is always id order (deviation)
  p('default order filtered on an indexed column', { pageSize: 100 }, { filters: { slug: { $gt: 'art-5' } } });
  p('default order filtered through a relation', { pageSize: 100 }, { filters: { $and: [{ categories: { slug: 'cat-kelp' } }, { categories: { slug: 'cat-pearl' } }] } });
  p('default order', { pageSize: 100 });
  out.push(get('categories page size 2', url('/api/categories', { fields: ['name'], pagination: { page: 2, pageSize: 2 } })));
  out.push(get('categories limit -1', url('/api/categories', { fields: ['name'], pagination: { limit: -1 } })));
  return out;
}

function fieldsRequests() {
  const out = [];
  const f = (name, fields, base = A, extra = {}) => out.push(get(name, url(base, { fields, pagination: { pageSize: 2 }, ...extra })));
  const raw = (name, query, base = A) => out.push(get(name, `${base}?pagination[pageSize]=2&${query}`));
  f('one field string', 'title');
  f('one field array', ['title']);
  f('several fields', ['title', 'views', 'publishDate']);
  f('id only', ['id']);
  f('id and title', ['id', 'title']);
  f('star', '*');
  f('star in array', ['*']);
  f('star with field', ['title', '*']);
  f('comma string', 'title,slug');
  f('comma in array item', ['title,slug']);
  f('spaces', ' title ');
  f('spaces in array', [' title', 'slug ']);
  f('duplicates', ['title', 'title']);
  f('timestamps', ['createdAt', 'updatedAt', 'publishedAt']);
  f('every scalar type', ['title', 'slug', 'body', 'views', 'rating', 'price', 'featured', 'kind', 'publishDate', 'scheduledAt', 'meta', 'big']);
  f('column name', ['publish_date']);
  f('column name and attribute', ['publish_date', 'publishDate']);
  f('relation', ['author']);
  f('to-many relation', ['categories']);
  f('component', ['seo']);
  f('repeatable component', ['links']);
  f('dynamic zone', ['blocks']);
  f('media', ['cover']);
  f('unknown', ['nope']);
  f('unknown and relation', ['nope', 'author']);
  f('createdBy', ['createdBy']);
  f('private', ['secret'], '/api/authors');
  f('private and unknown', ['secret', 'nope'], '/api/authors');
  f('authors fields', ['name', 'email'], '/api/authors');
  f('empty item', ['']);
  raw('empty string', 'fields=');
  raw('no value', 'fields');
  raw('object', 'fields[title]=1');
  raw('mixed array', 'fields[0]=title&fields[1][a]=b');
  f('with populate', ['title'], A, { populate: { author: { fields: ['name'] } } });
  f('populate fields string', ['title'], A, { populate: { author: { fields: 'name' } } });
  f('populate fields comma string', ['title'], A, { populate: { author: { fields: 'name,email' } } });
  f('populate fields star', ['title'], A, { populate: { author: { fields: '*' } } });
  f('populate fields private', ['title'], A, { populate: { author: { fields: ['secret'] } } });
  f('populate fields relation', ['title'], A, { populate: { author: { fields: ['articles'] } } });
  f('populate fields column name', ['title'], A, { populate: { cover: { fields: ['alternative_text'] } } });
  f('populate component fields', ['title'], A, { populate: { seo: { fields: ['metaTitle'] } } });
  f('populate media fields', ['title'], A, { populate: { cover: { fields: ['name', 'url'] } } });
  f('populate filters private', ['title'], A, { populate: { author: { filters: { secret: 'x' } } } });
  f('populate filters unknown operator', ['title'], A, { populate: { categories: { filters: { name: { $foo: 'x' } } } } });
  f('populate sort private', ['title'], A, { populate: { author: { sort: 'secret' } } });
  out.push(get('findOne fields', url(`${A}/3`, { fields: ['title', 'kind'] })));
  out.push(get('findOne unknown field', url(`${A}/3`, { fields: ['nope'] })));
  out.push(get('single type fields', url('/api/homepage', { fields: ['title'] })));
  out.push(get('single type unknown field', url('/api/homepage', { fields: ['nope'] })));
  return out;
}

write('query-operators', operatorRequests());
write('query-deep', deepRequests());
write('query-sort-pagination', sortPaginationRequests());
write('query-fields', fieldsRequests());
