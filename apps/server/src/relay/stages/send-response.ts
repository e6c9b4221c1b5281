import type { Readable } from 'node:stream';
import {
  countGeneratedTokens,
  countResponseTokens,
  countTextTokens,
  cutAfterEvent,
} from '@switchyard/relay-kit';
import { setAddedTimeHeader } from '../../observability/added-time.ts';
import type { GatewayMetrics } from '../../observability/gateway-metrics.ts';
import type { RelayReply } from '../lane/relay-reply.ts';
import type { RelayContext } from '../relay-context.ts';
import { releaseWhenDone } from '../upstream-limits.ts';
import { isEventStream, isJson } from './answer-shape.ts';
import type { BodyRelay } from './body-pump.ts';
import { CLIENT_LEFT, interruptedStreamEvent, sendEventStream, sendPiped } from './event-stream-reply.ts';
import type { AttemptSuccess } from './run-attempts.ts';
import {
  localUsage,
  readUpstreamText,
  sendConvertedJson,
  sendConvertedStream,
  sendWhole,
} from './send-converted.ts';
import { type CallOutcome, callOutcome } from './settle-usage.ts';

const noTokens = () => 0;

const MALFORMED_EVENT_ERROR = {
  status: 502,
  message: 'upstream sent a malformed stream event',
  type: 'upstream_error',
} as const;

/**
 * Stage 7: sends the upstream answer in the client's protocol (same protocol: pass-through).
 * Resolves once the response is handed to the reply; `done` runs with the call's outcome when the
 * body is fully written or the client went away, so billing happens off the response path.
 */
export function sendResponse(
  context: RelayContext,
  success: AttemptSuccess,
  reply: RelayReply,
  settle: (outcome: CallOutcome) => void,
  metrics?: GatewayMetrics,
): Promise<unknown> | RelayReply {
  const { response } = success;
  const contentType = response.headers['content-type'];
  const streamed =
    response.body !== null &&
    (isEventStream(contentType) || (success.adapter.decodeStream !== undefined && success.plan.call.stream));
  metrics?.addedLatency(setAddedTimeHeader(reply, context.upstreamWaitMs));
  let done = settle;
  if (streamed && metrics) {
    metrics.streamOpened();
    // Each sender reports its outcome exactly once, when the stream is over or the client left.
    done = (outcome) => {
      metrics.streamClosed();
      settle(outcome);
    };
  }
  // An answer read whole (or to be read whole) gives its slots back once read
  // (readUpstreamText); a piped one when its upstream body is over or the client left.
  const body = response.body;
  const buffered = body === null || (!streamed && (success.plan.mode === 'convert' || isJson(contentType)));
  if (buffered) {
    return success.plan.mode === 'convert'
      ? sendConvertedJson(context, success, reply, done)
      : sendJson(context, success, reply, done);
  }
  releaseWhenDone(body, context.abort, success.release);
  if (success.plan.mode === 'convert') return sendConvertedStream(context, success, body, reply, done);
  if (streamed) return sendStream(context, success, body, reply, done);
  return sendBytes(context, success, body, reply, done);
}

/**
 * The text of a transcription answer, billed when the upstream reports no usage: the `text` of
 * a JSON answer, or the whole body of a `text` / `srt` / `vtt` one (else such calls were free).
 */
function transcriptText(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const text = (parsed as { text?: unknown } | null)?.text;
    return typeof text === 'string' ? text : '';
  } catch {
    return body;
  }
}

function sendJson(
  context: RelayContext,
  success: AttemptSuccess,
  reply: RelayReply,
  done: (outcome: CallOutcome) => void,
): RelayReply | Promise<RelayReply> {
  // Read whole already in the common case: the answer goes out now, as the bytes the upstream
  // sent (no second UTF-8 encoding of its text); a body read from a stream goes out as its text.
  // A failed read throws to relayCall, which refunds the reservation.
  const text = readUpstreamText(context, success);
  return typeof text === 'string'
    ? sendJsonText(context, success, reply, done, text, success.response.bytes ?? text)
    : text.then((read) => sendJsonText(context, success, reply, done, read, read));
}

