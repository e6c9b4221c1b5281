import { readJsonColumn } from '../db/json-column.ts';
import type { MidjourneyRow } from '../db/repositories/midjourney-repository.ts';

/**
 * midjourney-proxy wire knowledge (pure): the upstream request body, the submit response, the
 * task list the poller reads, and the task DTO clients get (reference §9.1).
 */

/** The Mj* options that shape requests and answers. */
export interface MidjourneySettings {
  accountFilter: boolean;
  notify: boolean;
  modeClear: boolean;
  forwardUrl: boolean;
  /** ServerAddress, without a trailing slash. */
  serverAddress: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The body sent upstream: `accountFilter` is dropped unless MjAccountFilterEnabled, `notifyHook`
 * always (the gateway notifies the client itself after polling, so the upstream never learns the
 * client's address and the client never sees upstream URLs), and with MjModeClearEnabled the
 * `--fast`, `--relax` and `--turbo` flags are removed from the prompt.
 */
export function buildUpstreamBody(
  body: Record<string, unknown>,
  settings: MidjourneySettings,
): Record<string, unknown> {
  const { accountFilter: _accountFilter, notifyHook: _notifyHook, ...rest } = body;
  const result: Record<string, unknown> = { ...rest };
  if (settings.accountFilter && 'accountFilter' in body) result.accountFilter = body.accountFilter;
  if (settings.modeClear && typeof result.prompt === 'string') {
    result.prompt = result.prompt
      .replaceAll('--fast', '')
      .replaceAll('--relax', '')
      .replaceAll('--turbo', '');
  }
  return result;
}

/** A usable notify hook of the request (http or https URL), or ''. */
export function notifyHookOf(body: Record<string, unknown>): string {
  const hook = text(body.notifyHook).trim();
  if (hook === '' || hook.length > 1000) return '';
  try {
    const url = new URL(hook);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : '';
  } catch {
    return '';
  }
}

/** The submit response `{code, description, result, properties}`. */
export interface SubmitResponse {
  code: number;
  description: string;
  /** The upstream task id (or, for uploads, the first URL). */
  result: string;
  /** Upload results: the image URLs. */
  urls: string[];
  properties: Record<string, unknown>;
  /** The body as parsed, returned to the client with the code rewritten. */
  body: Record<string, unknown>;
}

/** Parses a submit response; undefined when the body is not a midjourney-proxy answer. */
export function readSubmitResponse(bodyText: string): SubmitResponse | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (!isRecord(body) || typeof body.code !== 'number') return undefined;
  const urls = Array.isArray(body.result)
    ? body.result.filter((url): url is string => typeof url === 'string')
    : [];
  return {
    code: integer(body.code),
    description: text(body.description),
    result:
      typeof body.result === 'string'
        ? body.result
        : typeof body.result === 'number'
          ? String(body.result)
          : (urls[0] ?? ''),
    urls,
    properties: isRecord(body.properties) ? body.properties : {},
    body,
  };
}

/** Submit codes that mean the task was accepted: 1 submitted, 21 exists, 22 queued. */
export function isAcceptedCode(code: number): boolean {
  return code === 1 || code === 21 || code === 22;
}

/** A task as the upstream reports it in `list-by-condition`. */
export interface UpstreamMidjourneyTask {
  id: string;
  status: string;
  progress: string;
  promptEn: string;
  description: string;
  imageUrl: string;
  failReason: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  buttons: unknown[] | null;
  properties: Record<string, unknown> | null;
}

/** Parses the `list-by-condition` answer (an array of tasks); undefined when it is not one. */
export function readUpstreamTasks(bodyText: string): UpstreamMidjourneyTask[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (!Array.isArray(body)) return undefined;
  return body.filter(isRecord).map((task) => ({
    id: typeof task.id === 'number' ? String(task.id) : text(task.id),
    status: text(task.status),
    progress: text(task.progress),
    promptEn: text(task.promptEn),
    description: text(task.description),
    imageUrl: text(task.imageUrl),
    failReason: text(task.failReason),
    submitTime: integer(task.submitTime),
    startTime: integer(task.startTime),
    finishTime: integer(task.finishTime),
    buttons: Array.isArray(task.buttons) ? task.buttons : null,
    properties: isRecord(task.properties) ? task.properties : null,
  }));
}

/** The gateway-private key kept in `properties` (the client's notify hook); never shown. */
export const NOTIFY_HOOK_PROPERTY = 'switchyard_notify_hook';

/** The stored properties without the gateway's private keys. */
export function publicProperties(stored: string | null): Record<string, unknown> | null {
  const parsed = readJsonColumn(stored);
  if (!isRecord(parsed)) return null;
  const { [NOTIFY_HOOK_PROPERTY]: _hook, ...rest } = parsed;
  return rest;
}

/** The notify hook stored with a task, or ''. */
export function storedNotifyHook(stored: string | null): string {
  const parsed = readJsonColumn(stored);
  return isRecord(parsed) ? text(parsed[NOTIFY_HOOK_PROPERTY]) : '';
}

/**
 * A task row as midjourney-proxy's task DTO. With MjForwardUrlEnabled the image URL points at the
 * gateway (`<ServerAddress>/mj/image/<id>`, with `?rand=` while not SUCCESS so previews refresh).
 */
export function toMidjourneyDto(row: MidjourneyRow, settings: MidjourneySettings, now = Date.now()) {
  let imageUrl = row.image_url ?? '';
  if (imageUrl !== '' && settings.forwardUrl) {
    imageUrl = `${settings.serverAddress}/mj/image/${row.mj_id}`;
    if (row.status !== 'SUCCESS') imageUrl += `?rand=${now}`;
  }
  const buttons = readJsonColumn(row.buttons);
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt ?? '',
    promptEn: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl,
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason ?? '',
    buttons: Array.isArray(buttons) ? buttons : [],
    properties: publicProperties(row.properties),
  };
}
