// koa's `ctx.redirect(url)` (rest/context.ts; v4's sign-in flow answers with it too): 302, the URL encoded as the `encodeurl`
// package does (characters a header may not hold are percent-encoded, existing escapes kept), and a short
// HTML (or text) body naming it.
import type { RequestContext } from './context';

const ENCODE_CHARS = /(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]|%(?:[^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|$))+/g;
const LONE_SURROGATE = /(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uD800-\uDBFF]([^\uDC00-\uDFFF]|$)/g;

export function encodeUrl(url: string): string {
  return url.replace(LONE_SURROGATE, '$1\uFFFD$2').replace(ENCODE_CHARS, (s) => encodeURI(s));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** sets the redirect on ctx and returns the body to answer with */
export function redirect(ctx: RequestContext, url: string): string {
  ctx.status = 302;
  ctx.set('location', encodeUrl(url));
  const accept = String(ctx.get('accept') ?? '');
  if (!accept || /text\/html|text\/\*|\*\/\*/.test(accept)) {
    ctx.set('content-type', 'text/html; charset=utf-8');
    return `Redirecting to <a href="${escapeHtml(url)}">${escapeHtml(url)}</a>.`;
  }
  ctx.set('content-type', 'text/plain; charset=utf-8');
  return `Redirecting to ${url}.`;
}
