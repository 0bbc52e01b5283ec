// The write events of one instance, found from its database: the core service and the upload service get
// the `Database` already, so the emit point is one call there without threading a new dependency through.
import type { Database } from '../storage/dialect';
import type { Webhooks } from './index';

const byDb = new WeakMap<Database, Webhooks>();

export function attachWebhooks(db: Database, webhooks: Webhooks): void {
  byDb.set(db, webhooks);
}

export function webhooksOf(db: Database): Webhooks | undefined {
  return byDb.get(db);
}
