import { getSessionUser } from '../../../lib/session';
import { createSseReader } from './sse-reader';

export interface ChatPayloadMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatPayload {
  messages: ChatPayloadMessage[];
  model: string;
  group: string;
  temperature: number;
  /** 0 = no limit (not sent). */
  max_tokens: number;
}

/** A failed chat call: `detail` is the error data to append to the reply. */
export class ChatStreamError extends Error {
  override readonly name = 'ChatStreamError';
  constructor(
    readonly detail: string,
    readonly status: number,
  ) {
    super(detail);
  }
}

function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof parsed.error === 'string') return parsed.error;
    return parsed.error?.message ?? parsed.message ?? body;
  } catch {
    return body;
  }
}

/**
 * POST /pg/chat/completions with `stream: true` (the session cookie plus the New-Api-User header
 * identify the user). Calls `onDelta` for each piece of content; resolves at `[DONE]` or the end
 * of the stream; throws ChatStreamError for an HTTP error or an error event inside the stream,
 * and the AbortError when `signal` stops it.
 */
export async function streamChat(
  payload: ChatPayload,
  onDelta: (text: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const user = getSessionUser();
  const { max_tokens, ...rest } = payload;
  const response = await fetch('/pg/chat/completions', {
    method: 'POST',
    credentials: 'same-origin',
    signal,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      ...(user ? { 'New-Api-User': String(user.id) } : {}),
    },
    body: JSON.stringify({ ...rest, stream: true, ...(max_tokens > 0 ? { max_tokens } : {}) }),
  });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    throw new ChatStreamError(errorText(text) || `HTTP ${response.status}`, response.status);
  }
  const reader = createSseReader();
  const decoder = new TextDecoder();
  const stream = response.body.getReader();
  const handle = (events: ReturnType<typeof reader.push>): boolean => {
    for (const event of events) {
      if (event.kind === 'done') return true;
      let parsed: { choices?: { delta?: { content?: string | null } }[]; error?: unknown };
      try {
        parsed = JSON.parse(event.data);
      } catch {
        continue;
      }
      if (parsed.error) throw new ChatStreamError(errorText(event.data), response.status);
      const text = parsed.choices?.[0]?.delta?.content;
      if (text) onDelta(text);
    }
    return false;
  };
  for (;;) {
    const { value, done } = await stream.read();
    if (done) {
      handle(reader.flush());
      return;
    }
    if (handle(reader.push(decoder.decode(value, { stream: true })))) {
      await stream.cancel().catch(() => undefined);
      return;
    }
  }
}