function sendJsonText(
  context: RelayContext,
  success: AttemptSuccess,
  reply: RelayReply,
  done: (outcome: CallOutcome) => void,
  text: string,
  payload: string | Buffer,
): RelayReply {
  const { adapter, response } = success;
  const usage = adapter.readUsage(text, context.call.protocol);
  const localCompletionTokens = () => {
    if (context.call.protocol === 'openai-audio-transcription') {
      return countTextTokens(transcriptText(text), context.call.model);
    }
    try {
      return countResponseTokens(adapter.toResponse(JSON.parse(text), context.call), context.call.model)
        .tokens;
    } catch {
      return 0;
    }
  };
  reply
    .code(response.statusCode)
    .header('content-type', String(response.headers['content-type'] ?? 'application/json'));
  return sendWhole(reply, payload, done, success, usage, localCompletionTokens);
}

function sendStream(
  context: RelayContext,
  success: AttemptSuccess,
  body: Readable,
  reply: RelayReply,
  done: (outcome: CallOutcome) => void,
) {
  const { adapter, channel, request } = success;
  const { codec, call } = context;
  let localCompletion: number | undefined;
  const countLocal = () => {
    localCompletion ??= countGeneratedTokens(tap.result().generated, call.model).tokens;
    return localCompletion;
  };
  let malformedData: string | undefined;
  const tap = adapter.createPassthroughTap({
    protocol: call.protocol,
    onMalformedEvent: (data) => {
      malformedData ??= data;
    },
    dropUsageOnlyChunk: request.streamUsageForced,
    endOfStream: call.includeUsage
      ? (result) => {
          let tail = '';
          if (!result.usage && codec.formatUsageEvent) {
            tail = codec.formatUsageEvent(localUsage(context.promptEstimate(), countLocal()), {
              id: result.responseId ?? `chatcmpl-${context.requestId}`,
              model: result.model ?? call.model,
              created: Math.floor(Date.now() / 1000),
            });
          }
          return tail + (codec.streamEndMarker ?? '');
        }
      : undefined,
  });
  let interruption: string | undefined;
  // The pump settles once, whatever ended the stream.
  const finish = () => {
    const result = tap.result();
    const firstMs =
      result.firstEventAt === undefined ? 0 : Math.round(result.firstEventAt - context.startedAt);
    const cut = interruption ?? (result.sawDone || result.usage ? undefined : '上游流提前结束');
    const delivered = result.eventCount > 0;
    done(
      callOutcome(channel, request.upstreamModel, result.usage, countLocal, delivered, true, firstMs, cut),
    );
  };
  const relay: BodyRelay = {
    chunk(chunk, send) {
      const out = tap.push(chunk);
      if (malformedData === undefined) {
        send(out);
        return true;
      }
      // A broken event ends the stream there: the client gets its protocol's error event (after
      // a blank line closing the broken event) and what was delivered is billed.
      interruption = '上游流事件无法解析';
      send(cutAfterEvent(out, malformedData));
      send(Buffer.from(`\n${codec.formatStreamError(MALFORMED_EVENT_ERROR)}`));
      return false;
    },
    end(send) {
      send(tap.finish());
    },
    fail(_error, send) {
      if (context.abort.aborted) {
        interruption = CLIENT_LEFT;
      } else {
        interruption = '上游流中断';
        send(interruptedStreamEvent(codec));
      }
    },
    settle: finish,
  };
  // A client that leaves reaches `fail` (the call aborted: CLIENT_LEFT), then `settle`.
  return sendEventStream(reply, context.abort, body, relay);
}

/**
 * Pass-through of a binary answer (audio speech): the bytes are piped as they come. The call is
 * billed from the request (prompt estimate); nothing is counted from the body.
 */
function sendBytes(
  context: RelayContext,
  success: AttemptSuccess,
  body: Readable,
  reply: RelayReply,
  done: (outcome: CallOutcome) => void,
) {
  const { response, channel, request } = success;
  let delivered = false;
  const relay: BodyRelay = {
    chunk(chunk, send) {
      delivered = true;
      send(chunk);
      return true;
    },
    end: () => undefined,
    fail: () => undefined,
    // Once, whatever ended the body.
    settle: () =>
      done(
        callOutcome(channel, request.upstreamModel, undefined, noTokens, delivered, false, -1000, undefined),
      ),
  };
  const contentType = response.headers['content-type'];
  reply.code(200).header('content-type', String(contentType ?? 'application/octet-stream'));
  return sendPiped(reply, context.abort, body, relay);
}
