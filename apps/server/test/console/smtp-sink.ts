import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the sink received, with its body decoded to text. */
export interface SunkMail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  /** Every text part, transfer-decoded and joined. */
  text: string;
  /** The SMTP account the sender authenticated as ('' without authentication). */
  authUser: string;
}

/** A real SMTP server on 127.0.0.1 (random port, no TLS, no auth) that keeps what it receives. */
export interface SmtpSink {
  port: number;
  messages: SunkMail[];
  /** Messages sent to an address, oldest first. */
  to(address: string): SunkMail[];
  close(): Promise<void>;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Decodes quoted-printable text (soft line breaks and =XX bytes) as UTF-8. */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Transfer-decodes a MIME entity; multipart bodies are split and decoded part by part. */
function decodeEntity(entity: string): string {
  const split = entity.search(/\r?\n\r?\n/);
  const headers = parseHeaders(split < 0 ? entity : entity.slice(0, split));
  const body = split < 0 ? '' : entity.slice(split).replace(/^\r?\n\r?\n/, '');
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => decodeEntity(part.replace(/^\r?\n/, '')))
      .join('\n');
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** With `auth`, the sink demands AUTH PLAIN/LOGIN with exactly that account and password. */
export async function startSmtpSink(
  options: { auth?: { user: string; pass: string } } = {},
): Promise<SmtpSink> {
  const messages: SunkMail[] = [];
  const { auth } = options;
  const server = new SMTPServer({
    authOptional: !auth,
    allowInsecureAuth: Boolean(auth),
    disabledCommands: ['STARTTLS'],
    logger: false,
    ...(auth && {
      onAuth(credentials, _session, callback) {
        if (credentials.username === auth.user && credentials.password === auth.pass) {
          return callback(null, { user: credentials.username });
        }
        callback(new Error('Invalid username or password'));
      },
    }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.search(/\r?\n\r?\n/);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          headers: parseHeaders(split < 0 ? raw : raw.slice(0, split)),
          text: decodeEntity(raw),
          authUser: typeof session.user === 'string' ? session.user : '',
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    messages,
    to: (address) => messages.filter((message) => message.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
