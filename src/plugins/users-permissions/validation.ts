// The request-body checks of the users-permissions controllers (UP:controllers/validation/*.js), with
// yup's behaviour as v4 runs it (validateYupSchema: strict, all errors collected) and its messages.
import { ValidationError } from '../../errors';
import { isEmail } from '../../documents/email-address';
import { messages as m } from '../../documents/validation-messages';

type Rule =
  | { kind: 'string'; required?: boolean; email?: boolean; min?: number; equals?: { field: string; message: string } }
  | { kind: 'id'; required?: boolean }
  | { kind: 'role'; create: boolean };

export interface BodySchema {
  fields: Record<string, Rule>;
  /** yup `.noUnknown()` */
  noUnknown?: boolean;
}

interface Issue { path: string[]; message: string; name: 'ValidationError' }

const issue = (path: string[], message: string): Issue => ({ path, message, name: 'ValidationError' });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** yup.strapiID(): a number or a string of digits */
const isStrapiId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'string';

function checkString(name: string, rule: Extract<Rule, { kind: 'string' }>, v: unknown, body: Record<string, unknown>): string | null {
  if (v === undefined) return rule.required ? m.required(name) : null;
  if (typeof v !== 'string') return m.notType(name, 'string', v, v);
  if (rule.required && v === '') return m.required(name);
  if (rule.email && v !== '' && !isEmail(v)) return m.email(name);
  if (rule.min !== undefined && v.length < rule.min) return m.minLength(name, rule.min);
  if (rule.equals && v !== body[rule.equals.field]) return rule.equals.message;
  return null;
}

function checkRole(name: string, create: boolean, v: unknown): string | null {
  if (v === undefined || v === null) return create ? m.required(name) : null;
  if (typeof v === 'object') {
    const connect = (v as { connect?: unknown }).connect;
    if (!Array.isArray(connect)) return m.required(`${name}.connect`);
    if (create && connect.length < 1) return 'Users must have a role';
    if (!connect.every((c) => isObject(c) && isStrapiId(c.id))) return `${name}.connect must be a valid id`;
    if (!create) {
      const disconnect = (v as { disconnect?: unknown }).disconnect;
      if (!Array.isArray(disconnect)) return m.required(`${name}.disconnect`);
      if (connect.length === 0 && disconnect.length > 0) return 'Cannot remove role';
    }
    return null;
  }
  return isStrapiId(v) ? null : `${name} must be a valid id`;
}

/** Throws v4's ValidationError ("N errors occurred" with details.errors) or returns the body. */
export function validateBody<T extends Record<string, unknown>>(schema: BodySchema, input: unknown): T {
  const body = isObject(input) ? input : {};
  if (input !== undefined && input !== null && !isObject(input)) {
    throw new ValidationError(`this must be a \`object\` type, but the final value was: \`${JSON.stringify(input)}\`.`, { errors: [issue([], `this must be a \`object\` type, but the final value was: \`${JSON.stringify(input)}\`.`)] });
  }
  const errors: Issue[] = [];
  const keys = Object.keys(schema.fields);
  // yup 0.32 walks the fields in reverse declaration order, then sorts the errors by the first declared
  // key contained in the path (a substring test: `passwordConfirmation` sorts with `password`), stably
  for (const [name, rule] of Object.entries(schema.fields).reverse()) {
    const v = body[name];
    const message = rule.kind === 'string' ? checkString(name, rule, v, body)
      : rule.kind === 'role' ? checkRole(name, rule.create, v)
        : v === undefined ? (rule.required ? m.required(name) : null) : isStrapiId(v) ? null : `${name} must be a valid id`;
    if (message) errors.push(issue([name], message));
  }
  if (schema.noUnknown) {
    const unknown = Object.keys(body).filter((k) => !(k in schema.fields));
    if (unknown.length) errors.push(issue([], `this field has unspecified keys: ${unknown.join(', ')}`));
  }
  const rank = (e: Issue) => {
    const i = keys.findIndex((k) => (e.path[0] ?? '').includes(k));
    return i < 0 ? Infinity : i;
  };
  errors.sort((x, y) => rank(x) - rank(y));
  if (errors.length) throw new ValidationError(errors.length === 1 ? errors[0].message : m.many(errors.length), { errors });
  return body as T;
}

const str = (extra: Partial<Extract<Rule, { kind: 'string' }>> = {}): Rule => ({ kind: 'string', ...extra });

export const schemas = {
  callback: { fields: { identifier: str({ required: true }), password: str({ required: true }) } },
  register: { fields: { email: str({ required: true, email: true }), username: str({ required: true }), password: str({ required: true }) } },
  sendEmailConfirmation: { fields: { email: str({ required: true, email: true }) } },
  emailConfirmation: { fields: { confirmation: str({ required: true }) } },
  forgotPassword: { fields: { email: str({ required: true, email: true }) }, noUnknown: true },
  resetPassword: { fields: { password: str({ required: true }), passwordConfirmation: str({ required: true }), code: str({ required: true }) }, noUnknown: true },
  changePassword: {
    fields: {
      password: str({ required: true }),
      passwordConfirmation: str({ required: true, equals: { field: 'password', message: 'Passwords do not match' } }),
      currentPassword: str({ required: true }),
    },
    noUnknown: true,
  },
  createUser: { fields: { email: str({ required: true, email: true }), username: str({ required: true, min: 1 }), password: str({ required: true, min: 1 }), role: { kind: 'role', create: true } } },
  updateUser: { fields: { email: str({ email: true, min: 1 }), username: str({ min: 1 }), password: str({ min: 1 }), role: { kind: 'role', create: false } } },
} satisfies Record<string, BodySchema>;
