/**
 * Credentials out of what the gateway logs. Relay clients may send their token in the URL
 * (`?key=` for Gemini clients, `/api/log/token?key=`), and upstream error messages may quote a
 * channel's URL with its key; request log lines and error log rows keep the URL (operators need
 * it) with the credential replaced by `[redacted]`.
 */

/** Query parameters that carry a credential, whatever their value looks like. */
const CREDENTIAL_PARAMETERS = new Set(['key', 'api_key', 'token', 'access_token']);

/** A value shaped like a token key: `sk-…`, a Google API key, or a bare 48-character stored key. */
const TOKEN_SHAPED = /^(?:sk-[A-Za-z0-9_*-]{6,}|AIza[0-9A-Za-z_-]{20,}|[A-Za-z0-9]{48}(?:-\d+)?)$/;

/** The same shapes inside free text (error messages). */
const TOKEN_SHAPED_IN_TEXT =
  /\bsk-[A-Za-z0-9_*-]{6,}|\bAIza[0-9A-Za-z_-]{20,}|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g;

/** `key=…` (and the other credential parameters) anywhere in free text. */
const CREDENTIAL_PARAMETER_IN_TEXT = /([?&](?:key|api_key|token|access_token)=)[^&#\s"'<>]*/gi;

export const REDACTED = '[redacted]';

function decoded(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * A request URL as it may be logged: the value of every credential parameter, and of any
 * parameter whose value is shaped like a token key, replaced; everything else kept as sent.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end === -1 ? undefined : end);
  let changed = false;
  const pairs = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals === -1) return pair;
    const name = decoded(pair.slice(0, equals)).toLowerCase();
    const value = pair.slice(equals + 1);
    if (value === '' || (!CREDENTIAL_PARAMETERS.has(name) && !TOKEN_SHAPED.test(decoded(value)))) return pair;
    changed = true;
    return `${pair.slice(0, equals)}=${REDACTED}`;
  });
  if (!changed) return url;
  return `${url.slice(0, start + 1)}${pairs.join('&')}${end === -1 ? '' : url.slice(end)}`;
}

/** Free text (an error message, a stack) with credential parameters and token-shaped values replaced. */
export function redactCredentials(text: string): string {
  return text.replace(CREDENTIAL_PARAMETER_IN_TEXT, `$1${REDACTED}`).replace(TOKEN_SHAPED_IN_TEXT, REDACTED);
}
