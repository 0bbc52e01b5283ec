// Writes error-precedence.requests.json: requests with two or three mistakes each (pairs and some triples, each
// in both query-string orders; findOne, single type, writes), so the golden shows which mistake v4 reports first.
//   npx tsx test/golden/error-precedence-make-requests.ts > test/golden/error-precedence.requests.json
const M: Record<string, string> = {
  filterKey: 'filters[nope][$eq]=1',
  filterOp: 'filters[title][$bad]=1',
  filterPrivate: 'filters[author][secret][$eq]=x',
  filterValue: 'filters[views][$eq]=abc',
  sortKey: 'sort=nope',
  sortDir: 'sort=title:sideways',
  fieldsKey: 'fields[0]=nope',
  fieldsRelation: 'fields[0]=author',
  populateKey: 'populate=nope',
  populateFields: 'populate[author][fields][0]=nope',
  mixedPagination: 'pagination[page]=1&pagination[limit]=2',
  badWithCount: 'pagination[withCount]=maybe',
  badPage: 'pagination[page]=abc',
  badPageSize: 'pagination[pageSize]=-3',
  badStart: 'pagination[start]=x',
  publicationState: 'publicationState=both',
  search: '_q[0]=a',
};
const keys = Object.keys(M);
const out: Array<{ name: string; method: string; url: string; body?: unknown }> = [];
for (let i = 0; i < keys.length; i++) for (let j = i + 1; j < keys.length; j++) {
  const a = keys[i], b = keys[j];
  out.push({ name: `list ${a} + ${b}`, method: 'GET', url: `/api/articles?${M[a]}&${M[b]}` });
  out.push({ name: `list ${b} + ${a}`, method: 'GET', url: `/api/articles?${M[b]}&${M[a]}` });
}
const triples = [['filterKey','sortKey','fieldsKey'],['mixedPagination','badWithCount','sortKey'],['populateKey','filterValue','badPage'],['fieldsRelation','publicationState','filterOp'],['badWithCount','badPage','mixedPagination'],['sortDir','filterPrivate','populateFields'],['search','fieldsKey','badPageSize']];
for (const t of triples) {
  out.push({ name: `list ${t.join(' + ')}`, method: 'GET', url: `/api/articles?${t.map((k) => M[k]).join('&')}` });
  out.push({ name: `list ${[...t].reverse().join(' + ')}`, method: 'GET', url: `/api/articles?${[...t].reverse().map((k) => M[k]).join('&')}` });
}
// findOne and single type: which of these count there
for (const [a, b] of [['filterKey','sortKey'],['fieldsKey','populateKey'],['sortKey','fieldsKey'],['filterValue','fieldsRelation'],['mixedPagination','fieldsKey'],['publicationState','populateKey'],['badWithCount','filterKey']]) {
  out.push({ name: `findOne ${a} + ${b}`, method: 'GET', url: `/api/articles/1?${M[a]}&${M[b]}` });
  out.push({ name: `findOne ${b} + ${a}`, method: 'GET', url: `/api/articles/1?${M[b]}&${M[a]}` });
  out.push({ name: `single ${a} + ${b}`, method: 'GET', url: `/api/homepage?${M[a].replace(/title|views|author\]\[secret/g, (m) => ({ title: 'title', views: 'title', 'author][secret': 'featured][nope' } as Record<string, string>)[m])}&${M[b]}` });
}
// writes: body mistakes together with query mistakes
out.push({ name: 'create bad body + bad fields', method: 'POST', url: '/api/articles?fields[0]=nope', body: { data: { views: 'abc' } } });
out.push({ name: 'create missing title + bad populate', method: 'POST', url: '/api/articles?populate=nope', body: { data: { views: 1 } } });
out.push({ name: 'create no data + bad filters', method: 'POST', url: '/api/articles?filters[nope]=1', body: { views: 1 } });
out.push({ name: 'create two body mistakes', method: 'POST', url: '/api/articles', body: { data: { views: 'abc', rating: 'x', kind: 'nope' } } });
out.push({ name: 'create body mistakes reversed', method: 'POST', url: '/api/articles', body: { data: { kind: 'nope', rating: 'x', views: 'abc' } } });
out.push({ name: 'update bad body + bad sort', method: 'PUT', url: '/api/articles/1?sort=nope', body: { data: { views: 'abc' } } });
out.push({ name: 'update missing entry + bad fields', method: 'PUT', url: '/api/articles/99999?fields[0]=nope', body: { data: { title: 'x' } } });
out.push({ name: 'delete missing entry + bad fields', method: 'DELETE', url: '/api/articles/99999?fields[0]=nope' });
out.push({ name: 'findOne missing entry + bad fields', method: 'GET', url: '/api/articles/99999?fields[0]=nope' });
out.push({ name: 'findOne missing entry + bad filters', method: 'GET', url: '/api/articles/99999?filters[nope]=1' });
process.stdout.write('[\n' + out.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n');
