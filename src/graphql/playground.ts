// The GraphQL playground: GraphiQL served entirely from this package's own files, so it works without any
// network beyond the server itself (no CDN). The page has no inline script: everything it runs is a
// same-origin file under `<endpoint>/playground/`, which the server's own Content-Security-Policy
// (`script-src 'self'`) allows. The files are the UMD builds of graphiql 3 (the last major that ships
// one) and of React 18 (19 has none), required at run time from node_modules (never bundled by
// bin/build.js: they run in the browser), each read once on first request and kept in memory.
import fs from 'node:fs';
import path from 'node:path';

interface AssetSource {
  type: string;
  /** a file of an installed package: [package, path inside it] */
  file?: [string, string];
  /** or this package's own text */
  text?: string;
}

const JS = 'application/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/**
 * Runs GraphiQL against the endpoint named on the root element. GraphiQL's createFetcher sends the JSON
 * object of the headers editor as request headers (so `{"Authorization": "Bearer <token>"}` authenticates);
 * headers are not persisted (shouldPersistHeaders false), so a token never lands in localStorage.
 */
const BOOT_JS = `'use strict';
(function () {
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.getAttribute('data-endpoint') });
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers',
    defaultQuery: ${JSON.stringify(
      '# Run a query with Ctrl-Enter. To authenticate, put\n' +
        '# {"Authorization": "Bearer <token>"} in the Headers tab below.\n',
    )}
  }));
})();
`;

const PAGE_CSS = 'html, body, #graphiql { height: 100%; margin: 0; }\n';

/** the only files served: the name in the URL picks an entry, it is never a path */
const ASSETS: Record<string, AssetSource> = {
  'react.production.min.js': { type: JS, file: ['react', 'umd/react.production.min.js'] },
  'react-dom.production.min.js': { type: JS, file: ['react-dom', 'umd/react-dom.production.min.js'] },
  'graphiql.min.js': { type: JS, file: ['graphiql', 'graphiql.min.js'] },
  'graphiql.min.css': { type: CSS, file: ['graphiql', 'graphiql.min.css'] },
  'playground.js': { type: JS, text: BOOT_JS },
  'playground.css': { type: CSS, text: PAGE_CSS },
};

const loaded = new Map<string, { type: string; body: Buffer }>();

/** a package's file; through its package.json because graphiql's `exports` does not list its UMD build */
function packageFile(pkg: string, rel: string): Buffer {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`the GraphQL playground needs the package ${pkg}, which is not installed (npm install)`);
  }
  return fs.readFileSync(path.join(dir, rel));
}

/** One of the playground's files by name (`<endpoint>/playground/<file>`), or undefined for any other name. */
export function playgroundAsset(file: string): { type: string; body: Buffer } | undefined {
  if (!Object.hasOwn(ASSETS, file)) return undefined;
  let asset = loaded.get(file);
  if (!asset) {
    const src = ASSETS[file];
    asset = { type: src.type, body: src.file ? packageFile(...src.file) : Buffer.from(src.text ?? '', 'utf8') };
    loaded.set(file, asset);
  }
  return asset;
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The playground's HTML page for the GraphQL endpoint at `endpoint` (a path such as `/graphql`). */
export function playgroundPage(endpoint: string): string {
  const e = escapeHtml(endpoint);
  const asset = (name: string) => `${e}/playground/${name}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>GraphQL playground</title>
<link rel="stylesheet" href="${asset('graphiql.min.css')}">
<link rel="stylesheet" href="${asset('playground.css')}">
</head>
<body>
<div id="graphiql" data-endpoint="${e}">Loading the GraphQL playground...</div>
<script src="${asset('react.production.min.js')}"></script>
<script src="${asset('react-dom.production.min.js')}"></script>
<script src="${asset('graphiql.min.js')}"></script>
<script src="${asset('playground.js')}"></script>
</body>
</html>
`;
}
