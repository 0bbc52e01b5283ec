// The random operations of the response cache's differential test (cache-differential.test.ts): a pool of read
// requests (REST and GraphQL, six kinds of caller) drawn from again and again so the cache hits, and the
// changes between them: writes through either server's API, writes of "another process" straight into the
// database, role and API-token permission changes, a token revocation, a switch of the i18n default locale.
// Each change is surrounded by reads that show what it changed (asked for again right after it, sometimes also
// while it runs), and in some stretches only ON's own writes happen, so that what each of them must drop from
// the cache is tested without another process's write dropping everything. Everything is drawn from one
// seeded random source and what the writes did (ids), so a seed replays the same sequence. A change that each server notices only after a delay (a role or token read by another process:
// src/auth/abilities.ts, authenticate.ts; the default locale: plugins/i18n/locales-service.ts) names the
// callers it affects and that delay: the test skips their reads until both servers must have seen it.
import crypto from 'node:crypto';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { seededRandom } from '../../../bench/lib/seeded-random';
import { FIXTURE_DATA } from '../../helpers/fixture-model';
import { FIXTURE_SALT, SEEDED_TOKENS } from '../../helpers/token-types-seed';

export type CallerName = 'public' | 'full' | 'readOnly' | 'custom' | 'revocable' | 'user';
/** how often each caller reads (out of the total) */
const CALLER_WEIGHTS: ReadonlyArray<readonly [CallerName, number]> = [['public', 34], ['full', 18], ['readOnly', 10], ['custom', 10], ['revocable', 10], ['user', 18]];

/** the bearer keys of the seeded API tokens the readers use (test/helpers/token-types-seed.ts) */
export const CALLER_TOKENS = { readOnly: SEEDED_TOKENS.readOnly.key, custom: SEEDED_TOKENS.custom.key, revocable: SEEDED_TOKENS.readOnlyUntil2100.key } as const;

/** users-permissions re-reads a role's permissions once 5 s old (src/auth/abilities.ts), plus slack */
export const ROLE_DELAY_MS = 5_500;
/** an API token lookup is kept 10 s (src/auth/authenticate.ts), plus slack */
export const TOKEN_DELAY_MS = 10_500;
/** the i18n default locale is re-read once 5 s old, in the background of a request (locales-service.ts) */
export const LOCALE_DELAY_MS = 5_500;

export interface HttpCall {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** a JSON body */
  body?: unknown;
  /** a multipart body instead: these fields and one file (an upload) */
  multipart?: { fields: Record<string, string>; file: string };
}

/** the file the sequence uploads: the fixture's smallest image */
const UPLOADED_FILE = path.join(FIXTURE_DATA, 'uploads/small_f954151f44.png');

export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** what a change reaches: the servers and the database connection of "another process" */
export interface World {
  /** an HTTP request to one server, as the full-access token */
  http(server: Server, call: HttpCall): Promise<Answer>;
  /** SQL through the second connection, `?` placeholders */
  rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  run(sql: string, ...params: unknown[]): Promise<void>;
  /** a datetime value as the dialect stores it */
  dateValue(ms: number): unknown;
}

export type Server = 'on' | 'off';

export interface ReadOp {
  kind: 'read';
  caller: CallerName;
  call: HttpCall;
  /** sent to the cached server with If-None-Match: the ETag it gave last for this read */
  conditional: boolean;
}

export interface ChangeOp {
  kind: 'change';
  /** what it changes and how, for the figures */
  sort: 'API write' | 'database write' | 'permissions' | 'default locale';
  /** how the change is made, for the failure message */
  what: string;
  /** the callers whose answers the servers see change only after `delayMs`; 'all' for every caller */
  delayed?: { callers: readonly CallerName[] | 'all'; delayMs: number };
  /** makes the change; false when it did not apply (a write refused: the next reads must still match) */
  run(w: World): Promise<boolean>;
  /**
   * reads sent to ON while the change runs: their answers may show the data before or after it (not
   * compared), but one built from the data before must not be kept past it (the reads after it compare)
   */
  racing?: ReadonlyArray<Pick<ReadOp, 'caller' | 'call'>>;
}

export type Op = ReadOp | ChangeOp;

/** the ids the writes pick from, kept as the writes change them */
interface Ids {
  articles: number[];
  authors: number[];
  categories: number[];
  files: number[];
  /** pages by locale */
  pages: Array<{ id: number; locale: string }>;
  /** what this sequence created (deletes take only these, so the pool's fixed ids keep existing for a while) */
  created: { articles: number[]; authors: number[]; categories: number[]; pages: number[]; files: number[] };
}

// ---- the read pool ----------------------------------------------------------------------------------

const rest = (path: string): HttpCall => ({ method: 'GET', path });
const graphql = (query: string, variables?: Record<string, unknown>): HttpCall => ({ method: 'POST', path: '/graphql', body: variables ? { query, variables } : { query } });

