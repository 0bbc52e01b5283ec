// What a browser does in the provider sign-in: follows redirects one by one (real HTTP, no fetch
// auto-follow), keeps the cookies each origin sets (name=value, Path honoured) and sends them back.
export interface Hop { url: string; status: number; location?: string; body: string }

export class Browser {
  private readonly jar = new Map<string, { value: string; path: string }>();

  /** GET `url`, then every Location after it, until an answer that is not a redirect; `edit` may change a hop's URL first. */
  async follow(url: string, edit: (next: URL) => URL | void = () => undefined, max = 10): Promise<Hop[]> {
    const hops: Hop[] = [];
    let next: string | undefined = url;
    while (next && hops.length < max) {
      const target: URL = new URL(next);
      const changed: URL = edit(target) ?? target;
      const hop = await this.get(changed.toString());
      hops.push(hop);
      next = hop.status >= 300 && hop.status < 400 && hop.location ? new URL(hop.location, changed).toString() : undefined;
    }
    return hops;
  }

  async get(url: string): Promise<Hop> {
    const u = new URL(url);
    const cookie = [...this.jar].filter(([k, c]) => k.startsWith(`${u.origin} `) && u.pathname.startsWith(c.path)).map(([k, c]) => `${k.split(' ')[1]}=${c.value}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of res.headers.getSetCookie()) this.store(u, line);
    return { url, status: res.status, location: res.headers.get('location') ?? undefined, body: await res.text() };
  }

  /** the cookies this browser holds for an origin */
  cookies(origin: string): Record<string, string> {
    return Object.fromEntries([...this.jar].filter(([k]) => k.startsWith(`${origin} `)).map(([k, c]) => [k.split(' ')[1], c.value]));
  }

  clear(): void {
    this.jar.clear();
  }

  private store(u: URL, line: string): void {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attr = (n: string) => attrs.find((a) => a.toLowerCase().startsWith(`${n}=`))?.split('=')[1];
    const key = `${u.origin} ${name}`;
    if (attr('max-age') === '0' || value === '') this.jar.delete(key);
    else this.jar.set(key, { value, path: attr('path') ?? '/' });
  }
}
