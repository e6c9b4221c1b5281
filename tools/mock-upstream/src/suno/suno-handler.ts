import type { ServerResponse } from 'node:http';
import {
  createTask,
  findTask,
  type MockTask,
  mockTaskFailReason,
  type TaskPlan,
  taskSnapshot,
} from '../midjourney/task-timeline.ts';
import { mockImagePath } from '../openai/openai-media-handlers.ts';
import { sendJson } from '../response-writer.ts';

/** What the Suno mode needs from a request. */
export interface SunoMockRequest {
  readonly method: string;
  /** Path without the mock prefix and the query, e.g. `/suno/submit/music`. */
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly plan: TaskPlan;
  readonly origin: string;
  /** The Bearer key, if any. */
  readonly key: string | undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const seconds = (milliseconds: number) => Math.floor(milliseconds / 1000);

/** The clips (music) or the lyrics a finished task carries in `data`. */
function resultData(task: MockTask, origin: string): unknown {
  if (task.action === 'LYRICS') {
    return {
      id: `lyrics-${task.id}`,
      status: 'complete',
      title: 'Mock lyrics',
      text: `[Verse]\n${task.prompt}\n[Chorus]\nHello from mock suno`,
    };
  }
  return [1, 2].map((index) => ({
    id: `clip-${task.id}-${index}`,
    status: 'complete',
    title: text(task.request.title) || 'Mock song',
    audio_url: `${origin}/__files/mock-audio-${index}.mp3`,
    image_url: `${origin}${mockImagePath}`,
    model_name: text(task.request.mv) || 'chirp-v3-0',
    metadata: { prompt: task.prompt, tags: text(task.request.tags), duration: 30 },
  }));
}

/** A task in the Suno relay's `SunoDataResponse` shape (times in seconds). */
export function sunoTaskView(task: MockTask, origin: string, now = Date.now()): Record<string, unknown> {
  const snapshot = taskSnapshot(task, now);
  return {
    task_id: task.id,
    action: task.action,
    status: snapshot.status,
    fail_reason: snapshot.status === 'FAILURE' ? mockTaskFailReason : '',
    submit_time: seconds(task.submittedAt),
    start_time: seconds(snapshot.startedAt),
    finish_time: seconds(snapshot.finishedAt),
    data: snapshot.status === 'SUCCESS' ? resultData(task, origin) : null,
  };
}

const failure = (response: ServerResponse, status: number, code: string, message: string) =>
  sendJson(response, status, { code, message, data: null });

/**
 * Serves the Suno task API: `POST /suno/submit/{music|lyrics}` → `{code:"success", data:<task id>}`,
 * `POST /suno/fetch {ids}` → `{code:"success", data:[task…]}`, `GET /suno/fetch/{id}`.
 * The key is `Authorization: Bearer`; `sk-invalid` and a missing key get a 401.
 */
export function handleSunoRequest(response: ServerResponse, request: SunoMockRequest) {
  const { method, path, body, plan, origin } = request;
  if (!request.key || request.key === 'sk-invalid')
    return failure(response, 401, 'unauthorized', 'Invalid API key');
  if (plan.errorStatus !== undefined) {
    return failure(response, plan.errorStatus, 'mock_error', `Mock scenario: error ${plan.errorStatus}`);
  }
  const submitMatch = /^\/suno\/submit\/([A-Za-z]+)$/.exec(path);
  if (method === 'POST' && submitMatch) {
    const action = submitMatch[1]!.toUpperCase();
    if (action !== 'MUSIC' && action !== 'LYRICS')
      return failure(response, 400, 'invalid_action', 'invalid action');
    if (plan.submitCode !== 1)
      return failure(response, 200, 'mock_submit_failed', `Mock scenario: submit code ${plan.submitCode}`);
    const prompt = text(body.prompt) || text(body.gpt_description_prompt);
    const task = createTask({ platform: 'suno', action, prompt, plan, request: body });
    return sendJson(response, 200, { code: 'success', message: '', data: task.id });
  }
  if (method === 'POST' && path === '/suno/fetch') {
    const ids = Array.isArray(body.ids) ? body.ids : [];
    const found = ids
      .map((id) => findTask('suno', text(id)))
      .filter((task): task is MockTask => task !== undefined);
    return sendJson(response, 200, {
      code: 'success',
      message: '',
      data: found.map((task) => sunoTaskView(task, origin)),
    });
  }
  const fetchMatch = /^\/suno\/fetch\/([^/]+)$/.exec(path);
  if (method === 'GET' && fetchMatch) {
    const task = findTask('suno', decodeURIComponent(fetchMatch[1]!));
    if (!task) return failure(response, 404, 'task_not_found', 'task not found');
    return sendJson(response, 200, { code: 'success', message: '', data: sunoTaskView(task, origin) });
  }
  failure(response, 404, 'not_found', `Invalid URL (${method} ${path})`);
}
