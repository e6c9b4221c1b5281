import type { IncomingMessage, ServerResponse } from 'node:http';
import { findScenarioSpec } from '../mock-scenario.ts';
import type { RequestRecorder } from '../request-recorder.ts';
import { sendJson } from '../response-writer.ts';
import { handleSunoRequest } from '../suno/suno-handler.ts';
import { handleMidjourneyRequest } from './midjourney-handler.ts';
import { parseTaskPlan, type TaskPlan, TaskPlanError } from './task-timeline.ts';

/** True for the paths of the Midjourney-proxy and Suno modes. */
export function isTaskPlatformPath(path: string): boolean {
  return path.startsWith('/mj/') || path.startsWith('/suno/');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** What the dispatcher hands over for a task-platform path. */
export interface TaskPlatformRequest {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly method: string;
  /** Path without the mock prefix, the query and a trailing slash. */
  readonly path: string;
  readonly url: string;
  /** The `/__mock/<spec>/` prefix's spec, if any. */
  readonly pathSpec: string | undefined;
  readonly recorder: RequestRecorder;
}

/**
 * Serves a Midjourney-proxy (`/mj/…`) or Suno (`/suno/…`) request. The task scenario comes from
 * the usual places (header `x-mock-scenario`, `/__mock/<spec>/` prefix, `[[mock:<spec>]]` in the
 * body) but has its own tokens: `task-step-<ms>`, `task-fail`, `submit-code-<n>`, `error-<status>`.
 */
export async function handleTaskPlatformRequest(input: TaskPlatformRequest): Promise<void> {
  const { request, response, method, path, url } = input;
  const headers = request.headers;
  const bodyText = method === 'GET' ? '' : await readBody(request);
  let body: unknown;
  try {
    body = bodyText === '' ? {} : JSON.parse(bodyText);
  } catch {
    body = bodyText;
  }
  const spec = findScenarioSpec(headers['x-mock-scenario'], input.pathSpec, bodyText);
  input.recorder.record({ method, path, url, headers, body, scenario: spec, time: Date.now() });
  const isSuno = path.startsWith('/suno/');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const message = 'The request body must be a JSON object.';
    if (isSuno) return sendJson(response, 400, { code: 'invalid_request', message, data: null });
    return sendJson(response, 400, { code: 4, description: message, result: null });
  }
  let plan: TaskPlan;
  try {
    plan = parseTaskPlan(spec);
  } catch (error) {
    if (!(error instanceof TaskPlanError)) throw error;
    if (isSuno)
      return sendJson(response, 400, { code: 'invalid_scenario', message: error.message, data: null });
    return sendJson(response, 400, { code: 4, description: error.message, result: null });
  }
  const origin = `http://${headers.host ?? 'localhost'}`;
  const record = body as Record<string, unknown>;
  if (isSuno) {
    const authorization = headers.authorization ?? '';
    const key = authorization.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : undefined;
    return handleSunoRequest(response, { method, path, body: record, plan, origin, key: key || undefined });
  }
  const secret = headers['mj-api-secret'];
  handleMidjourneyRequest(response, {
    method,
    path,
    body: record,
    plan,
    origin,
    secret: typeof secret === 'string' && secret !== '' ? secret : undefined,
  });
}