/** ~40 distinct reads over every type, populate form, filter, sort, pagination, publication state and locale */
export const READ_POOL: readonly HttpCall[] = [
  rest('/api/articles'),
  rest('/api/articles?populate=*'),
  rest('/api/articles?populate[author][populate]=avatar&populate[categories]=*&sort=id:desc&pagination[pageSize]=10'),
  rest('/api/articles?populate[seo][populate]=*&populate[links]=*&populate[blocks][populate]=*&pagination[page]=2&pagination[pageSize]=7'),
  rest('/api/articles?filters[author][name][$containsi]=a&populate=author&sort[0]=title:asc&sort[1]=id:asc'),
  rest('/api/articles?filters[categories][slug][$eq]=cat-onyx&fields[0]=title&fields[1]=views&populate[categories][fields][0]=slug'),
  rest('/api/articles?publicationState=preview&sort[0]=publishedAt:desc&sort[1]=id:asc&populate=author&pagination[pageSize]=15'),
  rest('/api/articles?publicationState=preview&filters[publishedAt][$null]=true&fields[0]=title'),
  rest('/api/articles?populate[cover]=*&populate[gallery]=*&populate[blocks][on][blocks.gallery][populate]=*&populate[blocks][on][blocks.quote]=true&pagination[pageSize]=8'),
  rest('/api/articles?filters[views][$gt]=100&sort=views:desc&pagination[start]=2&pagination[limit]=5'),
  rest('/api/articles?filters[$or][0][featured][$eq]=true&filters[$or][1][kind][$eq]=news&populate=categories'),
  rest('/api/articles?populate[editorPick][fields][0]=title&populate[related][fields][0]=title&populate[author][fields][0]=name'),
  rest('/api/articles/1?populate=*'),
  rest('/api/articles/2?populate[author][populate][articles][fields][0]=title&populate[categories][populate][articles][fields][0]=title'),
  rest('/api/articles/3?populate[seo][populate][shareImage]=*&populate[blocks][populate]=*&populate[links]=*'),
  rest('/api/articles/7?fields[0]=title&fields[1]=publishedAt&publicationState=preview'),
  rest('/api/articles/999999'),
  rest('/api/authors?populate=*'),
  rest('/api/authors?populate[articles][fields][0]=title&populate[articles][sort]=title:asc&sort=name:desc'),
  rest('/api/authors/2?populate[articles][populate]=categories'),
  rest('/api/authors?filters[articles][categories][name][$eq]=Cat moss&fields[0]=name'),
  rest('/api/categories?populate[articles][populate]=author&sort=priority:desc'),
  rest('/api/categories?filters[articles][title][$containsi]=e&populate[articles][count]=true'),
  rest('/api/categories/1?populate=articles'),
  rest('/api/pages'),
  rest('/api/pages?locale=fr&publicationState=preview'),
  rest('/api/pages?locale=all&populate=localizations&publicationState=preview&sort=id:asc'),
  rest('/api/pages/1?populate=localizations'),
  rest('/api/homepage?populate=*'),
  rest('/api/homepage?populate[featured][populate]=author&populate[hero][populate]=*'),
  rest('/api/upload/files?sort=id:asc'),
  graphql('{ articles(pagination: { pageSize: 10 }, sort: "id:desc") { data { id attributes { title author { data { id attributes { name } } } categories { data { attributes { name } } } } } meta { pagination { total } } } }'),
  graphql('query One($id: ID) { article(id: $id) { data { id attributes { title seo { metaTitle shareImage { data { attributes { url alternativeText } } } } blocks { __typename ... on ComponentBlocksText { body } ... on ComponentBlocksQuote { text by } } cover { data { attributes { name alternativeText } } } } } } }', { id: 2 }),
  graphql('query One($id: ID) { article(id: $id) { data { id attributes { title publishedAt links { label url } related { data { id } } } } } }', { id: 1 }),
  graphql('{ authors(sort: "id:asc") { data { id attributes { name articles(sort: "title:asc", pagination: { limit: 5 }) { data { id attributes { title publishedAt } } } } } } }'),
  graphql('{ categories(filters: { articles: { title: { containsi: "a" } } }) { data { id attributes { name articles(publicationState: PREVIEW) { data { id } } } } } }'),
  graphql('{ pages(locale: "all", publicationState: PREVIEW) { data { id attributes { title locale order localizations { data { id attributes { locale } } } } } } }'),
  graphql('{ homepage { data { attributes { title hero { metaTitle } featured { data { id attributes { title } } } } } } }'),
  graphql('{ articles(publicationState: PREVIEW, filters: { publishedAt: { null: true } }) { data { id attributes { title } } meta { pagination { total } } } }'),
  graphql('{ author(id: 3) { data { attributes { name avatar { data { attributes { name alternativeText } } } articles { data { id } } } } } }'),
  // the same document with other variables, a document of two operations, a query sent with GET
  graphql('query One($id: ID) { article(id: $id) { data { id attributes { title publishedAt links { label url } related { data { id } } } } } }', { id: 3 }),
  { method: 'POST', path: '/graphql', body: { query: 'query Cats { categories { data { id attributes { name } } } } query Pages { pages { data { id attributes { title } } } }', operationName: 'Pages' } },
  rest(`/graphql?query=${encodeURIComponent('{ categories(sort: "name:asc") { data { id attributes { name slug articles { data { id } } } } } }')}`),
];

