import type { ServerResponse } from 'node:http';
import { mockImagePath } from '../openai/openai-media-handlers.ts';
import { sendJson } from '../response-writer.ts';
import {
  createTask,
  findTask,
  type MockTask,
  mockTaskFailReason,
  type TaskPlan,
  taskSnapshot,
} from './task-timeline.ts';

/** What the Midjourney-proxy mode needs from a request. */
export interface MidjourneyMockRequest {
  readonly method: string;
  /** Path without the mock prefix and the query, e.g. `/mj/submit/imagine`. */
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly plan: TaskPlan;
  readonly origin: string;
  readonly secret: string | undefined;
}

const submitActions: Record<string, string> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  shorten: 'SHORTEN',
  modal: 'MODAL',
};

const submitFailures: Record<number, string> = {
  3: 'No available account instance',
  4: 'Mock scenario: invalid request',
  23: '队列已满，请稍后尝试',
  24: '可能包含敏感词',
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The action a plus-style `customId` (`MJ::JOB::upsample::2::<hash>`) asks for. */
function actionOfCustomId(customId: string): string | undefined {
  const parts = customId.split('::');
  const name = (parts[1] === 'JOB' ? parts[2] : parts[1]) ?? '';
  if (name.includes('upsample')) return 'UPSCALE';
  if (name === 'low_variation') return 'LOW_VARIATION';
  if (name === 'high_variation') return 'HIGH_VARIATION';
  if (name.includes('variation')) return 'VARIATION';
  if (name.includes('pan')) return 'PAN';
  if (name.includes('reroll')) return 'REROLL';
  if (name === 'Outpaint') return 'ZOOM';
  if (name === 'CustomZoom') return 'CUSTOM_ZOOM';
  if (name === 'Inpaint') return 'INPAINT';
  return undefined;
}

/** The buttons a finished grid offers (upscale and variation of each image, reroll). */
function buttonsOf(task: MockTask): unknown[] {
  if (!['IMAGINE', 'VARIATION', 'REROLL', 'BLEND'].includes(task.action)) return [];
  const hash = task.id;
  const buttons: unknown[] = [];
  for (let index = 1; index <= 4; index++) {
    buttons.push({
      customId: `MJ::JOB::upsample::${index}::${hash}`,
      emoji: '',
      label: `U${index}`,
      type: 2,
      style: 2,
    });
  }
  buttons.push({ customId: `MJ::JOB::reroll::0::${hash}::SOLO`, emoji: '🔄', label: '', type: 2, style: 2 });
  for (let index = 1; index <= 4; index++) {
    buttons.push({
      customId: `MJ::JOB::variation::${index}::${hash}`,
      emoji: '',
      label: `V${index}`,
      type: 2,
      style: 2,
    });
  }
  return buttons;
}

/** A task in midjourney-proxy's shape, as `fetch` and `list-by-condition` answer it. */
export function midjourneyTaskView(
  task: MockTask,
  origin: string,
  now = Date.now(),
): Record<string, unknown> {
  const snapshot = taskSnapshot(task, now);
  const success = snapshot.status === 'SUCCESS';
  return {
    id: task.id,
    action: task.action,
    customId: '',
    botType: 'MID_JOURNEY',
    prompt: task.prompt,
    promptEn: task.prompt,
    description: `/${task.action.toLowerCase()} ${task.prompt}`.trim(),
    state: text(task.request.state),
    submitTime: task.submittedAt,
    startTime: snapshot.startedAt,
    finishTime: snapshot.finishedAt,
    imageUrl: success ? `${origin}${mockImagePath}` : '',
    status: snapshot.status,
    progress: snapshot.progress,
    failReason: snapshot.status === 'FAILURE' ? mockTaskFailReason : '',
    buttons: success ? buttonsOf(task) : [],
    properties: { finalPrompt: task.prompt, discordInstanceId: 'mock-instance' },
  };
}

function submit(response: ServerResponse, request: MidjourneyMockRequest, kind: string) {
  const { body, plan, origin } = request;
  let action = submitActions[kind];
  let prompt = text(body.prompt);
  const reference = findTask('midjourney', text(body.taskId));
  if (kind === 'swap') action = 'SWAP_FACE';
  else if (kind === 'change') action = text(body.action).toUpperCase();
  else if (kind === 'action') action = actionOfCustomId(text(body.customId));
  else if (kind === 'simple-change') {
    const [taskId = '', change = ''] = text(body.content).split(' ');
    const original = findTask('midjourney', taskId);
    if (!original) return sendJson(response, 200, { code: 4, description: 'task_not_found', result: null });
    action = change.toLowerCase().startsWith('u') ? 'UPSCALE' : change === 'r' ? 'REROLL' : 'VARIATION';
    prompt = original.prompt;
  }
  if (!action)
    return sendJson(response, 200, { code: 4, description: `unknown action: ${kind}`, result: null });
  if (['change', 'action', 'modal'].includes(kind)) {
    if (!reference) return sendJson(response, 200, { code: 4, description: 'task_not_found', result: null });
    prompt = prompt || reference.prompt;
  }
  if (kind === 'upload-discord-images') {
    const count = Array.isArray(body.base64Array) ? body.base64Array.length : 0;
    const urls = Array.from({ length: count }, () => `${origin}${mockImagePath}`);
    return sendJson(response, 200, { code: 1, description: 'success', result: urls });
  }
  const failure = submitFailures[plan.submitCode];
  if (failure !== undefined || ![1, 21, 22].includes(plan.submitCode)) {
    const description = failure ?? `Mock scenario: submit code ${plan.submitCode}`;
    return sendJson(response, 200, { code: plan.submitCode, description, result: null, properties: {} });
  }
  const settled = plan.submitCode === 21 ? { ...plan, stepMs: 0 } : plan;
  const task = createTask({ platform: 'midjourney', action, prompt, plan: settled, request: body });
  if (plan.submitCode === 21) {
    const view = midjourneyTaskView(task, origin);
    return sendJson(response, 200, {
      code: 21,
      description: '任务已存在',
      result: task.id,
      properties: { status: view.status, imageUrl: view.imageUrl },
    });
  }
  if (plan.submitCode === 22) {
    return sendJson(response, 200, {
      code: 22,
      description: '排队中，前面还有1个任务',
      result: task.id,
      properties: { numberOfQueues: 1, discordInstanceId: 'mock-instance' },
    });
  }
  sendJson(response, 200, {
    code: 1,
    description: '提交成功',
    result: task.id,
    properties: { discordInstanceId: 'mock-instance' },
  });
}

/**
 * Serves midjourney-proxy's API: `POST /mj/submit/{imagine,change,simple-change,describe,blend,
 * modal,shorten,action,upload-discord-images}`, `POST /mj/insight-face/swap`,
 * `GET /mj/task/{id}/fetch`, `POST /mj/task/list-by-condition` and `GET /mj/task/{id}/image-seed`.
 * The key is the `mj-api-secret` header; `sk-invalid` and a missing key get a 401.
 */
export function handleMidjourneyRequest(response: ServerResponse, request: MidjourneyMockRequest) {
  const { method, path, plan, origin } = request;
  if (!request.secret || request.secret === 'sk-invalid') {
    return sendJson(response, 401, { code: 4, description: 'Invalid mj-api-secret', result: null });
  }
  if (plan.errorStatus !== undefined) {
    return sendJson(response, plan.errorStatus, {
      code: 4,
      description: `Mock scenario: error ${plan.errorStatus}`,
      result: null,
    });
  }
  const submitMatch = /^\/mj\/submit\/([a-z-]+)$/.exec(path);
  if (method === 'POST' && submitMatch) return submit(response, request, submitMatch[1]!);
  if (method === 'POST' && path === '/mj/insight-face/swap') return submit(response, request, 'swap');
  if (method === 'POST' && path === '/mj/task/list-by-condition') {
    const ids = Array.isArray(request.body.ids) ? request.body.ids : [];
    const found = ids
      .map((id) => findTask('midjourney', text(id)))
      .filter((task): task is MockTask => task !== undefined);
    return sendJson(
      response,
      200,
      found.map((task) => midjourneyTaskView(task, origin)),
    );
  }
  const taskMatch = /^\/mj\/task\/([^/]+)\/(fetch|image-seed)$/.exec(path);
  if (method === 'GET' && taskMatch) {
    const task = findTask('midjourney', decodeURIComponent(taskMatch[1]!));
    if (!task) return sendJson(response, 404, { code: 4, description: 'task_not_found', result: null });
    if (taskMatch[2] === 'image-seed') {
      return sendJson(response, 200, { code: 1, description: 'success', result: `seed-${task.id}` });
    }
    return sendJson(response, 200, midjourneyTaskView(task, origin));
  }
  sendJson(response, 404, { code: 4, description: `Invalid URL (${method} ${path})`, result: null });
}
