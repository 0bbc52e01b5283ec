// Whether a string is an email address as v4 decides it: yup 0.32's `string().email()` pattern, which v4's
// entity validator (`email` attributes) and the users-permissions body checks use. That pattern backtracks
// exponentially on a domain such as `a.a.a.….a.1` (57 bytes held the event loop for 11 s: issue #20), so the
// same language is decided here in one pass over the UTF-16 code units, with RFC 5321's length cap on top.
// test/security/redos-email.test.ts compares this with yup's pattern on generated addresses.

/** RFC 5321's longest usable address; yup has no cap (a deliberate difference, docs/security.md). */
export const EMAIL_MAX_LENGTH = 254;

const code = (ch: string) => ch.charCodeAt(0);
const QUOTE = code('"');
const BACKSLASH = code('\\');
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const ATEXT_SYMBOLS = new Set([..."!#$%&'*+-/=?^_`{|}~"].map(code));
const DOMAIN_SYMBOLS = new Set([...'-_~'].map(code));

/** yup's `[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]`, matched per code unit (no `u` flag: astral characters fail) */
const isWide = (c: number) => (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xffef);
/** `[a-z]` under the `i` flag, or a wide character */
const isAlpha = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || isWide(c);
const isAlnum = (c: number) => isAlpha(c) || (c >= 0x30 && c <= 0x39);
const isWsp = (c: number) => c === SPACE || c === TAB;
/** quoted-string text: `[\x01-\x08\x0b\x0c\x0e-\x1f\x7f] | \x21 | [\x23-\x5b] | [\x5d-\x7e]` or wide */
const isQtext = (c: number) => (c >= 0x01 && c <= 0x08) || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x1f) || c === 0x21
  || (c >= 0x23 && c <= 0x5b) || (c >= 0x5d && c <= 0x7f) || isWide(c);
/** what may follow a backslash: `[\x01-\x09\x0b\x0c\x0d-\x7f]` or wide */
const isQuotable = (c: number) => (c >= 0x01 && c <= 0x7f && c !== LF) || isWide(c);

/** dot-atom: `atext+(\.atext+)*` */
function isDotAtom(s: string): boolean {
  return s.split('.').every((part) => {
    if (part === '') return false;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      if (!isAlnum(c) && !ATEXT_SYMBOLS.has(c)) return false;
    }
    return true;
  });
}

/**
 * quoted-string: `"` (FWS? (qtext | `\` quotable))* FWS? `"`, FWS being `(WSP* CRLF)? WSP+`. Each run of
 * white space between two characters of text must be exactly one FWS, so the scan needs no lookahead.
 */
function isQuoted(s: string): boolean {
  if (s.length < 2 || s.charCodeAt(0) !== QUOTE || s.charCodeAt(s.length - 1) !== QUOTE) return false;
  const end = s.length - 1;
  let i = 1;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (isWsp(c) || c === CR) {
      while (i < end && isWsp(s.charCodeAt(i))) i++;
      if (i < end && s.charCodeAt(i) === CR) {
        if (i + 1 >= end || s.charCodeAt(i + 1) !== LF) return false;
        i += 2;
        const start = i;
        while (i < end && isWsp(s.charCodeAt(i))) i++;
        if (i === start) return false; // CRLF must be followed by white space
        if (i < end && s.charCodeAt(i) === CR) return false; // a second FWS with no text between
      }
    } else if (c === BACKSLASH) {
      if (i + 1 >= end || !isQuotable(s.charCodeAt(i + 1))) return false;
      i += 2;
    } else if (isQtext(c)) {
      i++;
    } else {
      return false;
    }
  }
  return true;
}

/**
 * yup's domain, `(label\.)+top` with `label = alnum ([a-z\d\-._~]* alnum)?` and `top = alpha ([a-z\d\-._~]* alpha)?`.
 * Because the inner class holds `.`, that language is: only those characters, an alphanumeric first, a letter
 * last, and at least one dot with an alphanumeric before it and a letter after it. Split on the dots, each
 * label is checked alone for its characters, and the boundaries between labels for that one dot.
 */
function isDomain(s: string): boolean {
  if (s === '' || !isAlnum(s.charCodeAt(0)) || !isAlpha(s.charCodeAt(s.length - 1))) return false;
  const labels = s.split('.');
  let separated = false;
  for (let l = 0; l < labels.length; l++) {
    const label = labels[l];
    for (let i = 0; i < label.length; i++) {
      const c = label.charCodeAt(i);
      if (!isAlnum(c) && !DOMAIN_SYMBOLS.has(c)) return false;
    }
    const next = labels[l + 1];
    if (!separated && label !== '' && next !== undefined && next !== '' && isAlnum(label.charCodeAt(label.length - 1)) && isAlpha(next.charCodeAt(0))) separated = true;
  }
  return separated;
}

/** The email check of every place that validates an address (entity attributes, users-permissions bodies). */
export function isEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  // the domain has no `@`; a quoted local part may
  const at = value.lastIndexOf('@');
  if (at < 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  return isDomain(domain) && (local.charCodeAt(0) === QUOTE ? isQuoted(local) : isDotAtom(local));
}
