import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';
import { redactCredentials, redactUrl } from '../lib/redact-credentials.ts';

/** Fields never written to logs. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-goog-api-key"]',
  'res.headers["set-cookie"]',
];

/** What a logged request carries (Fastify's request, or the relay lane's). */
interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/**
 * Fastify's request serializer with the URL's credentials redacted (`?key=` of Gemini clients and
 * `/api/log/token`, any token-shaped value).
 */
export function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host ?? req.headers?.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** pino's error serializer with credentials redacted from the message and stack. */
export function serializeError(error: Error) {
  const serialized = stdSerializers.err(error);
  if (typeof serialized.message === 'string') serialized.message = redactCredentials(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = redactCredentials(serialized.stack);
  return serialized;
}

type LoggerOption = FastifyServerOptions['logger'];

/**
 * The app's logger options: the configured level (or the caller's options, in tests) with the
 * header redaction and the credential-redacting serializers always added.
 */
export function loggerOptions(level: string, given: LoggerOption): LoggerOption {
  if (given === false) return false;
  const base = typeof given === 'object' && given !== null ? given : { level };
  return {
    ...base,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { ...base.serializers, req: serializeRequest as never, err: serializeError as never },
  };
}
