import { useEffect, useRef } from 'react';

/** The fields Telegram's login widget reports (forwarded as query parameters to the server). */
export type TelegramAuthData = Record<string, string | number>;

declare global {
  interface Window {
    [key: `onTelegramAuth${string}`]: ((user: TelegramAuthData) => void) | undefined;
  }
}

let counter = 0;

/** Telegram's login widget (its script is injected only where this renders). */
export function TelegramLoginButton({
  botName,
  onAuth,
}: {
  botName: string;
  onAuth: (data: TelegramAuthData) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const handler = useRef(onAuth);
  handler.current = onAuth;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    counter += 1;
    const callbackName = `onTelegramAuth${counter}` as const;
    window[callbackName] = (user) => handler.current(user);
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'large');
    script.setAttribute('data-onauth', `${callbackName}(user)`);
    script.setAttribute('data-request-access', 'write');
    element.appendChild(script);
    return () => {
      element.innerHTML = '';
      delete window[callbackName];
    };
  }, [botName]);

  return <div ref={container} />;
}