/**
 * Reads that together show what the writes through the API change (every author, category and page, the
 * homepage, the first articles with their relations and media, and the components of the hot articles 1, 2,
 * 3 and 7): read before and after each of ON's own writes, they catch an answer kept past a write to one of
 * the tables it read.
 */
const WITNESSES: ReadonlyArray<Pick<ReadOp, 'caller' | 'call'>> = [
  '/api/articles?populate=*&publicationState=preview',
  '/api/articles?populate[seo][populate]=*&populate[blocks][populate]=*&filters[id][$in][0]=1&filters[id][$in][1]=2&filters[id][$in][2]=3&filters[id][$in][3]=7&publicationState=preview',
  '/api/authors?populate=*',
  '/api/categories?populate=*',
  '/api/pages?locale=all&populate=localizations&publicationState=preview&sort=id:asc',
  '/api/homepage?populate=*',
].map((path) => ({ caller: 'full', call: rest(path) }));

// ---- the sequence ------------------------------------------------------------------------------------

/** operations per stretch of the sequence (only ON's own writes, or every kind of change) */
const STRETCH = 150;

export interface SequenceOptions {
  seed: number;
  /** chance that an operation is a change rather than a read */
  changeRate: number;
}

/**
 * Operations drawn one at a time: what comes next may depend on what the writes did (the ids created and
 * deleted), never on timing, so a seed replays the same operations.
 */
export class CacheSequence {
  private readonly rand: () => number;
  private readonly ids: Ids;
  private n = 0;
  /**
   * The changes a server sees only after a delay, each once at a drawn step (the callers they reach are
   * skipped meanwhile, so a few of them are enough)
   */
  private readonly scheduled: Array<{ at: number; make: () => ChangeOp }>;
  /**
   * In some stretches of the sequence every change is a write through ON's API: nothing another process
   * does then drops ON's whole cache, so what each write must drop (and only that) is what is tested.
   */
  private onlyOwnWrites = false;
  /** operations to make next (a change and the reads around it) */
  private readonly queued: Op[] = [];
  /** the working set most reads come from */
  private readonly hot: Array<Pick<ReadOp, 'caller' | 'call'>>;

  constructor(private readonly opts: SequenceOptions, initial: Omit<Ids, 'created'>, total: number) {
    this.rand = seededRandom(opts.seed);
    this.ids = { ...initial, created: { articles: [], authors: [], categories: [], pages: [], files: [] } };
    const at = (from: number, to: number) => Math.floor(total * (from + (to - from) * this.rand()));
    this.scheduled = [
      { at: at(0.1, 0.45), make: () => this.roleDirect() },
      { at: at(0.5, 0.9), make: () => this.roleDirect() },
      { at: at(0.1, 0.5), make: () => customTokenDirect() },
      { at: at(0.3, 0.6), make: () => revokeToken() },
      { at: at(0.55, 0.85), make: () => switchDefaultLocale('fr') },
    ].sort((x, y) => x.at - y.at);
    this.hot = Array.from({ length: 8 }, () => this.anyRead());
  }

  /** the next operation */
  next(): Op {
    const step = this.n++;
    if (step % STRETCH === 0) this.onlyOwnWrites = this.rand() < 0.4;
    const queued = this.queued.shift();
    if (queued) return queued;
    if (this.scheduled.length && step >= this.scheduled[0].at) return this.around(this.scheduled.shift()!.make());
    if (this.rand() < this.opts.changeRate) {
      if (this.onlyOwnWrites) return this.around(this.apiWrite('on'), WITNESSES);
      // another process's writes drop every answer of ON: the witnesses check it did, half of the time
      return this.around(this.change(), this.rand() < 0.5 ? WITNESSES : []);
    }
    const conditional = this.rand() < 0.12;
    // mostly the reads of a small working set that drifts (as real traffic repeats): the cache gets to hit
    if (this.rand() < 0.03) this.hot[this.pickIndex(this.hot.length)] = this.anyRead();
    const read = this.rand() < 0.75 ? this.pick(this.hot) : this.anyRead();
    return { kind: 'read', ...read, conditional };
  }

