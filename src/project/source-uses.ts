// Whether the project's own code (src/ and config/) mentions a name at all: lets start-up leave off
// machinery that costs every request while no project code can use it (core/tessera.ts: request tracking
// for strapi.requestContext, which on Node 20 slows every await once it is on).
import fs from 'node:fs';
import path from 'node:path';

const CODE = new Set(['.js', '.cjs', '.mjs', '.ts']);
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export function projectSourceUses(dir: string, name: string): boolean {
  const walk = (d: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && walk(p)) return true;
      } else if (e.isFile() && CODE.has(path.extname(e.name)) && fs.statSync(p).size <= MAX_FILE_BYTES && fs.readFileSync(p, 'utf8').includes(name)) {
        return true;
      }
    }
    return false;
  };
  return ['src', 'config'].some((sub) => walk(path.join(dir, sub)));
}
