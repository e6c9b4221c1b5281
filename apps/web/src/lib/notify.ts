import { message as staticMessage } from 'antd';

/** Where toast messages go. The app swaps in antd's App-context instance (themed, localized). */
export interface Notifier {
  success(content: string): void;
  error(content: string): void;
  info(content: string): void;
  warning(content: string): void;
}

const staticNotifier: Notifier = {
  success: (content) => void staticMessage.success(content),
  error: (content) => void staticMessage.error(content),
  info: (content) => void staticMessage.info(content),
  warning: (content) => void staticMessage.warning(content),
};

let current: Notifier = staticNotifier;

/** Installs a notifier (returns a function that restores the previous one). */
export function setNotifier(notifier: Notifier): () => void {
  const previous = current;
  current = notifier;
  return () => {
    current = previous;
  };
}

export const notify: Notifier = {
  success: (content) => current.success(content),
  error: (content) => current.error(content),
  info: (content) => current.info(content),
  warning: (content) => current.warning(content),
};