  /**
   * `change` between reads: `witnesses` before it (kept then, if they were not already) and after it, then
   * every read of the working set (most of them were just kept): each answer the change should have dropped
   * is asked for again at once. Sometimes reads race with the change. Answers the first of these operations.
   */
  private around(change: ChangeOp, witnesses: readonly Pick<ReadOp, 'caller' | 'call'>[] = []): Op {
    const read = (r: Pick<ReadOp, 'caller' | 'call'>): ReadOp => ({ kind: 'read', ...r, conditional: this.rand() < 0.3 });
    if (!change.delayed && this.rand() < 0.3) change.racing = this.sample(this.hot, 4);
    this.queued.push(...witnesses.map(read), change, ...witnesses.map(read), ...this.sample(this.hot, this.hot.length).map(read));
    return this.queued.shift()!;
  }

  private anyRead(): Pick<ReadOp, 'caller' | 'call'> {
    const call = this.pick(READ_POOL);
    // now and then as HEAD: the same route and URL as the GET, which must not get its answer wrong
    const head = call.method === 'GET' && this.rand() < 0.05;
    return { caller: this.weighted(CALLER_WEIGHTS), call: head ? { ...call, method: 'HEAD' } : call };
  }

  private change(): ChangeOp {
    const r = this.rand();
    if (r < 0.45) return this.apiWrite();
    if (r < 0.95) return this.directWrite();
    return this.roleThroughApi();
  }

  // -- writes through a server's API (as the full-access token): the other server sees another process's write

