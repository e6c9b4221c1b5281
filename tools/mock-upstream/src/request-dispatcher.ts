import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { handleAdminRequest, type MockServerStatus } from './admin-handler.ts';
import { handleTaskPlatformRequest, isTaskPlatformPath } from './midjourney/task-platform-dispatch.ts';
import { defaultScenario, findScenarioSpec, type MockScenario, parseScenario } from './mock-scenario.ts';
import { mockImagePath, sendMockImage } from './openai/openai-media-handlers.ts';
import {
  type MockProtocol,
  quotaErrorDetails,
  scenarioErrorDetails,
  sendHtmlError,
  sendProtocolError,
} from './protocol-errors.ts';
import { isRecord } from './reply-plan.ts';
import type { RequestRecorder } from './request-recorder.ts';
import { pause } from './response-writer.ts';
import { checkRouteAuth } from './route-auth.ts';
import { guessProtocol, resolveRoute } from './route-table.ts';

const emptyQuery = new URLSearchParams();
const emptyBody: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
const mockPrefix = '/__mock/';

const emptyBuffer = Buffer.alloc(0);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

/** Parses a body: JSON when it looks like JSON, the raw text otherwise, `undefined` when empty. */
function parseBody(text: string): { value: unknown; invalidJson: boolean } {
  if (text === '') return { value: undefined, invalidJson: false };
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return { value: text, invalidJson: false };
  try {
    return { value: JSON.parse(text), invalidJson: false };
  } catch {
    return { value: text, invalidJson: true };
  }
}

/** Builds the request listener of the mock server. */
export function createRequestListener(recorder: RequestRecorder, status: MockServerStatus): RequestListener {
  return (request, response) => {
    dispatch(request, response, recorder, status).catch((error: unknown) => {
      if (!response.headersSent) {
        const message = error instanceof Error ? error.message : String(error);
        sendProtocolError(response, 'openai', {
          status: 500,
          message: `mock-upstream internal error: ${message}`,
        });
      } else {
        response.destroy();
      }
    });
  };
}

async function dispatch(
  request: IncomingMessage,
  response: ServerResponse,
  recorder: RequestRecorder,
  status: MockServerStatus,
): Promise<void> {
  const url = request.url ?? '/';
  const method = request.method ?? 'GET';
  const queryIndex = url.indexOf('?');
  let path = queryIndex === -1 ? url : url.slice(0, queryIndex);
  if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
  if (path.startsWith('/__admin/')) {
    handleAdminRequest(method, path, response, recorder, status);
    return;
  }
  let pathSpec: string | undefined;
  if (path.startsWith(mockPrefix)) {
    const end = path.indexOf('/', mockPrefix.length);
    pathSpec = decodeURIComponent(
      end === -1 ? path.slice(mockPrefix.length) : path.slice(mockPrefix.length, end),
    );
    path = end === -1 ? '/' : path.slice(end);
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const query = queryIndex === -1 ? emptyQuery : new URLSearchParams(url.slice(queryIndex + 1));
  const headers = request.headers;
  if (isTaskPlatformPath(path)) {
    await handleTaskPlatformRequest({ request, response, method, path, url, pathSpec, recorder });
    return;
  }
  if (path === mockImagePath) {
    sendMockImage(response);
    return;
  }

  const resolved = resolveRoute(method, path, headers);
  const rawBody = resolved === undefined || resolved.route.readsBody ? await readBody(request) : emptyBuffer;
  const bodyText = rawBody.length === 0 ? '' : rawBody.toString('utf8');
  const parsed = resolved?.route.rawBody ? { value: bodyText, invalidJson: false } : parseBody(bodyText);
  const spec = findScenarioSpec(headers['x-mock-scenario'], pathSpec, bodyText);
  recorder.record({ method, path, url, headers, body: parsed.value, scenario: spec, time: Date.now() });

  const protocol: MockProtocol = resolved?.route.protocol ?? guessProtocol(path, headers);
  let scenario: MockScenario = defaultScenario;
  if (spec !== undefined) {
    try {
      scenario = parseScenario(spec);
    } catch (error) {
      sendProtocolError(response, protocol, { status: 400, message: (error as Error).message });
      return;
    }
  }
  if (scenario.latencyMs > 0 && !(await pause(response, scenario.latencyMs))) return;
  if (scenario.timeout) return;
  if (!resolved) {
    sendProtocolError(response, protocol, {
      status: 404,
      code: null,
      message: `Invalid URL (${method} ${path})`,
    });
    return;
  }
  const authProblem = checkRouteAuth(resolved.route, headers, query);
  if (authProblem) {
    sendProtocolError(response, protocol, authProblem);
    return;
  }
  if (scenario.htmlError) {
    sendHtmlError(response);
    return;
  }
  if (scenario.quotaError) {
    sendProtocolError(response, protocol, quotaErrorDetails(protocol));
    return;
  }
  if (scenario.errorStatus !== undefined) {
    sendProtocolError(response, protocol, scenarioErrorDetails(scenario.errorStatus));
    return;
  }
  if (resolved.route.readsBody && !resolved.route.rawBody && !isRecord(parsed.value) && bodyText !== '') {
    sendProtocolError(response, protocol, {
      status: 400,
      message: parsed.invalidJson
        ? 'We could not parse the JSON body of your request. The body must be valid JSON.'
        : 'The request body must be a JSON object.',
    });
    return;
  }
  const origin = `http://${headers.host ?? 'localhost'}`;
  await resolved.route.handler({
    request,
    response,
    path,
    query,
    body: isRecord(parsed.value) ? parsed.value : emptyBody,
    rawBody,
    scenario,
    pathModel: resolved.pathModel,
    origin,
  });
}
