import { Readable } from 'node:stream';
import {
  countGeneratedTokens,
  countResponseTokens,
  createSseParserStream,
  GeneratedTextCollector,
  type SseEvent,
  type StreamPart,
  type Usage,
} from '@switchyard/relay-kit';
import type { RelayReply } from '../lane/relay-reply.ts';
import type { RelayContext } from '../relay-context.ts';
import { readBodyText } from '../upstream-answer.ts';
import type { BodyRelay } from './body-pump.ts';
import { CLIENT_LEFT, interruptedStreamEvent, sendEventStream } from './event-stream-reply.ts';
import { type AttemptSuccess, badAnswerFailure } from './run-attempts.ts';
import { type CallOutcome, callOutcome } from './settle-usage.ts';

/** Upper bound on generated text kept for local counting when the upstream reports no usage. */
const MAX_COLLECTED_CHARS = 262_144;

/** A local usage from the prompt estimate and the counted output. */
export function localUsage(promptTokens: number, completionTokens: number): Usage {
  return {
    inputTokens: { total: promptTokens, uncached: promptTokens, cacheRead: 0, cacheWrite: 0, audio: 0 },
    outputTokens: { total: completionTokens, reasoning: 0, audio: 0 },
  };
}

/**
 * The text of a non-stream upstream answer, then the call's upstream slots given back: at once
 * when the upstream client read it whole (the common case, no promise), else once its body is
 * read. A connection closed before the body was complete is an upstream error (502 in the client's
 * protocol, nothing delivered, so relayCall refunds), not an internal one; a read cut by the
 * client leaving is rethrown as it is.
 */
export function readUpstreamText(context: RelayContext, success: AttemptSuccess): string | Promise<string> {
  const { response } = success;
  if (response.text !== null) {
    success.release();
    return response.text;
  }
  return readStreamedText(context, success, response.body);
}

async function readStreamedText(
  context: RelayContext,
  success: AttemptSuccess,
  body: Readable,
): Promise<string> {
  try {
    return await readBodyText(body);
  } catch (error) {
    if (context.abort.aborted) throw error;
    throw badAnswerFailure(success.channel, error, true);
  } finally {
    // The body is read to its end (or failed): the call's upstream slots are free.
    success.release();
  }
}

/**
 * Conversion path, non-stream: the upstream's JSON is read by the adapter into a neutral
 * response and written in the client's protocol. A body the adapter cannot read is an upstream
 * error (nothing was delivered, so relayCall refunds).
 */
export async function sendConvertedJson(
  context: RelayContext,
  success: AttemptSuccess,
  reply: RelayReply,
  done: (outcome: CallOutcome) => void,
): Promise<unknown> {
  const { adapter, channel, plan } = success;
  const text = await readUpstreamText(context, success);
  const { fromEmbeddingsAnswer } = context.codec;
  let read: ReturnType<typeof adapter.toResponse> | undefined;
  let embeddings = '';
  try {
    if (fromEmbeddingsAnswer === undefined) read = adapter.toResponse(JSON.parse(text), plan.call);
    else embeddings = fromEmbeddingsAnswer(text, context.call);
  } catch (error) {
    throw badAnswerFailure(channel, error, false);
  }
  reply.code(200).header('content-type', 'application/json');
  if (read === undefined) {
    // An embeddings answer of the hub protocol in the client's shape, billed by its usage.
    return sendWhole(reply, embeddings, done, success, adapter.readUsage(text, plan.call.protocol), () => 0);
  }
  const unified = read;
  let completion: number | undefined;
  const localCompletionTokens = () => {
    completion ??= countResponseTokens(unified, context.call.model).tokens;
    return completion;
  };
  const usage = unified.usage;
  const shown = usage ?? localUsage(context.promptEstimate(), localCompletionTokens());
  const body = context.codec.toClientResponse({ ...unified, usage: shown }, context.call);
  return sendWhole(reply, body, done, success, usage, localCompletionTokens);
}

