// The query string as v4's `strapi::query` middleware parses it (qs with strictNullHandling, arrayLimit
// 100, depth 20, overridable in config/middlewares.js), with two limits checked before qs runs: the
// length of the query string (`maxQueryLength`, default 8192 characters) and the number of parameters
// (qs's own `parameterLimit`, default 1000, where qs would silently drop the rest). A query string over
// either limit parses to a marker that the server turns into a 400 envelope.
import qs from 'qs';
import { ValidationError } from '../errors';

const REJECTED = Symbol('query rejected');

export interface QueryStringParser {
  parse(s: string): Record<string, unknown>;
  /** the 400 for a query string that was over a limit, if it was */
  rejection(query: unknown): ValidationError | undefined;
}

/** qs's options as strapi::query sets them: its defaults, then the project's config (without Tessera's own keys) */
export function qsParseOptions(config: Record<string, unknown>): qs.IParseOptions & { strictNullHandling: true } {
  const { maxQueryLength, ...rest } = config;
  void maxQueryLength;
  return { strictNullHandling: true, arrayLimit: 100, depth: 20, ...rest } as qs.IParseOptions & { strictNullHandling: true };
}

export function createQueryStringParser(config: Record<string, unknown>): QueryStringParser {
  const { maxQueryLength } = config;
  const options = qsParseOptions(config);
  const maxLength = typeof maxQueryLength === 'number' && maxQueryLength > 0 ? maxQueryLength : 8192;
  const maxParameters = typeof options.parameterLimit === 'number' && options.parameterLimit > 0 ? options.parameterLimit : 1000;
  const rejected = (message: string) => ({ [REJECTED]: message }) as Record<string, unknown>;
  return {
    parse(s) {
      if (s.length > maxLength) return rejected(`Query string too long (more than ${maxLength} characters)`);
      let parameters = 1;
      for (let i = s.indexOf('&'); i !== -1; i = s.indexOf('&', i + 1)) {
        if (++parameters > maxParameters) return rejected(`Too many query parameters (more than ${maxParameters})`);
      }
      return qs.parse(s, options) as Record<string, unknown>;
    },
    rejection(query) {
      const message = typeof query === 'object' && query !== null ? (query as { [REJECTED]?: string })[REJECTED] : undefined;
      return message === undefined ? undefined : new ValidationError(message);
    },
  };
}
