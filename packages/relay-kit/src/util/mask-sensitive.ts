// Trailing punctuation belongs to the sentence, not the URL.
const URL_PATTERN = /\b(?:https?|wss?):\/\/[^\s"'<>]*[^\s"'<>.,;:!?)\]]/gi;
const SECRET_PATTERNS: readonly RegExp[] = [
  // OpenAI-style keys (sk-, sk-proj-, sk-ant-...), also used by most resellers.
  /\bsk-[A-Za-z0-9_*-]{6,}/g,
  // Google API keys.
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  // Bearer credentials echoed back in messages.
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];
const IPV4_PATTERN = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g;

/**
 * Removes upstream URLs, IP addresses and credentials from a message before it may reach a client
 * (the rule behind new-api's `MaskSensitiveInfo`): a client must never learn a channel's key or
 * its upstream address from an error message.
 */
export function maskSensitive(text: string): string {
  let masked = text.replace(URL_PATTERN, '[url]');
  for (const pattern of SECRET_PATTERNS) masked = masked.replace(pattern, '[secret]');
  return masked.replace(IPV4_PATTERN, '[address]');
}
