// @strapi/plugin-documentation on test/plugin-projects/fields-app: the OpenAPI document it generates at start from
// every API, the plugins it is told to document (upload and users-permissions through their overrides, slugify
// generated) and the project's config (info, servers, mutateDocumentation), served with the Swagger UI page, the
// login page and swagger-ui-dist's files on its `auth: false` routes (v4 mounts them as admin routes:
// /documentation/..., /plugins/documentation/...); then the same project with the documentation behind a
// password (FIELDS_APP_DOCS_RESTRICTED=true): redirects to the login page and the login's redirects. Every
// answer must be what Strapi 4.26.2 answered (test/golden/plugins-documentation.*,
// test/golden/plugins-documentation-restricted.*; test/plugin-projects/fields-app/README.md).
import { describe, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

async function replayOn(name: string, env: Record<string, string> = {}): Promise<string[]> {
  const running = await startPluginProject('fields-app', { env });
  try {
    return await goldenProblems(name, running.url, running.token);
  } finally {
    await running.stop();
  }
}

describe('@strapi/plugin-documentation', () => {
  it('serves the generated document, the Swagger UI and its files exactly as Strapi 4.26.2 did', async () => {
    expect(await replayOn('plugins-documentation')).toEqual([]);
  }, 60_000);

  it('keeps them behind the login page when access is restricted, as Strapi 4.26.2 did', async () => {
    expect(await replayOn('plugins-documentation-restricted', { FIELDS_APP_DOCS_RESTRICTED: 'true' })).toEqual([]);
  }, 60_000);
});
