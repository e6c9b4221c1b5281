import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, mockFetch, ok } from '../testing/mock-fetch';
import { ApiError, apiClient, configureApiClient, isApiError, showApiError } from './api-client';
import { getSessionUser, setSessionUser } from './session';

const hooks = {
  onUnauthorized: vi.fn(),
  notifyError: vi.fn(),
  notifyInfo: vi.fn(),
};
let restore: () => void;

beforeEach(() => {
  hooks.onUnauthorized = vi.fn();
  hooks.notifyError = vi.fn();
  hooks.notifyInfo = vi.fn();
  restore = configureApiClient(hooks);
});
afterEach(() => restore());

async function catchError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('api-client', () => {
  it('returns data and sends cookies and the New-Api-User header of the stored user', async () => {
    setSessionUser({ id: 42, username: 'alice', role: 1 });
    const fetch = mockFetch({ 'GET /api/user/self': ok({ id: 42 }) });
    await expect(apiClient.get('/api/user/self', { query: { p: 1, empty: undefined } })).resolves.toEqual({
      id: 42,
    });
    const [request] = fetch.requests;
    expect(request?.headers.get('New-Api-User')).toBe('42');
    expect(request?.url.search).toBe('?p=1');
    expect(fetch.spy.mock.calls[0]?.[1]?.credentials).toBe('same-origin');
  });

  it('sends no New-Api-User header when nobody is logged in, and JSON bodies', async () => {
    const fetch = mockFetch({ 'POST /api/user/login': ok({ id: 1 }) });
    await apiClient.post('/api/user/login', { username: 'a', password: 'b' });
    expect(fetch.requests[0]?.headers.has('New-Api-User')).toBe(false);
    expect(fetch.requests[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(fetch.requests[0]?.body).toEqual({ username: 'a', password: 'b' });
  });

  it('401 clears the stored user and asks the app to go to /login?expired=true', async () => {
    setSessionUser({ id: 7, username: 'bob', role: 1 });
    mockFetch({ 'GET /api/user/self': { status: 401, body: { success: false, message: 'no' } } });
    const error = await catchError(apiClient.get('/api/user/self'));
    expect(error.status).toBe(401);
    expect(error.handled).toBe(true);
    expect(getSessionUser()).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(hooks.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });

  it('429 shows the too-many-requests message', async () => {
    mockFetch({ 'GET /api/status': { status: 429, body: 'slow down' } });
    const error = await catchError(apiClient.get('/api/status'));
    expect(error.handled).toBe(true);
    expect(hooks.notifyError).toHaveBeenCalledWith('错误：请求次数过多，请稍后再试！');
  });

  it('500 shows the internal-error message', async () => {
    mockFetch({ 'GET /api/status': { status: 500 } });
    await catchError(apiClient.get('/api/status'));
    expect(hooks.notifyError).toHaveBeenCalledWith('错误：服务器内部错误，请联系管理员！');
  });

  it('405 says the demo site has no server side', async () => {
    mockFetch({ 'PUT /api/option/': { status: 405 } });
    await catchError(apiClient.put('/api/option/', { key: 'a', value: 'b' }));
    expect(hooks.notifyInfo).toHaveBeenCalledWith('本站仅作演示之用，无服务端！');
  });

  it('other statuses show an error with the server message', async () => {
    mockFetch({ 'GET /api/thing': { status: 403, body: { message: '权限不足' } } });
    const error = await catchError(apiClient.get('/api/thing'));
    expect(error.status).toBe(403);
    expect(hooks.notifyError).toHaveBeenCalledWith('错误：权限不足');
  });

  it('success:false becomes an unhandled ApiError carrying the server message', async () => {
    mockFetch({ 'POST /api/user/login': fail('用户名或密码错误，或用户已被封禁') });
    const error = await catchError(apiClient.post('/api/user/login', {}));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('envelope');
    expect(error.handled).toBe(false);
    expect(error.message).toBe('用户名或密码错误，或用户已被封禁');
    expect(hooks.notifyError).not.toHaveBeenCalled();
    // Callers (the query client) show it exactly once.
    showApiError(error);
    expect(hooks.notifyError).toHaveBeenCalledWith('用户名或密码错误，或用户已被封禁');
  });

  it('silent calls do not notify but still fail', async () => {
    mockFetch({ 'GET /api/status': { status: 500 } });
    const error = await catchError(apiClient.get('/api/status', { silent: true }));
    expect(error.handled).toBe(false);
    expect(hooks.notifyError).not.toHaveBeenCalled();
  });

  it('network failures become handled ApiErrors', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await catchError(apiClient.get('/api/status'));
    expect(error.kind).toBe('network');
    expect(hooks.notifyError).toHaveBeenCalledWith('错误：Failed to fetch');
  });
});
