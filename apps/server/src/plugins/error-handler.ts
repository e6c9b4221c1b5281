import type { ServerResponse } from 'node:http';
import { isRelayRequestError, type ProtocolCodec } from '@switchyard/relay-kit';
import { ErrorCode } from '@switchyard/shared';
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { GatewayError, isGatewayError, requestRefused } from '../errors/gateway-error.ts';
import { type RouteFamily, routeFamilyOf } from './route-family.ts';

/** What an error writer uses of a request: Fastify's and the relay lane's both have it. */
export interface ErrorRequest {
  readonly id: string;
  readonly url: string;
  readonly log: FastifyBaseLogger;
  /** The matched route's config: `codec` names a protocol that writes its own errors. */
  readonly routeOptions: { readonly config: unknown };
}

/** What an error writer uses of a reply: Fastify's and the relay lane's both have it. */
export interface ErrorReply {
  readonly raw: ServerResponse;
  readonly sent: boolean;
  code(status: number): ErrorReply;
  type(contentType: string): ErrorReply;
  send(payload?: unknown): ErrorReply;
}

/** Statuses the console API keeps; every other business error is HTTP 200 with success=false. */
const API_KEPT_STATUSES = new Set([401, 404, 405, 413, 415, 429]);

/** Writes an error body in the given family's wire shape. */
export type ErrorWriter = (error: GatewayError, request: ErrorRequest, reply: ErrorReply) => unknown;

const writers = new Map<RouteFamily, ErrorWriter>();

/** Lets a relay codec own the error shape of its route family (Claude, Gemini, ...). */
export function registerErrorWriter(family: RouteFamily, writer: ErrorWriter): void {
  writers.set(family, writer);
}

function writeApiError(error: GatewayError, _request: ErrorRequest, reply: ErrorReply) {
  const status = API_KEPT_STATUSES.has(error.status) ? error.status : 200;
  return reply.code(status).send({ success: false, message: error.message });
}

function writeOpenAIError(error: GatewayError, request: ErrorRequest, reply: ErrorReply) {
  const type = error.type ?? (error.status >= 500 ? 'switchyard_error' : 'invalid_request_error');
  const code = error.wireCode === undefined ? error.code : error.wireCode;
  return reply.code(error.status).send({
    error: { message: `${error.message} (request id: ${request.id})`, type, param: null, code },
  });
}

/** A relay route's own codec writes its errors (Anthropic, Gemini and OpenAI shapes). */
function writeCodecError(
  codec: ProtocolCodec,
  error: GatewayError,
  request: ErrorRequest,
  reply: ErrorReply,
) {
  const body = codec.formatError({
    status: error.status,
    message: `${error.message} (request id: ${request.id})`,
    type: error.type,
    code: error.wireCode === undefined ? error.code : error.wireCode,
  });
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

/** A request body over the route's limit (413). */
export const bodyTooLargeError = () =>
  new GatewayError(ErrorCode.RequestBodyTooLarge, '请求体过大', { status: 413 });

/** A request body that is not valid JSON, or not as long as it said (400). */
export const invalidBodyError = () =>
  new GatewayError(ErrorCode.RequestInvalidBody, '无效的参数: 请求体不是合法的 JSON', { status: 400 });

/** Converts framework errors (bad JSON, validation, body size) into a GatewayError. */
export function toGatewayError(error: unknown): GatewayError {
  if (isGatewayError(error)) return error;
  if (isRelayRequestError(error)) return requestRefused(error.message);
  const fastifyError = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (fastifyError?.validation) {
    return new GatewayError(ErrorCode.RequestInvalidBody, `无效的参数: ${fastifyError.message}`, {
      status: 400,
    });
  }
  switch (fastifyError?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLargeError();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError(
        ErrorCode.RequestInvalidBody,
        '不支持的 Content-Type，请使用 application/json',
        {
          status: 415,
        },
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError(ErrorCode.RequestInvalidBody, '无效的参数: 请求体为空', { status: 400 });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidBodyError();
    default:
      break;
  }
  if (error instanceof SyntaxError || fastifyError?.statusCode === 400) return invalidBodyError();
  // PostgreSQL refuses text it cannot store (a NUL byte: SQLSTATE 22021, or 22P05): bad input.
  if (fastifyError?.code === '22021' || fastifyError?.code === '22P05') {
    return new GatewayError(ErrorCode.RequestInvalidBody, '无效的参数: 含有不支持的字符', { status: 400 });
  }
  if (fastifyError?.statusCode === 429) {
    return new GatewayError(ErrorCode.RequestRateLimited, '请求过于频繁，请稍后再试', { status: 429 });
  }
  return new GatewayError(ErrorCode.Internal, '服务器内部错误，请联系管理员', { status: 500, cause: error });
}

/** The one place errors become responses: each in its route family's (or codec's) shape. */
export function sendError(rawError: unknown, request: ErrorRequest, reply: ErrorReply) {
  const error = toGatewayError(rawError);
  if (error.logAsError) request.log.error({ err: rawError }, 'request failed');
  if (reply.sent || reply.raw.headersSent) return;
  const family = routeFamilyOf(request.url);
  const codec = (request.routeOptions?.config as { codec?: ProtocolCodec } | undefined)?.codec;
  if (codec) return writeCodecError(codec, error, request, reply);
  const writer = writers.get(family);
  if (writer) return writer(error, request, reply);
  if (family === 'api') return writeApiError(error, request, reply);
  return writeOpenAIError(error, request, reply);
}

/** Installs {@link sendError} and the not-found handler. */
export function installErrorHandler(app: FastifyInstance, { spaIndex }: { spaIndex: boolean }): void {
  app.setErrorHandler(sendError);

  app.setNotFoundHandler((request, reply) => {
    const family = routeFamilyOf(request.url);
    if (family === 'api')
      return reply
        .code(404)
        .send({ success: false, message: `Invalid URL (${request.method} ${request.url.split('?')[0]})` });
    if (family === 'web') {
      // The console is a single-page app: unknown page paths get index.html and route client-side.
      if (spaIndex && (request.method === 'GET' || request.method === 'HEAD')) {
        return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      }
      return reply.code(404).send({ success: false, message: 'Not Found' });
    }
    return reply.code(404).send({
      error: {
        message: `Invalid URL (${request.method} ${request.url.split('?')[0]})`,
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });
}
