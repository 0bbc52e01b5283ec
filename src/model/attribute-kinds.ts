import type { RelationKind, ScalarType } from './types';

export const SCALAR_TYPES: ReadonlySet<ScalarType> = new Set<ScalarType>([
  'string', 'text', 'richtext', 'enumeration', 'email', 'password', 'uid',
  'date', 'time', 'datetime', 'timestamp',
  'integer', 'biginteger', 'float', 'decimal', 'boolean', 'json', 'blocks',
]);

export const RELATION_KINDS: ReadonlySet<RelationKind> = new Set<RelationKind>([
  'oneToOne', 'oneToMany', 'manyToOne', 'manyToMany',
  'morphToOne', 'morphToMany', 'morphOne', 'morphMany',
]);

export function isToMany(relation: RelationKind): boolean {
  return relation === 'oneToMany' || relation === 'manyToMany' || relation === 'morphToMany' || relation === 'morphMany';
}

export function isMorph(relation: RelationKind): boolean {
  return relation.startsWith('morph');
}

/** What the inverse side of a bidirectional relation is, seen from the target. */
export function inverseKind(relation: RelationKind): RelationKind {
  switch (relation) {
    case 'oneToMany': return 'manyToOne';
    case 'manyToOne': return 'oneToMany';
    default: return relation;
  }
}
