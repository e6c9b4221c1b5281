import type { ChatPayloadMessage } from '../api/stream-chat';

/** Playground message states (spec §3): loading, incomplete (streaming), complete, error. */
export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
}

export type ChatAction =
  | { type: 'send'; userId: string; assistantId: string; text: string }
  | { type: 'delta'; id: string; text: string }
  | { type: 'done'; id: string }
  | { type: 'fail'; id: string; error: string }
  | { type: 'clear' };

function update(messages: ChatMessage[], id: string, change: (message: ChatMessage) => ChatMessage) {
  return messages.map((message) => (message.id === id ? change(message) : message));
}

/**
 * The conversation: sending adds the user's message and an assistant reply in `loading`; the
 * first piece of text makes it `incomplete`; the end (or a stop) makes it `complete`; an error
 * appends the error data to whatever arrived and marks it `error`.
 */
export function chatReducer(messages: ChatMessage[], action: ChatAction): ChatMessage[] {
  switch (action.type) {
    case 'send':
      return [
        ...messages,
        { id: action.userId, role: 'user', content: action.text, status: 'complete' },
        { id: action.assistantId, role: 'assistant', content: '', status: 'loading' },
      ];
    case 'delta':
      return update(messages, action.id, (message) =>
        message.status === 'loading' || message.status === 'incomplete'
          ? { ...message, content: message.content + action.text, status: 'incomplete' }
          : message,
      );
    case 'done':
      return update(messages, action.id, (message) =>
        message.status === 'error' ? message : { ...message, status: 'complete' },
      );
    case 'fail':
      return update(messages, action.id, (message) => ({
        ...message,
        content: message.content ? `${message.content}\n\n${action.error}` : action.error,
        status: 'error',
      }));
    case 'clear':
      return [];
  }
}

/** True while a reply is still arriving. */
export const isBusy = (messages: ChatMessage[]): boolean =>
  messages.some((message) => message.status === 'loading' || message.status === 'incomplete');

/**
 * The messages sent upstream: the system prompt (when set), then the finished turns of the
 * conversation (failed or empty replies are left out).
 */
export function payloadMessages(systemPrompt: string, messages: ChatMessage[]): ChatPayloadMessage[] {
  const result: ChatPayloadMessage[] = [];
  if (systemPrompt.trim() !== '') result.push({ role: 'system', content: systemPrompt });
  for (const message of messages) {
    if (message.status !== 'complete' || message.content === '') continue;
    result.push({ role: message.role, content: message.content });
  }
  return result;
}