  private apiWrite(through?: Server): ChangeOp {
    const via: Server = through ?? (this.rand() < 0.5 ? 'on' : 'off');
    const { articles, authors, categories, files, pages, created } = this.ids;
    const tag = `${this.opts.seed}-${this.n}`;
    const write = (what: string, call: HttpCall, then?: (body: any) => void): ChangeOp => ({
      kind: 'change', sort: 'API write',
      what: `${what} through ${via.toUpperCase()}: ${call.method} ${call.path} ${JSON.stringify(call.body ?? call.multipart ?? '')}`,
      async run(w) {
        const a = await w.http(via, call);
        if (a.status !== 200) return false;
        then?.(JSON.parse(a.body.toString() || 'null'));
        return true;
      },
    });
    const some = (list: number[], max: number) => this.sample(list, 1 + Math.floor(this.rand() * max));
    const hotArticle = () => (this.rand() < 0.6 ? this.pick([1, 2, 3, 7]) : this.pick(articles));
    switch (this.pickIndex(15)) {
      case 0:
        return write('create an article with relations, components and a dynamic zone', {
          method: 'POST', path: '/api/articles', body: { data: {
            title: `created ${tag}`, views: Math.floor(this.rand() * 300), featured: this.rand() < 0.5, kind: this.pick(['news', 'review', 'opinion']),
            author: this.pick(authors), categories: some(categories, 3), editorPick: this.pick(articles), related: some(articles, 2),
            seo: { metaTitle: `seo ${tag}`, shareImage: this.pick(files) }, links: [{ label: `l ${tag}`, url: 'https://example.com' }],
            blocks: [{ __component: 'blocks.text', body: `text ${tag}` }, { __component: 'blocks.gallery', title: `g ${tag}`, images: some(files, 2) }],
            cover: this.pick(files), gallery: some(files, 2), publishedAt: this.rand() < 0.7 ? new Date(Date.UTC(2026, 0, 1 + (this.n % 28))).toISOString() : null,
          } },
        }, (b) => { articles.push(b.data.id); created.articles.push(b.data.id); });
      case 1:
        return write('update an article\'s scalars', { method: 'PUT', path: `/api/articles/${hotArticle()}`, body: { data: { title: `title ${tag}`, views: Math.floor(this.rand() * 300), rating: Math.round(this.rand() * 50) / 10, kind: this.pick(['news', 'review', 'opinion']) } } });
      case 2: {
        const forms = [
          () => ({ author: this.rand() < 0.2 ? null : this.pick(authors) }),
          () => ({ categories: some(categories, 3) }),
          () => ({ categories: { connect: [this.pick(categories)], disconnect: [this.pick(categories)] } }),
          () => ({ editorPick: this.pick(articles), related: { connect: some(articles, 2) } }),
        ];
        return write('change an article\'s relations', { method: 'PUT', path: `/api/articles/${hotArticle()}`, body: { data: this.pick(forms)() } });
      }
      case 3:
        return write('update an article\'s components', { method: 'PUT', path: `/api/articles/${hotArticle()}`, body: { data: {
          seo: { metaTitle: `seo ${tag}`, metaDescription: `d ${tag}`, shareImage: this.rand() < 0.5 ? null : this.pick(files) },
          links: this.sample([{ label: `a ${tag}`, url: 'https://a.example' }, { label: `b ${tag}`, url: 'https://b.example' }], Math.floor(this.rand() * 3)),
        } } });
      case 4:
        return write('update an article\'s dynamic zone', { method: 'PUT', path: `/api/articles/${hotArticle()}`, body: { data: {
          blocks: this.sample([
            { __component: 'blocks.quote', text: `q ${tag}`, by: 'someone' },
            { __component: 'blocks.text', body: `t ${tag}` },
            { __component: 'blocks.gallery', title: `g ${tag}`, images: some(files, 2) },
          ], Math.floor(this.rand() * 4)),
        } } });
      case 5:
        return write(this.rand() < 0.5 ? 'publish an article' : 'unpublish an article', { method: 'PUT', path: `/api/articles/${hotArticle()}`, body: { data: { publishedAt: this.rand() < 0.5 ? null : new Date(Date.UTC(2026, 1, 1 + (this.n % 28))).toISOString() } } });
      case 6: {
        const id = created.articles.length ? this.pick(created.articles) : this.pick(articles.filter((a) => a > 7));
        return write('delete an article', { method: 'DELETE', path: `/api/articles/${id}` }, () => { remove(articles, id); remove(created.articles, id); });
      }
      case 7: {
        const author = this.rand() < 0.5 ? this.pick([2, 3]) : this.pick(authors);
        const body = this.rand() < 0.5 ? { articles: some(articles, 4) } : { articles: { connect: [this.pick(articles)], disconnect: [this.pick(articles)] } };
        return write('change an author\'s articles (the other side of article.author)', { method: 'PUT', path: `/api/authors/${author}`, body: { data: body } });
      }
      case 8: {
        if (created.authors.length && this.rand() < 0.4) {
          const id = this.pick(created.authors);
          return write('delete an author', { method: 'DELETE', path: `/api/authors/${id}` }, () => { remove(authors, id); remove(created.authors, id); });
        }
        if (this.rand() < 0.5) return write('create an author', { method: 'POST', path: '/api/authors', body: { data: { name: `Author ${tag}`, articles: some(articles, 2), avatar: this.pick(files) } } }, (b) => { authors.push(b.data.id); created.authors.push(b.data.id); });
        // one table written, or two: what an answer about articles must drop is exactly what it read
        if (this.rand() < 0.6) return write('rename an author', { method: 'PUT', path: `/api/authors/${this.pick([2, 3, ...authors])}`, body: { data: { name: `Author ${tag}` } } });
        return write('change an author\'s avatar', { method: 'PUT', path: `/api/authors/${this.pick(authors)}`, body: { data: { avatar: this.rand() < 0.3 ? null : this.pick(files) } } });
      }
      case 9: {
        const category = this.rand() < 0.5 ? this.pick([1, 2, 4]) : this.pick(categories);
        const body = this.rand() < 0.5 ? { articles: { connect: [this.pick(articles)] } } : { articles: { disconnect: [this.pick(articles)] } };
        return write('change a category\'s articles (the other side of article.categories)', { method: 'PUT', path: `/api/categories/${category}`, body: { data: body } });
      }
      case 10: {
        if (created.categories.length && this.rand() < 0.4) {
          const id = this.pick(created.categories);
          return write('delete a category', { method: 'DELETE', path: `/api/categories/${id}` }, () => { remove(categories, id); remove(created.categories, id); });
        }
        if (this.rand() < 0.5) return write('rename a category', { method: 'PUT', path: `/api/categories/${this.pick(categories)}`, body: { data: { name: `Cat ${tag}`, priority: Math.floor(this.rand() * 10) } } });
        return write('create a category', { method: 'POST', path: '/api/categories', body: { data: { name: `Cat ${tag}`, priority: Math.floor(this.rand() * 10), articles: some(articles, 3) } } }, (b) => { categories.push(b.data.id); created.categories.push(b.data.id); });
      }
      case 11:
        // a single type deleted answers 404 (kept too) until a PUT makes it again
        if (this.rand() < 0.15) return write('delete the homepage (single type)', { method: 'DELETE', path: '/api/homepage' });
        return write('update the homepage (single type: component and relation)', { method: 'PUT', path: '/api/homepage', body: { data: { title: `home ${tag}`, hero: { metaTitle: `hero ${tag}` }, featured: some(articles, 3) } } });
      case 12:
        return this.pageWrite(write, tag);
      case 13: {
        if (created.files.length && this.rand() < 0.4) {
          const id = this.pick(created.files);
          return write('delete an uploaded file', { method: 'DELETE', path: `/api/upload/files/${id}` }, () => { remove(files, id); remove(created.files, id); });
        }
        const fields = { ref: 'api::article.article', refId: String(hotArticle()), field: 'gallery', fileInfo: JSON.stringify({ alternativeText: `upload ${tag}` }) };
        return write('upload a file into an article\'s gallery', { method: 'POST', path: '/api/upload', multipart: { fields, file: UPLOADED_FILE } },
          (b) => { for (const f of b as Array<{ id: number }>) { files.push(f.id); created.files.push(f.id); } });
      }
      default:
        return write('update a file\'s info (upload API)', { method: 'POST', path: `/api/upload?id=${this.pick(files)}`, body: { fileInfo: { alternativeText: `alt ${tag}`, caption: `caption ${tag}` } } });
    }
  }