/**
 * Sends a whole (non-stream) answer, then reports the call's outcome. The body is handed to the
 * socket within `send` (one `writeHead` and `end`), so the call is settled right
 * after it, with no listener kept per call.
 */
export function sendWhole(
  reply: RelayReply,
  payload: string | Buffer,
  done: (outcome: CallOutcome) => void,
  success: AttemptSuccess,
  usage: Usage | undefined,
  localCompletionTokens: () => number,
): RelayReply {
  const sent = reply.send(payload);
  const { channel, request } = success;
  done(
    callOutcome(channel, request.upstreamModel, usage, localCompletionTokens, true, false, -1000, undefined),
  );
  return sent;
}

/**
 * Conversion path, stream: upstream bytes → SSE events (or the adapter's own decoder) → neutral
 * parts → the client's stream format. Usage, first-event time and generated text are read from
 * the parts on the way; an upstream failure mid-stream becomes the client protocol's error event.
 */
export function sendConvertedStream(
  context: RelayContext,
  success: AttemptSuccess,
  body: Readable,
  reply: RelayReply,
  done: (outcome: CallOutcome) => void,
): RelayReply {
  const { adapter, channel, request, plan } = success;
  const { codec, call } = context;
  const collector = new GeneratedTextCollector(MAX_COLLECTED_CHARS);
  let usage: Usage | undefined;
  let firstPartAt: number | undefined;
  let partCount = 0;
  let finished = false;
  let sawFinish = false;
  let interruption: string | undefined;
  let completion: number | undefined;
  const countLocal = () => {
    completion ??= countGeneratedTokens(collector.result(), call.model).tokens;
    return completion;
  };
  const observe = new TransformStream<StreamPart, StreamPart>({
    transform(part, controller) {
      firstPartAt ??= performance.now();
      partCount++;
      if (part.type === 'text-delta' || part.type === 'reasoning-delta') collector.append(part.delta);
      else if (part.type === 'tool-call-delta') {
        if (part.name) collector.toolCall(part.name);
        collector.append(part.argumentsDelta);
      } else if (part.type === 'usage') usage = part.usage;
      else if (part.type === 'finish') sawFinish = true;
      else if (part.type === 'error') interruption ??= `上游流错误：${part.error.message}`;
      controller.enqueue(part);
    },
  });
  const events: ReadableStream<SseEvent> = (Readable.toWeb(body) as ReadableStream<Uint8Array>).pipeThrough(
    adapter.decodeStream ? adapter.decodeStream() : createSseParserStream(),
  );
  const output = events
    .pipeThrough(adapter.toStreamParts(plan.call))
    .pipeThrough(observe)
    .pipeThrough(
      codec.toClientStream(call, {
        resolveUsage: (reported) => reported ?? localUsage(context.promptEstimate(), countLocal()),
      }),
    );
  const finish = () => {
    if (finished) return;
    finished = true;
    const firstMs = firstPartAt === undefined ? 0 : Math.round(firstPartAt - context.startedAt);
    const cut = interruption ?? (sawFinish || usage ? undefined : '上游流提前结束');
    done(callOutcome(channel, request.upstreamModel, usage, countLocal, partCount > 0, true, firstMs, cut));
  };
  async function* bytes(): AsyncGenerator<Uint8Array> {
    const reader = output.getReader();
    try {
      while (true) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        if (value.length > 0) yield value;
      }
    } catch {
      if (context.abort.aborted) {
        interruption = CLIENT_LEFT;
      } else {
        interruption ??= '上游流中断';
        yield interruptedStreamEvent(codec);
      }
    } finally {
      reader.releaseLock();
      finish();
    }
  }
  // A client that leaves reaches `fail` (the call aborted), then `settle`.
  const relay: BodyRelay = {
    chunk(chunk, send) {
      send(chunk);
      return true;
    },
    end: () => undefined,
    fail() {
      if (context.abort.aborted) interruption ??= CLIENT_LEFT;
    },
    settle: finish,
  };
  return sendEventStream(reply, context.abort, Readable.from(bytes(), { objectMode: false }), relay);
}
