import { describe, expect, it } from 'vitest';
import { type ChatMessage, chatReducer, isBusy, payloadMessages } from './chat-state';

const send = (messages: ChatMessage[] = []) =>
  chatReducer(messages, { type: 'send', userId: 'u1', assistantId: 'a1', text: 'Hi' });

describe('chat state', () => {
  it('starts a reply in loading, streams it as incomplete and completes it', () => {
    let messages = send();
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'loading'],
    ]);
    expect(isBusy(messages)).toBe(true);
    messages = chatReducer(messages, { type: 'delta', id: 'a1', text: 'Hel' });
    messages = chatReducer(messages, { type: 'delta', id: 'a1', text: 'lo' });
    expect(messages[1]).toMatchObject({ content: 'Hello', status: 'incomplete' });
    messages = chatReducer(messages, { type: 'done', id: 'a1' });
    expect(messages[1]).toMatchObject({ content: 'Hello', status: 'complete' });
    expect(isBusy(messages)).toBe(false);
  });

  it('appends the error data to a partial reply and marks it error', () => {
    let messages = chatReducer(send(), { type: 'delta', id: 'a1', text: 'Part' });
    messages = chatReducer(messages, { type: 'fail', id: 'a1', error: 'upstream failed' });
    expect(messages[1]).toMatchObject({ content: 'Part\n\nupstream failed', status: 'error' });
    // A late end marker does not hide the error; late text is ignored.
    messages = chatReducer(messages, { type: 'done', id: 'a1' });
    messages = chatReducer(messages, { type: 'delta', id: 'a1', text: 'more' });
    expect(messages[1]).toMatchObject({ content: 'Part\n\nupstream failed', status: 'error' });
  });

  it('errors with no text show only the error', () => {
    const messages = chatReducer(send(), { type: 'fail', id: 'a1', error: 'no channel' });
    expect(messages[1]).toMatchObject({ content: 'no channel', status: 'error' });
  });

  it('clears the context', () => {
    expect(chatReducer(send(), { type: 'clear' })).toEqual([]);
  });

  it('sends the system prompt and finished turns only', () => {
    let messages = chatReducer(send(), { type: 'delta', id: 'a1', text: 'Hello' });
    messages = chatReducer(messages, { type: 'done', id: 'a1' });
    messages = chatReducer(messages, { type: 'send', userId: 'u2', assistantId: 'a2', text: 'Again' });
    messages = chatReducer(messages, { type: 'fail', id: 'a2', error: 'boom' });
    expect(payloadMessages('Be brief', messages)).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Again' },
    ]);
    expect(payloadMessages('  ', [])).toEqual([]);
  });
});
