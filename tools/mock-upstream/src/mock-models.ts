/**
 * The model catalogues the mock's list endpoints report. Any model name is accepted by the
 * generation endpoints; these lists only feed "fetch models" features of the gateway.
 */

/** Models listed by OpenAI's `GET /v1/models`. */
export const openAiModelIds: readonly string[] = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'o3-mini',
  'deepseek-reasoner',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'dall-e-3',
  'gpt-image-1',
  'tts-1',
  'whisper-1',
  'omni-moderation-latest',
];

/** Models listed by Anthropic's `GET /v1/models`. */
export const anthropicModelIds: readonly string[] = [
  'claude-sonnet-4-5',
  'claude-opus-4-1',
  'claude-3-5-haiku-20241022',
];

/** Models listed by Gemini's `GET /v1beta/models`. */
export const geminiModelIds: readonly string[] = [
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.0-flash',
  'gemini-2.5-flash-thinking',
  'text-embedding-004',
];

/** Fixed `created` timestamp of listed OpenAI models. */
export const modelCreatedSeconds = 1_715_367_049;
