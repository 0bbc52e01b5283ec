// GraphQL requests of the benchmark cases, and what of a GraphQL answer counts: its `data` by value, and
// any `errors` (a GraphQL failure is often a 200, so the status alone does not tell).
import { componentName } from '../../src/graphql/schema/naming';
import type { InjectRequest } from '../cases';
import { fixtureModel } from './fixture';

const GRAPHQL_PATH = '/graphql';

/** One POST /graphql request; the query's whitespace is collapsed (it is sent on every request). */
export function graphqlRequest(query: string, variables?: Record<string, unknown>): InjectRequest {
  return { method: 'POST', url: GRAPHQL_PATH, payload: variables ? { query: oneLine(query), variables } : { query: oneLine(query) } };
}

function oneLine(query: string): string {
  return query.replace(/\s+/g, ' ').trim();
}

interface GraphqlBody {
  data?: unknown;
  errors?: { message?: unknown }[];
}

const asBody = (body: unknown): GraphqlBody => (body && typeof body === 'object' ? (body as GraphqlBody) : {});

/** What two servers' answers must agree on: `data`, and the error messages if there are any. */
export function graphqlCompared(body: unknown): unknown {
  const b = asBody(body);
  return b.errors ? { data: b.data ?? null, errors: b.errors.map((e) => e.message) } : { data: b.data ?? null };
}

/** Why a GraphQL answer (its text) is a failure: a status other than 200, no JSON, no `data`, or `errors`; or null. */
export function graphqlFailure(status: number, text: string): string | null {
  let body: GraphqlBody | undefined;
  try {
    body = asBody(JSON.parse(text));
  } catch {
    // not JSON: a failure, told with the text
  }
  if (status === 200 && body && !body.errors?.length && body.data !== undefined) return null;
  return `${status} ${text.slice(0, 200)}`;
}

/** `graphqlFailure` for every answer under load: only a text that names `errors` is parsed */
export const graphqlFailedUnderLoad = (status: number, text: string): boolean => text.includes('"errors"') && graphqlFailure(status, text) !== null;

/** `__component: 'blocks.text'` (REST) -> `__typename: 'ComponentBlocksText'` (GraphQL's dynamic-zone input), by v4's naming. */
export function componentTypename(uid: string): string {
  return componentName(fixtureModel().require(uid));
}
