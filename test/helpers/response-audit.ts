// What no HTTP response may ever carry: a bcrypt password hash, a reset-password or email-confirmation
// token, or a private user attribute. `findSecrets` scans one serialized body; the setup file
// (response-audit-setup.ts) runs it on every response every test server sends.

/** bcrypt hashes as bcryptjs and real Strapi write them */
const BCRYPT = /\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}/;
/** v4's reset-password token (64 random bytes, hex) and confirmation token (20 random bytes, hex), as JSON strings */
const RESET_TOKEN = /"[0-9a-f]{128}"/;
const CONFIRMATION_TOKEN = /"[0-9a-f]{40}"/;
/** keys of the user model's private attributes with a value */
const PRIVATE_KEY = /"(password|resetPasswordToken|confirmationToken)"\s*:\s*(?!null)[^,}\]]/;
/**
 * an OpenAPI document (the documentation plugin's, alone or in its Swagger UI page): it names those attributes
 * in schemas and shows example values (`"password": "Test1234"`), none of them a user's
 */
const isOpenApiDocument = (body: string) => /"openapi"\s*:\s*"3\./.test(body) && /"paths"\s*:\s*\{/.test(body);

export function findSecrets(body: string): string[] {
  const found: string[] = [];
  if (BCRYPT.test(body)) found.push('a bcrypt password hash');
  if (RESET_TOKEN.test(body)) found.push('a reset-password token (128 hex characters)');
  if (CONFIRMATION_TOKEN.test(body)) found.push('a confirmation token (40 hex characters)');
  const key = isOpenApiDocument(body) ? null : PRIVATE_KEY.exec(body);
  if (key) found.push(`the private attribute "${key[1]}"`);
  return found;
}
