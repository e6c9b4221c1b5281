import type { FinishReason } from './finish-reason.js';
import type { Usage } from './usage.js';

/** One tool call in a {@link UnifiedResponse}; `arguments` is the JSON text as generated. */
export interface UnifiedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One generated alternative. */
export interface UnifiedChoice {
  readonly index: number;
  readonly text: string;
  readonly reasoning?: string | undefined;
  readonly toolCalls: readonly UnifiedToolCall[];
  readonly finishReason: FinishReason;
  readonly rawFinishReason?: string | undefined;
}

/**
 * A non-streamed response in protocol-neutral form (adapter `toResponse` → codec
 * `toClientResponse`), used when the client's protocol differs from the upstream's.
 */
export interface UnifiedResponse {
  readonly id: string;
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
  readonly choices: readonly UnifiedChoice[];
  readonly usage?: Usage | undefined;
  /** The upstream body as parsed. */
  readonly raw: unknown;
}
