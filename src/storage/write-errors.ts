// Errors a write raises for input the model refuses; the Content API turns each into v4's 400.
import type { ComponentAttribute, DynamicZoneAttribute } from '../model/types';

export class WriteError extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

/** An item `id` that is not one of the entity's current items of that field. */
export class ComponentOwnershipError extends WriteError {
  constructor(readonly attr: ComponentAttribute | DynamicZoneAttribute) {
    super(`Some of the provided components in ${attr.name} are not related to the entity`);
  }
}
