// The remote services the provider tests talk to, started by the tests themselves on loopback: an S3-compatible
// server (s3rver, storing in a temporary folder that stop() removes) and an SMTP server that asks for a login
// (smtp-server; test/helpers/smtp-server.ts has no AUTH, which the nodemailer provider's `auth` option needs).
// Both packages are installed in test/plugin-projects/node_modules, so they are loaded from there.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';

const requireFromPluginProjects = createRequire(path.join(PLUGIN_PROJECTS_DIR, 'package.json'));

/** what the tests use of s3rver 3 (no type declarations ship with it) */
interface S3rverInstance {
  run(): Promise<net.AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** the credentials s3rver accepts out of the box (the providers-app config uses them by default) */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const OBJECT_SUFFIX = '._S3rver_object';

export interface S3Server {
  port: number;
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /**
   * every object key of a bucket, sorted, read from s3rver's folder (so also an object whose write failed
   * halfway, which the S3 API would not list)
   */
  keys(bucket: string): string[];
  /** an object's bytes, from s3rver's folder */
  object(bucket: string, key: string): Buffer;
  /** the headers s3rver keeps for an object (content-type, cache-control, ...) */
  metadata(bucket: string, key: string): Record<string, string>;
  /** stops answering; start() serves the same folder on the same port again */
  pause(): Promise<void>;
  start(): Promise<void>;
  /** stops and removes the folder */
  stop(): Promise<void>;
}

function keysUnder(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return keysUnder(path.join(dir, e.name), `${prefix}${e.name}/`);
    return e.name.endsWith(OBJECT_SUFFIX) ? [prefix + e.name.slice(0, -OBJECT_SUFFIX.length)] : [];
  }).sort();
}

/** s3rver on a free loopback port with the given buckets, storing in a new temporary folder */
export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const S3rver = requireFromPluginProjects('s3rver') as S3rverClass;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  let port = 0;
  let running: S3rverInstance | undefined;
  const start = async () => {
    const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dir, configureBuckets: buckets.map((name) => ({ name })) });
    port = (await server.run()).port;
    running = server;
  };
  const pause = async () => {
    const server = running;
    running = undefined;
    await server?.close();
  };
  try {
    await start();
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const file = (bucket: string, key: string, suffix: string) => path.join(dir, bucket, `${key}._S3rver_${suffix}`);
  return {
    get port() { return port; },
    get endpoint() { return `http://127.0.0.1:${port}`; },
    keys: (bucket) => keysUnder(path.join(dir, bucket)),
    object: (bucket, key) => fs.readFileSync(file(bucket, key, 'object')),
    metadata: (bucket, key) => JSON.parse(fs.readFileSync(file(bucket, key, 'metadata.json'), 'utf8')) as Record<string, string>,
    pause,
    start,
    async stop() {
      try {
        await pause();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** what the tests use of smtp-server 3 */
interface SmtpServerInstance {
  listen(port: number, host: string, cb: () => void): void;
  close(cb: () => void): void;
  server: net.Server;
}
type SmtpSession = { envelope: { mailFrom: { address: string } | false; rcptTo: Array<{ address: string }> }; user?: string };
type SmtpServerClass = new (options: Record<string, unknown>) => SmtpServerInstance;

export interface AuthedMail {
  /** the envelope sender and recipients */
  from: string;
  to: string[];
  /** the login the client authenticated with */
  user: string;
  /** the raw message (headers and body) */
  data: string;
}

export interface AuthSmtpServer {
  port: number;
  messages: AuthedMail[];
  /** resolves with the next message (or one already waiting) */
  next(): Promise<AuthedMail>;
  close(): Promise<void>;
}

/** an SMTP server on a free loopback port that accepts mail only after AUTH with `user`/`pass` (no TLS) */
export async function startAuthSmtpServer(user: string, pass: string): Promise<AuthSmtpServer> {
  const { SMTPServer } = requireFromPluginProjects('smtp-server') as { SMTPServer: SmtpServerClass };
  const messages: AuthedMail[] = [];
  let taken = 0;
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth: { username: string; password: string }, _session: SmtpSession, cb: (err: Error | null, res?: { user: string }) => void) {
      if (auth.username === user && auth.password === pass) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream: NodeJS.ReadableStream, session: SmtpSession, cb: (err?: Error | null) => void) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: String(session.user),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        waiters.splice(0).forEach((w) => w());
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as net.AddressInfo).port,
    messages,
    next() {
      return new Promise((resolve) => {
        const take = () => resolve(messages[taken++]);
        if (messages.length > taken) take();
        else waiters.push(take);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** a loopback port nothing listens on (taken from the system, then released) */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
