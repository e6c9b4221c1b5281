import { useCallback, useEffect, useState } from 'react';

/**
 * A seconds countdown for "resend code" and "retry" buttons: `start()` begins at `seconds`,
 * `remaining` reaches 0 when the button may be used again.
 */
export function useCountdown(seconds: number): { remaining: number; active: boolean; start: () => void } {
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);

  const start = useCallback(() => setRemaining(seconds), [seconds]);
  return { remaining, active: remaining > 0, start };
}
