import { i18n } from './i18n';
import { notify } from './notify';
import { clearSessionUser, getSessionUser } from './session';

/** The envelope every /api reply uses. */
export interface ApiEnvelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** Why a call failed: the server said success:false, an HTTP status, the network, or an unreadable body. */
export type ApiErrorKind = 'envelope' | 'http' | 'network' | 'parse';

/**
 * The one error type of the console API (shaped like refine's HttpError). `handled` is true when
 * the client already told the user (401/429/500/405/other statuses), so callers must not show it again;
 * success:false errors are not handled here and callers (the query client) show the server message.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly handled: boolean;
  readonly errors: Record<string, string> | undefined;

  constructor(
    message: string,
    options: { status: number; kind: ApiErrorKind; handled: boolean; errors?: Record<string, string> },
  ) {
    super(message);
    this.status = options.status;
    this.kind = options.kind;
    this.handled = options.handled;
    this.errors = options.errors;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError' && 'kind' in error;
}

/** Client-wide reactions, replaceable by the app (navigation) and by tests. */
export interface ApiClientHooks {
  /** Called after a 401 once the stored user is cleared; the app routes to /login?expired=true. */
  onUnauthorized: () => void;
  notifyError: (message: string) => void;
  notifyInfo: (message: string) => void;
}

export const EXPIRED_LOGIN_PATH = '/login?expired=true';

const defaultHooks: ApiClientHooks = {
  onUnauthorized: () => {
    if (window.location.pathname !== '/login') window.location.assign(EXPIRED_LOGIN_PATH);
  },
  notifyError: (message) => notify.error(message),
  notifyInfo: (message) => notify.info(message),
};

let hooks: ApiClientHooks = { ...defaultHooks };

/** Overrides some client hooks; returns a function restoring the previous ones. */
export function configureApiClient(partial: Partial<ApiClientHooks>): () => void {
  const previous = hooks;
  hooks = { ...hooks, ...partial };
  return () => {
    hooks = previous;
  };
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Do not show client-wide messages (401 still clears the user and redirects). */
  silent?: boolean;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, String(value));
  }
  const text = search.toString();
  if (!text) return path;
  return path.includes('?') ? `${path}&${text}` : `${path}?${text}`;
}

const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, { ns: 'common', ...options });

function fail(
  message: string,
  status: number,
  kind: ApiErrorKind,
  silent: boolean | undefined,
  info = false,
) {
  if (!silent) (info ? hooks.notifyInfo : hooks.notifyError)(message);
  return new ApiError(message, { status, kind, handled: !silent });
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Calls a console endpoint and returns the whole envelope (for the few callers that need
 * `message` on success, e.g. the OAuth callback's "bind"). Throws ApiError on any failure.
 */
export async function requestEnvelope<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiEnvelope<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const user = getSessionUser();
  if (user) headers['New-Api-User'] = String(user.id);
  const init: RequestInit = { method, headers, credentials: 'same-origin', signal: options.signal ?? null };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), init);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw fail(t('errors.prefixed', { message: reason }), 0, 'network', options.silent);
  }

  if (response.status === 401) {
    clearSessionUser({ expired: true });
    hooks.onUnauthorized();
    throw new ApiError(t('errors.loginExpired'), { status: 401, kind: 'http', handled: true });
  }
  if (response.status === 429) throw fail(t('errors.tooManyRequests'), 429, 'http', options.silent);
  if (response.status === 500) throw fail(t('errors.internal'), 500, 'http', options.silent);
  if (response.status === 405) throw fail(t('errors.demoSite'), 405, 'http', options.silent, true);

  const body = await readBody(response);
  if (!response.ok) {
    const serverMessage =
      body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
        ? body.message
        : response.statusText || `HTTP ${response.status}`;
    throw fail(t('errors.prefixed', { message: serverMessage }), response.status, 'http', options.silent);
  }
  if (!body || typeof body !== 'object') {
    throw fail(t('errors.invalidResponse'), response.status, 'parse', options.silent);
  }
  const envelope = body as Partial<ApiEnvelope<T>> & { errors?: Record<string, string> };
  if (envelope.success === false) {
    throw new ApiError(envelope.message || t('errors.unknown'), {
      status: response.status,
      kind: 'envelope',
      handled: false,
      ...(envelope.errors ? { errors: envelope.errors } : {}),
    });
  }
  return { success: true, message: envelope.message ?? '', data: envelope.data as T };
}

/** Calls a console endpoint and returns `data`. */
export async function request<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
  return (await requestEnvelope<T>(method, path, options)).data;
}

export const apiClient = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/** Shows an error the client has not shown yet (success:false messages, unexpected exceptions). */
export function showApiError(error: unknown): void {
  if (isApiError(error)) {
    if (!error.handled) hooks.notifyError(error.message);
    return;
  }
  if (error instanceof Error && error.name === 'AbortError') return;
  hooks.notifyError(error instanceof Error ? error.message : String(error));
}
