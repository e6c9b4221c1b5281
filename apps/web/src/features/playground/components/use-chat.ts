import { useCallback, useReducer, useRef } from 'react';
import { ChatStreamError, streamChat } from '../api/stream-chat';
import { chatReducer, isBusy, payloadMessages } from './chat-state';
import type { PlaygroundSettingsValue } from './playground-settings';

let nextId = 0;
const newId = () => `m${Date.now().toString(36)}${(nextId++).toString(36)}`;

/** The conversation with send, stop and clear; one reply streams at a time. */
export function useChat(settings: PlaygroundSettingsValue) {
  const [messages, dispatch] = useReducer(chatReducer, []);
  const controller = useRef<AbortController | null>(null);
  const busy = isBusy(messages);

  const send = useCallback(
    async (text: string) => {
      if (text.trim() === '' || controller.current) return;
      const userId = newId();
      const assistantId = newId();
      const history = payloadMessages(settings.systemPrompt, messages);
      dispatch({ type: 'send', userId, assistantId, text });
      const abort = new AbortController();
      controller.current = abort;
      try {
        await streamChat(
          {
            messages: [...history, { role: 'user', content: text }],
            model: settings.model,
            group: settings.group,
            temperature: settings.temperature,
            max_tokens: settings.maxTokens,
          },
          (delta) => dispatch({ type: 'delta', id: assistantId, text: delta }),
          abort.signal,
        );
        dispatch({ type: 'done', id: assistantId });
      } catch (error) {
        if (abort.signal.aborted) dispatch({ type: 'done', id: assistantId });
        else {
          const detail =
            error instanceof ChatStreamError
              ? error.detail
              : error instanceof Error
                ? error.message
                : String(error);
          dispatch({ type: 'fail', id: assistantId, error: detail });
        }
      } finally {
        controller.current = null;
      }
    },
    [messages, settings],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  const clear = useCallback(() => {
    controller.current?.abort();
    dispatch({ type: 'clear' });
  }, []);

  return { messages, busy, send, stop, clear };
}
