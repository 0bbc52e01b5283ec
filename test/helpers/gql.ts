// One GraphQL request to a started server's /graphql endpoint: its status and parsed body.
export interface GqlAnswer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: Record<string, unknown>; path?: unknown[] }> };
}

export async function gql(baseUrl: string, query: string, opts: { variables?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<GqlAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables: opts.variables }), signal: AbortSignal.timeout(20_000) });
  return { status: res.status, body: (await res.json()) as GqlAnswer['body'] };
}
