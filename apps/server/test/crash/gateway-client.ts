import type { ServerProcess } from './server-process.ts';

/** A console session against a spawned server (cookie + New-Api-User). */
export class Session {
  constructor(
    private readonly baseUrl: string,
    private readonly cookie: string,
    readonly userId: number,
  ) {}

  // biome-ignore lint/suspicious/noExplicitAny: console reply data shapes vary per route.
  async call(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        'new-api-user': String(this.userId),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const reply = (await response.json()) as { success: boolean; message: string; data: unknown };
    if (!reply.success) throw new Error(`${method} ${path}: ${reply.message}`);
    return reply.data;
  }
}

export async function login(server: ServerProcess, username: string, password: string): Promise<Session> {
  const response = await fetch(`${server.baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const reply = (await response.json()) as { success: boolean; message: string; data: { id: number } };
  if (!reply.success) throw new Error(`login failed: ${reply.message}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return new Session(server.baseUrl, cookie, reply.data.id);
}

/** The accounts a crash test bills: a channel on the mock, a user with `quota`, its limited token. */
export interface Payer {
  root: Session;
  /** The payer's own console session (owns the token). */
  user: Session;
  userId: number;
  tokenId: number;
  key: string;
  channelId: number;
}

export async function preparePayer(server: ServerProcess, mockUrl: string, quota: number): Promise<Payer> {
  const root = await login(server, 'root', '123456');
  const channels = await root.call('POST', '/api/channel/', {
    name: 'mock',
    type: 1,
    key: 'sk-mock-upstream',
    base_url: mockUrl,
    models: 'gpt-4o',
    group: 'default',
  });
  await root.call('POST', '/api/user/', { username: 'payer', password: 'password123' });
  const user = await login(server, 'payer', 'password123');
  await root.call('PUT', '/api/user/', { id: user.userId, quota });
  const tokens = await user.call('POST', '/api/token/', {
    name: 'crash test',
    remain_quota: quota,
    unlimited_quota: false,
    expired_time: -1,
  });
  return {
    root,
    user,
    userId: user.userId,
    tokenId: tokens[0].id,
    key: tokens[0].key,
    channelId: channels[0].id,
  };
}

/**
 * A chat body whose reservation is far above 1/100 of the balance (so it is really reserved, not
 * waved through by the trusted shortcut): max_tokens 2000 on gpt-4o reserves about 2 500 quota.
 */
export function chatBody(content: string, stream: boolean) {
  return { model: 'gpt-4o', stream, max_tokens: 2000, messages: [{ role: 'user', content }] };
}

export async function chat(server: ServerProcess, key: string, content: string) {
  const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(chatBody(content, false)),
  });
  return { status: response.status, body: await response.text() };
}

/** An open SSE stream: the request id, a wait for the first content, and the whole text. */
export interface OpenStream {
  requestId: string;
  status: number;
  /** Resolves once the first content chunk arrived. */
  started: Promise<void>;
  /** Everything received, resolved when the stream ends (or fails: then with what came). */
  finished: Promise<{ text: string; error: unknown }>;
}

export async function openStream(server: ServerProcess, key: string, content: string): Promise<OpenStream> {
  const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(chatBody(content, true)),
  });
  const requestId = response.headers.get('x-oneapi-request-id') ?? '';
  let text = '';
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const finished = (async () => {
    if (!response.body) return { text, error: new Error(`no body (status ${response.status})`) };
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        if (text.includes('"content"')) markStarted();
      }
      return { text, error: undefined };
    } catch (error) {
      return { text, error };
    } finally {
      markStarted();
    }
  })();
  return { requestId, status: response.status, started, finished };
}

/** The concatenated `delta.content` of an OpenAI SSE text. */
export function streamedContent(text: string): string {
  let content = '';
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    try {
      const event = JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> };
      content += event.choices?.[0]?.delta?.content ?? '';
    } catch {
      // a cut stream may end mid-line
    }
  }
  return content;
}
