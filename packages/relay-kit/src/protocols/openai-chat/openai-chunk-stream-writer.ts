import type { ClientStreamOptions, ResponseMeta } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { UpstreamError } from '../../spec/upstream-error.js';
import type { Usage } from '../../spec/usage.js';
import { SSE_DONE } from '../../sse/sse-writer.js';
import { formatOpenAIErrorBody } from './openai-chat-wire.js';

/** The parts that become one choice of a chunk. */
export type OpenAIChoicePart = Extract<
  StreamPart,
  { readonly type: 'text-delta' | 'reasoning-delta' | 'tool-call-delta' | 'finish' }
>;

/** What the chat and the completions stream writers write differently (one per stream). */
export interface OpenAIChunkDialect {
  /** The `object` of every chunk. */
  readonly object: string;
  /** A fresh response id, when the upstream reported none. */
  newId(): string;
  /** The choice a part becomes, or `undefined` when the protocol has no place for it. */
  choice(part: OpenAIChoicePart): Record<string, unknown> | undefined;
  /** The usage-only chunk written before `[DONE]` when the client asked for usage. */
  formatUsageChunk(usage: Usage, meta: ResponseMeta): string;
}

const encoder = new TextEncoder();

/**
 * Writes {@link StreamPart}s as OpenAI-style chunk events (conversion path): one chunk per choice
 * part (`dialect.choice`), the usage chunk when the client asked for it, then `[DONE]`. An
 * `error` part is written as an OpenAI error event and ends the stream without `[DONE]`.
 */
export function createOpenAIChunkStreamWriter(
  call: RelayCall,
  options: ClientStreamOptions,
  dialect: OpenAIChunkDialect,
): TransformStream<StreamPart, Uint8Array> {
  let id = '';
  let model = call.model;
  let created = Math.floor(Date.now() / 1000);
  let usage: Usage | undefined;
  let failed = false;

  const start = (part: Extract<StreamPart, { type: 'message-start' }>) => {
    if (part.id !== '') id = part.id;
    if (part.model !== '') model = part.model;
    if (part.created !== undefined) created = part.created;
  };
  const write = (part: OpenAIChoicePart): Uint8Array | undefined => {
    const choice = dialect.choice(part);
    if (choice === undefined) return undefined;
    if (id === '') id = dialect.newId();
    const chunk = { id, object: dialect.object, created, model, choices: [choice] };
    return encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
  };

  return new TransformStream<StreamPart, Uint8Array>({
    transform(part, controller) {
      if (failed) return;
      if (part.type === 'message-start') start(part);
      else if (part.type === 'usage') usage = part.usage;
      else if (part.type === 'error') {
        failed = true;
        controller.enqueue(errorEvent(part.error));
      } else {
        const out = write(part);
        if (out !== undefined) controller.enqueue(out);
      }
    },
    flush(controller) {
      if (failed) return;
      const finalUsage = options.resolveUsage ? options.resolveUsage(usage) : usage;
      if (call.includeUsage && finalUsage !== undefined) {
        if (id === '') id = dialect.newId();
        controller.enqueue(encoder.encode(dialect.formatUsageChunk(finalUsage, { id, model, created })));
      }
      controller.enqueue(encoder.encode(SSE_DONE));
    },
  });
}

/** The OpenAI error event an `error` part becomes. */
function errorEvent(error: UpstreamError): Uint8Array {
  const body = formatOpenAIErrorBody({
    status: error.status || 500,
    message: error.message,
    type: error.type ?? 'upstream_error',
    code: error.upstreamCode ?? null,
    param: error.param ?? null,
  });
  return encoder.encode(`data: ${body}\n\n`);
}
