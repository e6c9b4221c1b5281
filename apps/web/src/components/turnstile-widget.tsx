import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { loadScript } from '../lib/load-script';
import { notify } from '../lib/notify';

const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface TurnstileApi {
  render(element: HTMLElement, options: Record<string, unknown>): string;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

/**
 * Cloudflare Turnstile human check. Render it only when status.turnstile_check is on: Cloudflare's
 * script is loaded on first render, never otherwise. `onVerify('')` is called when the token expires.
 */
export function TurnstileWidget({
  siteKey,
  onVerify,
}: {
  siteKey: string;
  onVerify: (token: string) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const callback = useRef(onVerify);
  callback.current = onVerify;
  const { t } = useTranslation();

  useEffect(() => {
    let widgetId: string | undefined;
    let cancelled = false;
    loadScript(TURNSTILE_SCRIPT)
      .then(() => {
        if (cancelled || !container.current || !window.turnstile) return;
        widgetId = window.turnstile.render(container.current, {
          sitekey: siteKey,
          callback: (token: string) => callback.current(token),
          'expired-callback': () => callback.current(''),
          'error-callback': () => callback.current(''),
        });
      })
      .catch(() => notify.error(t('turnstile.loadFailed')));
    return () => {
      cancelled = true;
      if (widgetId && window.turnstile) window.turnstile.remove(widgetId);
    };
  }, [siteKey, t]);

  return <div ref={container} data-testid="turnstile-widget" style={{ minHeight: 65 }} />;
}