  private pageWrite(write: (what: string, call: HttpCall, then?: (body: any) => void) => ChangeOp, tag: string): ChangeOp {
    const { pages, created } = this.ids;
    const en = pages.filter((p) => p.locale === 'en');
    switch (this.pickIndex(5)) {
      case 0:
        return write('create a page (en)', { method: 'POST', path: '/api/pages', body: { data: { title: `Page ${tag}`, order: Math.floor(this.rand() * 9), locale: 'en', publishedAt: this.rand() < 0.5 ? null : '2026-03-01T00:00:00.000Z' } } },
          (b) => { pages.push({ id: b.data.id, locale: 'en' }); created.pages.push(b.data.id); });
      case 1: {
        // a page with no fr sibling yet gets one; one that has answers 400 (nothing changes)
        const page = this.pick(en);
        return write('create a localization (fr) of a page', { method: 'POST', path: `/api/pages/${page.id}/localizations`, body: { locale: 'fr', title: `Page ${tag} FR`, order: Math.floor(this.rand() * 9) } },
          (b) => { pages.push({ id: b.id, locale: 'fr' }); created.pages.push(b.id); });
      }
      case 2:
        // `order` is not localized: v4 copies it to every sibling locale
        return write('update a page (localized title, shared order)', { method: 'PUT', path: `/api/pages/${this.pick(pages).id}`, body: { data: { title: `Page ${tag}`, order: Math.floor(this.rand() * 9) } } });
      case 3:
        return write('publish or unpublish a page', { method: 'PUT', path: `/api/pages/${this.pick(pages).id}`, body: { data: { publishedAt: this.rand() < 0.5 ? null : '2026-04-01T00:00:00.000Z' } } });
      default: {
        const id = created.pages.length ? this.pick(created.pages) : this.pick(pages.filter((p) => p.id > 1)).id;
        return write('delete a page', { method: 'DELETE', path: `/api/pages/${id}` }, () => { remove(created.pages, id); pages.splice(pages.findIndex((p) => p.id === id), 1); });
      }
    }
  }

  // -- writes of another process, through the test's own connection

  private directWrite(): ChangeOp {
    const { articles, authors, categories, files, pages } = this.ids;
    const tag = `${this.opts.seed}-${this.n}`;
    const sql = (what: string, text: string, ...params: unknown[]): ChangeOp => ({
      kind: 'change', sort: 'database write', what: `${what} (second connection): ${text} [${params.map((p) => JSON.stringify(p)).join(', ')}]`,
      async run(w) { await w.run(text, ...params); return true; },
    });
    const hotArticle = () => (this.rand() < 0.6 ? this.pick([1, 2, 3, 7]) : this.pick(articles));
    const offset = Math.floor(this.rand() * 40);
    switch (this.pickIndex(11)) {
      case 0: return sql('retitle an article', 'UPDATE articles SET title = ? WHERE id = ?', `direct ${tag}`, hotArticle());
      case 1: return sql('rename an author', 'UPDATE authors SET name = ? WHERE id = ?', `Direct ${tag}`, this.pick(authors));
      case 2: return sql('rename a category', 'UPDATE categories SET name = ? WHERE id = ?', `Direct cat ${tag}`, this.pick(categories));
      case 3: {
        const article = hotArticle();
        return {
          kind: 'change', sort: 'database write', what: `remove one category link of article ${article}, or add one (second connection)`,
          async run(w) {
            const links = await w.rows<{ id: number }>('SELECT id FROM articles_categories_links WHERE article_id = ? ORDER BY id', article);
            if (links.length && offset % 3 !== 0) await w.run('DELETE FROM articles_categories_links WHERE id = ?', links[offset % links.length].id);
            else await w.run('INSERT INTO articles_categories_links (article_id, category_id, category_order, article_order) SELECT CAST(? AS integer), c.id, 99, 99 FROM categories c WHERE c.id NOT IN (SELECT category_id FROM articles_categories_links WHERE article_id = ?) ORDER BY c.id LIMIT 1', article, article);
            return true;
          },
        };
      }
      case 4: {
        const article = hotArticle();
        const author = this.pick(authors);
        return {
          kind: 'change', sort: 'database write', what: `move article ${article} to author ${author}, or drop its author (second connection: articles_author_links)`,
          async run(w) {
            await w.run('DELETE FROM articles_author_links WHERE article_id = ?', article);
            if (offset % 4 !== 0) await w.run('INSERT INTO articles_author_links (article_id, author_id, article_order) VALUES (?, ?, 99)', article, author);
            return true;
          },
        };
      }
      case 5: return sql('retitle every seo component of an article', 'UPDATE components_shared_seos SET meta_title = ? WHERE id IN (SELECT component_id FROM articles_components WHERE entity_id = ? AND component_type = ?)', `direct seo ${tag}`, hotArticle(), 'shared.seo');
      case 6: return sql('change a file\'s alternative text', 'UPDATE files SET alternative_text = ? WHERE id = ?', `direct alt ${tag}`, this.pick(files));
      case 7: {
        const article = hotArticle();
        const publish = this.rand() < 0.5;
        return {
          kind: 'change', sort: 'database write', what: `${publish ? 'publish' : 'unpublish'} article ${article} (second connection)`,
          async run(w) { await w.run('UPDATE articles SET published_at = ? WHERE id = ?', publish ? w.dateValue(Date.UTC(2026, 5, 1)) : null, article); return true; },
        };
      }
      case 8: return sql('retitle a page', 'UPDATE pages SET title = ? WHERE id = ?', `Direct page ${tag}`, this.pick(pages).id);
      case 9: return sql('change the quotes of an article\'s dynamic zone', 'UPDATE components_blocks_quotes SET text = ? WHERE id IN (SELECT component_id FROM articles_components WHERE entity_id = ? AND component_type = ?)', `direct quote ${tag}`, hotArticle(), 'blocks.quote');
      default: return sql('retitle the homepage', 'UPDATE homepages SET title = ?', `Direct home ${tag}`);
    }
  }

