import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSessionUser } from '../../../lib/session';
import { ChatStreamError, streamChat } from './stream-chat';

function streamOf(chunks: string[], status = 200): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } });
}

const delta = (text: string) => `data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n`;
const payload = {
  messages: [{ role: 'user' as const, content: 'Hi' }],
  model: 'm',
  group: 'vip',
  temperature: 0.5,
  max_tokens: 0,
};

describe('streamChat', () => {
  afterEach(() => vi.restoreAllMocks());

  it('posts the playground payload with the user header and yields each delta until [DONE]', async () => {
    setSessionUser({ id: 9, username: 'u', role: 1 });
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(streamOf([delta('Hel'), delta('lo'), 'data: [DONE]\n\n', delta('ignored')]));
    const pieces: string[] = [];
    await streamChat(payload, (text) => pieces.push(text), new AbortController().signal);
    expect(pieces).toEqual(['Hel', 'lo']);
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/pg/chat/completions');
    expect((init.headers as Record<string, string>)['New-Api-User']).toBe('9');
    // max_tokens 0 means no limit and is not sent.
    expect(JSON.parse(init.body as string)).toEqual({
      messages: [{ role: 'user', content: 'Hi' }],
      model: 'm',
      group: 'vip',
      temperature: 0.5,
      stream: true,
    });
  });

  it('sends a positive max_tokens', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(streamOf(['data: [DONE]\n']));
    await streamChat({ ...payload, max_tokens: 64 }, () => undefined, new AbortController().signal);
    const [, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(init.body as string).max_tokens).toBe(64);
  });

  it('turns an HTTP error into its message', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ error: { message: 'no channel for model m', type: 'new_api_error' } }), {
        status: 503,
      }),
    );
    const failure = streamChat(payload, () => undefined, new AbortController().signal);
    await expect(failure).rejects.toBeInstanceOf(ChatStreamError);
    await expect(failure).rejects.toMatchObject({ detail: 'no channel for model m', status: 503 });
  });

  it('stops at an error event inside the stream, after the text that came before', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      streamOf([delta('Part'), `data: ${JSON.stringify({ error: { message: 'upstream broke' } })}\n\n`]),
    );
    const pieces: string[] = [];
    await expect(
      streamChat(payload, (text) => pieces.push(text), new AbortController().signal),
    ).rejects.toMatchObject({
      detail: 'upstream broke',
    });
    expect(pieces).toEqual(['Part']);
  });
});
