/**
 * new-api decodes chat and completions bodies into a struct whose `max_tokens` and
 * `max_completion_tokens` are `uint` with `omitempty`, so a 0 there never reaches the upstream
 * (its playground always sends `max_tokens: 0`, and an upstream that took it literally would
 * answer nothing). The codecs of those protocols apply the same rule here, once per request.
 */

/** True when the body carries a token limit of 0 that must not be forwarded. */
export function hasZeroTokenLimit(body: Readonly<Record<string, unknown>>): boolean {
  return body.max_tokens === 0 || body.max_completion_tokens === 0;
}

/** A copy of the body without its zero `max_tokens` / `max_completion_tokens`. */
export function withoutZeroTokenLimits(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === 0 && (key === 'max_tokens' || key === 'max_completion_tokens')) continue;
    copy[key] = value;
  }
  return copy;
}
