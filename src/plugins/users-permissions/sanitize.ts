// v4's `sanitize.contentAPI.output(user, schema, { auth })` for the users-permissions responses (and webhook
// bodies, without a caller): content/sanitize-output.ts with the caller's `find` permissions.
import type { Auth } from '../../auth/authenticate';
import { canFind } from '../../auth/permissions';
import type { ContentType, Model } from '../../model/types';
import { sanitizeOutput as sanitize } from '../../content/sanitize-output';

export function sanitizeOutput(model: Model, ct: ContentType, data: unknown, auth: Auth | undefined, globalPrivate: ReadonlySet<string> = new Set()): unknown {
  return sanitize(model, ct, data, { canRead: auth && ((uid) => canFind(auth, uid)), globalPrivate });
}
