import type { ServerResponse } from 'node:http';
import { sendBody, sendJson } from './response-writer.ts';

/** The wire family a route belongs to; it decides the error body shape. */
export type MockProtocol = 'openai' | 'anthropic' | 'gemini' | 'bedrock';

/** What an error says, before it is put into a protocol's shape. */
export interface MockErrorDetails {
  readonly status: number;
  readonly message: string;
  /** OpenAI `type` / Anthropic `error.type`; derived from the status when absent. */
  readonly type?: string;
  /** OpenAI `code`; derived from the status when absent. */
  readonly code?: string | null;
  /** OpenAI `param`. */
  readonly param?: string | null;
  /** Google `status` (`INVALID_ARGUMENT`, ...); derived from the HTTP status when absent. */
  readonly googleStatus?: string;
  /** Google `details` array. */
  readonly details?: readonly unknown[];
}

const openAiTypes: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
};

const anthropicTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const googleStatuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Builds the error body a real provider of `protocol` sends, as a plain object. */
export function buildErrorBody(protocol: MockProtocol, details: MockErrorDetails): unknown {
  const { status, message } = details;
  if (protocol === 'bedrock') return { message };
  if (protocol === 'anthropic') {
    const type =
      details.type ?? anthropicTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  }
  if (protocol === 'gemini') {
    const googleStatus =
      details.googleStatus ?? googleStatuses[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN');
    const error: Record<string, unknown> = { code: status, message, status: googleStatus };
    if (details.details) error.details = details.details;
    return { error };
  }
  const [defaultType, defaultCode] = openAiTypes[status] ?? [
    status >= 500 ? 'server_error' : 'invalid_request_error',
    null,
  ];
  return {
    error: {
      message,
      type: details.type ?? defaultType,
      param: details.param ?? null,
      code: details.code === undefined ? defaultCode : details.code,
    },
  };
}

/** Sends a protocol-shaped error response. */
export function sendProtocolError(
  response: ServerResponse,
  protocol: MockProtocol,
  details: MockErrorDetails,
): void {
  const extraHeaders = protocol === 'bedrock' ? { 'x-amzn-errortype': bedrockErrorType(details) } : undefined;
  sendJson(response, details.status, buildErrorBody(protocol, details), extraHeaders);
}

const bedrockErrorTypes: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  503: 'ServiceUnavailableException',
};

/** The `x-amzn-ErrorType` of a Bedrock error (`details.type`, else derived from the status). */
export function bedrockErrorType(details: MockErrorDetails): string {
  return details.type ?? bedrockErrorTypes[details.status] ?? 'InternalServerException';
}

const scenarioMessages: Record<number, string> = {
  400: 'Mock scenario: the request was rejected as invalid.',
  401: 'Mock scenario: incorrect API key provided.',
  403: 'Mock scenario: access to this resource is forbidden.',
  404: 'Mock scenario: the model does not exist or you do not have access to it.',
  429: 'Mock scenario: rate limit reached, please try again later.',
  500: 'Mock scenario: the server had an error while processing your request.',
  502: 'Mock scenario: bad gateway.',
  503: 'Mock scenario: the engine is currently overloaded, please try again later.',
  504: 'Mock scenario: the upstream timed out.',
  529: 'Mock scenario: overloaded.',
};

/** The error a scenario such as `error-429` asks for. */
export function scenarioErrorDetails(status: number): MockErrorDetails {
  return { status, message: scenarioMessages[status] ?? `Mock scenario: error ${status}.` };
}

/** The "out of quota / credit" error each provider really sends (a channel fault, not transient). */
export function quotaErrorDetails(protocol: MockProtocol): MockErrorDetails {
  if (protocol === 'anthropic') {
    return {
      status: 400,
      type: 'invalid_request_error',
      message:
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    };
  }
  if (protocol === 'gemini' || protocol === 'bedrock') {
    return {
      status: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
    };
  }
  return {
    status: 429,
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  };
}

/** The in-stream error event of each protocol (sent after headers, when a status can no longer change). */
export function buildStreamErrorEvent(protocol: MockProtocol): string {
  if (protocol === 'anthropic') {
    return `event: error\ndata: ${JSON.stringify(buildErrorBody('anthropic', { status: 529, message: 'Overloaded' }))}\n\n`;
  }
  if (protocol === 'gemini' || protocol === 'bedrock') {
    const body = buildErrorBody('gemini', {
      status: 500,
      message: 'Mock scenario: internal error mid-stream.',
    });
    return `data: ${JSON.stringify(body)}\r\n\r\n`;
  }
  const body = buildErrorBody('openai', {
    status: 500,
    message: 'Mock scenario: the server had an error while processing your request.',
  });
  return `data: ${JSON.stringify(body)}\n\n`;
}

const htmlErrorBody =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** Sends the HTML 502 page a reverse proxy returns when the provider behind it is down. */
export function sendHtmlError(response: ServerResponse): void {
  sendBody(response, 502, 'text/html', htmlErrorBody);
}
