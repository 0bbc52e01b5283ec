// A response body already written as JSON text (the JSON read path), handed out as an object.
//
// The core controllers return it where they would return `{ data, meta }`. Code that only passes it on
// (the router, `ctx.body = await super.find(ctx)`) never touches it, and the server sends the text as is.
// Code that looks inside (`const { data, meta } = await super.find(ctx)`, `r.data.push(...)`, `delete
// r.meta`, `Object.keys(r)`, ...) gets a plain object parsed from the text on first touch, and the server
// then serializes what it became. So a project's controller override always receives objects, and the
// text is only sent where nothing but the core controller saw the response.
//
// The state lives in the proxy's handler, not in a WeakMap: a WeakMap entry per response keeps the
// response alive through young-generation GCs (measured: ~1 MB promoted per scavenge under load).

/** what the server asks a body for: its text, while nothing has looked inside */
const TEXT = Symbol('tessera.jsonBodyText');

type Target = Record<string | symbol, unknown>;

class JsonBodyHandler implements ProxyHandler<Target> {
  private touched = false;
  constructor(private text: string) {}

  private open(t: Target): Target {
    if (!this.touched) {
      this.touched = true;
      Object.assign(t, JSON.parse(this.text) as Target);
      this.text = '';
    }
    return t;
  }

  get(t: Target, key: string | symbol): unknown {
    if (key === TEXT) return this.touched ? undefined : this.text;
    // `await` and `return` from an async function ask every object for `then`: that is no look inside
    if (key === 'then' && !this.touched) return undefined;
    return Reflect.get(this.open(t), key);
  }
  set(t: Target, key: string | symbol, value: unknown): boolean {
    return Reflect.set(this.open(t), key, value);
  }
  has(t: Target, key: string | symbol): boolean {
    return Reflect.has(this.open(t), key);
  }
  deleteProperty(t: Target, key: string | symbol): boolean {
    return Reflect.deleteProperty(this.open(t), key);
  }
  ownKeys(t: Target): (string | symbol)[] {
    return Reflect.ownKeys(this.open(t));
  }
  getOwnPropertyDescriptor(t: Target, key: string | symbol): PropertyDescriptor | undefined {
    return Reflect.getOwnPropertyDescriptor(this.open(t), key);
  }
  defineProperty(t: Target, key: string | symbol, d: PropertyDescriptor): boolean {
    return Reflect.defineProperty(this.open(t), key, d);
  }
  getPrototypeOf(t: Target): object | null {
    return Reflect.getPrototypeOf(this.open(t));
  }
  setPrototypeOf(t: Target, p: object | null): boolean {
    return Reflect.setPrototypeOf(this.open(t), p);
  }
  isExtensible(t: Target): boolean {
    return Reflect.isExtensible(this.open(t));
  }
  preventExtensions(t: Target): boolean {
    return Reflect.preventExtensions(this.open(t));
  }
}

/** `{ data, meta }` backed by its JSON text until something looks inside */
export function jsonBody(text: string): Record<string, unknown> {
  return new Proxy({} as Target, new JsonBodyHandler(text)) as Record<string, unknown>;
}

/** The text to send for `body`, when it is a JSON body nothing has looked inside; else undefined. */
export function untouchedJsonText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const text = (body as Target)[TEXT]; // asked through the proxy's get trap: no look inside
  return typeof text === 'string' ? text : undefined;
}
