// v4's default `users-permissions.config.callback.validate` (UP:config.js): a front-end callback passed to
// /api/connect/:provider as `?callback=` must have the origin and path of the provider's configured
// `callback`; its query may differ (to carry the front end's own state). A project may replace the check in
// config/plugins.js; it throws to refuse.
export function validateCallback(callback: unknown, provider: Record<string, unknown>): void {
  let given: URL;
  let configured: URL;
  try {
    given = new URL(callback as string);
    configured = new URL(provider.callback as string);
  } catch {
    throw new Error('The callback is not a valid URL');
  }
  if (given.origin !== configured.origin) throw new Error("Forbidden callback provided: origins don't match. Please verify your config.");
  if (given.pathname !== configured.pathname) throw new Error("Forbidden callback provided: pathname don't match. Please verify your config.");
}