  // -- permissions: a role's through the role API (drawn like the writes); straight in the tables (scheduled)

  private roleTarget(): readonly [string, string, readonly CallerName[]] {
    return this.pick([
      ['public', 'api::author.author.find', ['public']],
      ['public', 'api::category.category.find', ['public']],
      ['authenticated', 'api::author.author.find', ['user']],
    ] as const);
  }

  /**
   * As the admin panel does: the role's whole permission tree, one switch flipped, sent back; the same PUT then
   * goes to the other server too, so each has dropped its copy of the role's permissions at once (no delay).
   */
  private roleThroughApi(): ChangeOp {
    const [roleType, action] = this.roleTarget();
    const via: Server = this.rand() < 0.5 ? 'on' : 'off';
    const other: Server = via === 'on' ? 'off' : 'on';
    return {
      kind: 'change', sort: 'permissions', what: `toggle ${action} of the ${roleType} role through ${via.toUpperCase()}'s role API (GET, PUT /api/users-permissions/roles/:id), the same PUT then through ${other.toUpperCase()}`,
      async run(w) {
        const roles = JSON.parse((await w.http(via, { method: 'GET', path: '/api/users-permissions/roles' })).body.toString()).roles as Array<{ id: number; type: string }>;
        const id = roles.find((x) => x.type === roleType)!.id;
        const role = JSON.parse((await w.http(via, { method: 'GET', path: `/api/users-permissions/roles/${id}` })).body.toString()).role;
        const [api, controller, name] = action.split('.');
        const permission = role.permissions[api].controllers[controller][name];
        permission.enabled = !permission.enabled;
        const put: HttpCall = { method: 'PUT', path: `/api/users-permissions/roles/${id}`, body: { name: role.name, description: role.description, permissions: role.permissions } };
        const first = await w.http(via, put);
        const second = await w.http(other, put);
        return first.status === 200 && second.status === 200;
      },
    };
  }

  private roleDirect(): ChangeOp {
    const [roleType, action, callers] = this.roleTarget();
    return {
      kind: 'change', sort: 'permissions', what: `toggle ${action} of the ${roleType} role straight in up_permissions (second connection)`,
      delayed: { callers, delayMs: ROLE_DELAY_MS },
      async run(w) {
        const role = (await w.rows<{ id: number }>('SELECT id FROM up_roles WHERE type = ?', roleType))[0].id;
        const has = await w.rows<{ id: number }>('SELECT p.id FROM up_permissions p JOIN up_permissions_role_links l ON l.permission_id = p.id WHERE l.role_id = ? AND p.action = ?', role, action);
        if (has.length) {
          for (const p of has) await w.run('DELETE FROM up_permissions WHERE id = ?', p.id);
        } else {
          await w.run('INSERT INTO up_permissions (action, created_at, updated_at) VALUES (?, ?, ?)', action, w.dateValue(Date.UTC(2026, 0, 1)), w.dateValue(Date.UTC(2026, 0, 1)));
          const [{ id }] = await w.rows<{ id: number }>('SELECT max(id) AS id FROM up_permissions WHERE action = ?', action);
          await w.run('INSERT INTO up_permissions_role_links (permission_id, role_id, permission_order) VALUES (?, ?, 99)', id, role);
        }
        return true;
      },
    };
  }

