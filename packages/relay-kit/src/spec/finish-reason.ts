/**
 * Why the model stopped, unified across providers. The provider's own string is always kept
 * beside it (`rawFinishReason`) because clients of the same protocol expect it verbatim.
 *
 * - `stop`: natural end or a stop sequence.
 * - `length`: the output token limit was reached.
 * - `content-filter`: the provider's safety system cut the output.
 * - `tool-calls`: the model wants tool results.
 * - `error`: the provider reported an error as the finish reason.
 * - `other`: a reason the gateway does not model.
 */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
