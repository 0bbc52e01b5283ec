// Input validation of a write, as v4.26's entity validator does it (all errors collected, abortEarly=false),
// for scalar attributes and the shape of components and dynamic zones. Returns the cleaned data.
// Uniqueness needs the database: see uniqueCandidates. Relation/media values pass through for a later stage.
import { ValidationError } from '../errors';
import type { Attribute, ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '../model/types';
import { castString, checkScalar } from './scalar-rules';
import { messages as m, printPath } from './validation-messages';

export interface ValidateOptions {
  isCreate: boolean;
  /** draftAndPublish on and publishedAt === null: required and minLength checks are skipped */
  isDraft: boolean;
  /** prefix of every error path (when validating a nested piece) */
  path?: string[];
  /** levels of objects and arrays a json or blocks value may nest (config/api.js `rest.maxJsonDepth`); none when absent */
  maxJsonDepth?: number;
}

export interface ValidationIssue {
  path: string[];
  message: string;
  name: 'ValidationError';
}

interface Run {
  model: Model;
  isCreate: boolean;
  isDraft: boolean;
  maxJsonDepth?: number;
  errors: ValidationIssue[];
  /** database-stage conversion errors (dates): v4 only reaches them when validation passed */
  dbErrors: ValidationIssue[];
}

/** Everything validation found, for a caller that adds its own checks before answering (relations). */
export interface CollectedInput {
  data: Data;
  errors: ValidationIssue[];
  dbErrors: ValidationIssue[];
}

type Data = Record<string, unknown>;

function isPlainObject(v: unknown): v is Data {
  return Object.prototype.toString.call(v) === '[object Object]';
}

function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

/** Validates and cleans `data` for a write to `ct`; throws ValidationError (400) listing every problem. */
export function validateInput(model: Model, ct: ContentType, data: Data, opts: ValidateOptions): Data {
  const run = collectInput(model, ct, data, opts);
  if (run.errors.length > 0) throw validationError(run.errors);
  // v4 raises these from the database layer: the message only, `details: {}` (verified on 4.26.2)
  if (run.dbErrors.length > 0) throw new ValidationError(run.dbErrors[0].message);
  return run.data;
}

/** Validates and cleans `data` without throwing for its content (only a payload that is not an object throws). */
export function collectInput(model: Model, ct: ContentType, data: Data, opts: ValidateOptions): CollectedInput {
  if (!isPlainObject(data)) {
    const action = opts.isCreate ? 'creation' : 'update';
    throw new ValidationError(`Invalid payload submitted for the ${action} of an entity of type ${ct.displayName}. Expected an object, but got ${typeof data}`);
  }
  const run: Run = { model, isCreate: opts.isCreate, isDraft: opts.isDraft, maxJsonDepth: opts.maxJsonDepth, errors: [], dbErrors: [] };
  const out = validateObject(run, ct, data, opts.path ?? [], true);
  return { data: out, errors: run.errors, dbErrors: run.dbErrors };
}

/** v4's yup ValidationError: one message, or "N errors occurred". */
export function validationError(errors: ValidationIssue[]): ValidationError {
  return new ValidationError(errors.length === 1 ? errors[0].message : m.many(errors.length), { errors });
}

/**
 * [attributeName, value] pairs of `data` (cleaned, top level) that need a uniqueness check:
 * unique and uid attributes with a non-null value (v4 skips null).
 */
export function uniqueCandidates(ct: ContentType, data: Data): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (attr.kind !== 'scalar' || !(attr.unique || attr.type === 'uid')) continue;
    const value = data[name];
    if (value !== undefined && value !== null) out.push([name, value]);
  }
  return out;
}

function defaultOf(attr: Attribute): unknown {
  // v4: on create, non-required repeatable components and dynamic zones default to [].
  if (!attr.required && ((attr.kind === 'component' && attr.repeatable) || attr.kind === 'dynamiczone')) return [];
  const def = attr.kind === 'scalar' ? attr.default : attr.raw.default;
  return def !== null && typeof def === 'object' ? structuredClone(def) : def;
}

function validateObject(run: Run, ct: ContentType, data: Data, path: string[], topLevel: boolean): Data {
  const out: Data = {};
  // Component items keep their id (update in place); the entry's own id is never written.
  if (!topLevel && data.id !== undefined) out.id = data.id;
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (!attr.writable) continue;
    let value = Object.prototype.hasOwnProperty.call(data, name) ? data[name] : undefined;
    if (value === undefined && run.isCreate) value = defaultOf(attr);
    const cleaned = validateAttribute(run, attr, value, [...path, name]);
    if (cleaned !== undefined) out[name] = cleaned;
  }
  return out;
}

