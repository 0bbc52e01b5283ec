// A component's object type (`ComponentSharedSeo`: `id`, then its visible attributes). Its `…Input` (with an
// optional `id`) and `…FiltersInput` come from inputs.ts and filters.ts as a content type's do; v4 gives
// components no entity, response or operation types.
import type { ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { registerObjectType } from './entity-types';

export function registerComponent(ctx: SchemaContext, component: ContentType): void {
  registerObjectType(ctx, component);
}
