import type { FinishReason } from './finish-reason.js';
import type { UpstreamError } from './upstream-error.js';
import type { Usage } from './usage.js';

/**
 * The protocol-neutral vocabulary of a streamed response, used only when the client's protocol
 * differs from the upstream's (adapter `toStreamParts` → codec `toClientStream`). `index` is the
 * choice index (0 unless the client asked for several choices).
 */
export type StreamPart =
  | { readonly type: 'message-start'; readonly id: string; readonly model: string; readonly created?: number }
  | { readonly type: 'text-delta'; readonly index: number; readonly delta: string }
  | { readonly type: 'reasoning-delta'; readonly index: number; readonly delta: string }
  | {
      readonly type: 'tool-call-delta';
      readonly index: number;
      /** Position of the tool call within the choice. */
      readonly toolCallIndex: number;
      readonly id?: string | undefined;
      readonly name?: string | undefined;
      readonly argumentsDelta: string;
    }
  /** May arrive more than once; the last one wins. */
  | { readonly type: 'usage'; readonly usage: Usage }
  | {
      readonly type: 'finish';
      readonly index: number;
      readonly reason: FinishReason;
      readonly rawReason?: string | undefined;
    }
  /** An error after the first byte; the stream ends after it. */
  | { readonly type: 'error'; readonly error: UpstreamError };
