// A minimal SMTP server on a free loopback port that keeps every message it receives: enough for
// nodemailer's SMTP transport (EHLO, MAIL, RCPT, DATA, QUIT; no TLS, no auth), so email tests send for real.
import net from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** the raw message (headers and body, dot-unstuffed) */
  data: string;
}

export interface SmtpServer {
  port: number;
  messages: ReceivedMail[];
  /** resolves with the next message (or one already waiting) */
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<SmtpServer> {
  const messages: ReceivedMail[] = [];
  let taken = 0;
  const waiters: Array<() => void> = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 test SMTP ready');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(current);
            current = { from: '', to: [], data: '' };
            reply('250 OK: queued');
            waiters.splice(0).forEach((w) => w());
          } else current.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') reply('250 test');
        else if (cmd === 'MAIL') { current.from = line.slice(10).trim(); reply('250 OK'); }
        else if (cmd === 'RCPT') { current.to.push(line.slice(8).trim()); reply('250 OK'); }
        else if (cmd === 'DATA') { inData = true; reply('354 End data with <CR><LF>.<CR><LF>'); }
        else if (cmd === 'QUIT') { reply('221 Bye'); socket.end(); }
        else if (cmd === 'RSET' || cmd === 'NOOP') reply('250 OK');
        else reply('502 Command not implemented');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
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

/** quoted-printable soft breaks and escapes undone, so links and codes can be read from the body */
export function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}
