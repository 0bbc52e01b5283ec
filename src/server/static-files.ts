// Files under the project's public folder, served with no way out of it: the resolved real path must
// stay inside the real folder (`..`, encoded dots and symlinks pointing outside all fail).
import fs from 'node:fs';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.avif': 'image/avif',
  '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.pdf': 'application/pdf', '.mp4': 'video/mp4', '.webm': 'video/webm',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.woff': 'font/woff', '.woff2': 'font/woff2', '.xml': 'application/xml',
};

export function contentTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The real path of an existing regular file for this URL path, or null. */
export function resolvePublicFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return null;
  }
  const candidate = path.resolve(realRoot, '.' + path.posix.normalize('/' + decoded));
  const file = candidate.endsWith(path.sep) || decoded.endsWith('/') ? path.join(candidate, 'index.html') : candidate;
  try {
    const real = fs.realpathSync(file);
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
    const st = fs.statSync(real);
    if (st.isFile()) return real;
    if (st.isDirectory()) {
      const index = path.join(real, 'index.html');
      return fs.existsSync(index) && fs.realpathSync(index).startsWith(realRoot + path.sep) ? fs.realpathSync(index) : null;
    }
  } catch {
    return null;
  }
  return null;
}