  // -- random helpers

  private pickIndex(n: number): number {
    return Math.floor(this.rand() * n);
  }

  private pick<T>(list: readonly T[]): T {
    if (!list.length) throw new Error('nothing to pick from');
    return list[this.pickIndex(list.length)];
  }

  private sample<T>(list: readonly T[], k: number): T[] {
    const copy = [...list];
    const out: T[] = [];
    while (out.length < k && copy.length) out.push(copy.splice(this.pickIndex(copy.length), 1)[0]);
    return out;
  }

  private weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    let r = this.rand() * items.reduce((s, [, w]) => s + w, 0);
    for (const [item, w] of items) if ((r -= w) < 0) return item;
    return items[items.length - 1][0];
  }
}

function remove(list: number[], id: number): void {
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
}

/** how v4 stores an API token's key (test/helpers/token-types-seed.ts) */
function tokenHash(key: string): string {
  return crypto.createHmac('sha512', FIXTURE_SALT).update(key).digest('hex');
}

/** the custom token's permission to list categories, added or removed as an admin in another process would */
function customTokenDirect(): ChangeOp {
  return {
    kind: 'change', sort: 'permissions', what: 'toggle api::category.category.find of the custom API token (second connection)',
    delayed: { callers: ['custom'], delayMs: TOKEN_DELAY_MS },
    async run(w) {
      const token = (await w.rows<{ id: number }>('SELECT id FROM strapi_api_tokens WHERE access_key = ?', tokenHash(CALLER_TOKENS.custom)))[0].id;
      const has = await w.rows<{ id: number }>('SELECT p.id FROM strapi_api_token_permissions p JOIN strapi_api_token_permissions_token_links l ON l.api_token_permission_id = p.id WHERE l.api_token_id = ? AND p.action = ?', token, 'api::category.category.find');
      if (has.length) {
        for (const p of has) await w.run('DELETE FROM strapi_api_token_permissions WHERE id = ?', p.id);
      } else {
        await w.run('INSERT INTO strapi_api_token_permissions (action, created_at, updated_at) VALUES (?, ?, ?)', 'api::category.category.find', w.dateValue(Date.UTC(2026, 0, 1)), w.dateValue(Date.UTC(2026, 0, 1)));
        const [{ id }] = await w.rows<{ id: number }>('SELECT max(id) AS id FROM strapi_api_token_permissions');
        await w.run('INSERT INTO strapi_api_token_permissions_token_links (api_token_permission_id, api_token_id, api_token_permission_order) VALUES (?, ?, 99)', id, token);
      }
      return true;
    },
  };
}

/** the seeded read-only token deleted from the table, as an admin revoking it in another process would */
function revokeToken(): ChangeOp {
  return {
    kind: 'change', sort: 'permissions', what: 'revoke the read-only API token "revocable" (DELETE FROM strapi_api_tokens, second connection)',
    delayed: { callers: ['revocable'], delayMs: TOKEN_DELAY_MS },
    async run(w) { await w.run('DELETE FROM strapi_api_tokens WHERE access_key = ?', tokenHash(CALLER_TOKENS.revocable)); return true; },
  };
}

/** the i18n default locale switched in the core store, as the admin panel of another process would */
function switchDefaultLocale(code: string): ChangeOp {
  return {
    kind: 'change', sort: 'default locale', what: `switch the i18n default locale to ${code} (strapi_core_store_settings, second connection)`,
    delayed: { callers: 'all', delayMs: LOCALE_DELAY_MS },
    async run(w) { await w.run('UPDATE strapi_core_store_settings SET value = ? WHERE key = ?', JSON.stringify(code), 'plugin_i18n_default_locale'); return true; },
  };
}

/**
 * The fixture's Authenticated role can only read itself (`users.me`): give it some content reads before the
 * servers start, so the logged-in caller has answers worth keeping (and one permission the sequence toggles).
 */
export function grantAuthenticatedReads(dbFile: string): void {
  const db = new BetterSqlite3(dbFile);
  try {
    const now = Date.UTC(2026, 0, 1);
    const role = (db.prepare(`SELECT id FROM up_roles WHERE type = 'authenticated'`).get() as { id: number }).id;
    const insert = db.prepare('INSERT INTO up_permissions (action, created_at, updated_at) VALUES (?, ?, ?)');
    const link = db.prepare('INSERT INTO up_permissions_role_links (permission_id, role_id, permission_order) VALUES (?, ?, ?)');
    db.transaction(() => {
      ['api::article.article.find', 'api::article.article.findOne', 'api::category.category.find', 'api::page.page.find', 'api::homepage.homepage.find', 'plugin::upload.content-api.find']
        .forEach((action, i) => link.run(Number(insert.run(action, now, now).lastInsertRowid), role, 100 + i));
    })();
  } finally {
    db.close();
  }
}