function validateAttribute(run: Run, attr: Attribute, value: unknown, path: string[]): unknown {
  const p = printPath(path);
  switch (attr.kind) {
    case 'scalar': {
      const r = checkScalar(attr, value, p, run);
      for (const message of r.errors) run.errors.push(issue(path, message));
      if (r.dbError) run.dbErrors.push(issue(path, r.dbError));
      return r.value;
    }
    case 'media':
      return value;
    case 'relation':
      if (attr.required && !run.isDraft) {
        if (run.isCreate && value == null) run.errors.push(issue(path, m.defined(p)));
        else if (!run.isCreate && value === null) run.errors.push(issue(path, m.notNull(p)));
      }
      return value;
    case 'component':
      return attr.repeatable
        ? validateList(run, attr, value, path, (item, itemPath) => validateObject(run, run.model.require(attr.component), item, itemPath, false))
        : validateSingleComponent(run, attr, value, path);
    case 'dynamiczone':
      return validateList(run, attr, value, path, (item, itemPath) => validateZoneItem(run, attr, item, itemPath));
  }
}

function validateSingleComponent(run: Run, attr: ComponentAttribute, value: unknown, path: string[]): unknown {
  const p = printPath(path);
  const required = attr.required && !run.isDraft;
  if (value === undefined) {
    if (required && run.isCreate) run.errors.push(issue(path, m.defined(p)));
    return undefined;
  }
  if (value === null && !required) return null;
  // v4 prevents the cast here: the value is printed as given (a required null is a type error, as in v4)
  if (!isPlainObject(value)) {
    run.errors.push(issue(path, m.notType(p, 'object', value, value)));
    return value;
  }
  return validateObject(run, run.model.require(attr.component), value, path, false);
}

/** Repeatable components and dynamic zones: always an array (null is refused even when not required). */
function validateList(
  run: Run,
  attr: ComponentAttribute | DynamicZoneAttribute,
  value: unknown,
  path: string[],
  validateItem: (item: Data, itemPath: string[]) => unknown,
): unknown {
  const p = printPath(path);
  if (value === undefined) {
    if (run.isCreate) run.errors.push(issue(path, m.defined(p)));
    return undefined;
  }
  if (!Array.isArray(value)) {
    run.errors.push(issue(path, m.notType(p, 'array', value, value)));
    return value;
  }
  const out = value.map((raw, i) => {
    const itemPath = [...path, String(i)];
    // items are cast like yup object(): a JSON string is parsed, anything else non-object becomes null
    let item: unknown = raw;
    if (typeof item === 'string') { try { item = JSON.parse(item); } catch { item = null; } }
    if (!isPlainObject(item)) {
      run.errors.push(issue(itemPath, m.notType(printPath(itemPath), 'object', null, raw)));
      return raw;
    }
    return validateItem(item, itemPath);
  });
  // v4: min only counts when the attribute is required or the list is not empty
  if (attr.min !== undefined && Number.isInteger(attr.min) && (attr.required || value.length > 0) && value.length < attr.min) {
    run.errors.push(issue(path, m.arrayMin(p, attr.min)));
  }
  if (attr.max !== undefined && Number.isInteger(attr.max) && value.length > attr.max) {
    run.errors.push(issue(path, m.arrayMax(p, attr.max)));
  }
  return out;
}

function validateZoneItem(run: Run, attr: DynamicZoneAttribute, item: Data, path: string[]): unknown {
  const cpath = [...path, '__component'];
  const p = printPath(cpath);
  const raw = item.__component;
  if (raw === undefined) {
    run.errors.push(issue(cpath, m.required(p)));
    return item;
  }
  const uid = castString(raw);
  // v4 accepts any component of the project here (its message lists them all) and stores it in the zone,
  // data outside the zone's schema; a component the zone does not list is a 400 here (docs/compatibility.md)
  const known = typeof uid === 'string' ? run.model.components.get(uid) : undefined;
  if (!known) {
    if (typeof uid !== 'string') run.errors.push(issue(cpath, m.notType(p, 'string', uid, raw)));
    run.errors.push(issue(cpath, m.oneOf(p, [...run.model.components.keys()])));
    return item;
  }
  if (!attr.components.includes(known.uid)) {
    run.errors.push(issue(cpath, m.notInZone(p, known.uid, attr.name, attr.components)));
    return item;
  }
  return { __component: uid, ...validateObject(run, known, item, path, false) };
}
