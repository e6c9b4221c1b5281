import { toGeminiFinishReason } from '../../providers/gemini/map-gemini-finish-reason.js';
import type { ClientStreamOptions } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { Usage } from '../../spec/usage.js';
import { geminiWantsJsonArrayStream } from './gemini-path.js';
import { formatGeminiErrorBody, newResponseId, parseArgs, toGeminiUsageMetadata } from './gemini-wire.js';

const encoder = new TextEncoder();

interface PendingToolCall {
  name: string;
  args: string;
}

/**
 * Writes {@link StreamPart}s as Gemini stream chunks (conversion path): one chunk per text or
 * thought delta; tool call fragments are collected and sent whole as `functionCall` parts with
 * the finishing chunk (Gemini never splits a call); finishing chunks are held until the upstream
 * ends so the last one carries `usageMetadata` (after `options.resolveUsage`). SSE events
 * (`data: {…}\r\n\r\n`, as Google frames them) when the client sent `alt=sse`, otherwise Google's
 * streamed JSON array (`[{…}\r\n,{…}]`). An `error` part becomes a Google error object (an SSE
 * event, or the last array element) and ends the stream.
 */
export function createGeminiStreamWriter(
  call: RelayCall,
  options: ClientStreamOptions = {},
): TransformStream<StreamPart, Uint8Array> {
  const jsonArray = geminiWantsJsonArrayStream(call);
  let responseId = '';
  let modelVersion = call.model;
  let usage: Usage | undefined;
  let failed = false;
  let written = 0;
  const toolCalls = new Map<number, Map<number, PendingToolCall>>();
  const finishes = new Map<number, string>();

  const frame = (json: string): Uint8Array => {
    const text = jsonArray ? `${written === 0 ? '[' : '\r\n,'}${json}` : `data: ${json}\r\n\r\n`;
    written++;
    return encoder.encode(text);
  };
  const chunk = (index: number, parts: unknown[], finishReason?: string, withUsage?: Usage) => {
    if (responseId === '') responseId = newResponseId();
    const candidate: Record<string, unknown> = { content: { role: 'model', parts } };
    if (finishReason !== undefined) candidate.finishReason = finishReason;
    candidate.index = index;
    const body: Record<string, unknown> = { candidates: [candidate] };
    if (withUsage !== undefined) body.usageMetadata = toGeminiUsageMetadata(withUsage);
    body.modelVersion = modelVersion;
    body.responseId = responseId;
    return frame(JSON.stringify(body));
  };
  const callParts = (index: number) =>
    [...(toolCalls.get(index)?.values() ?? [])].map((pending) => ({
      functionCall: { name: pending.name, args: parseArgs(pending.args) },
    }));

  return new TransformStream<StreamPart, Uint8Array>({
    transform(part, controller) {
      if (failed) return;
      switch (part.type) {
        case 'message-start':
          if (part.id !== '') responseId = part.id;
          if (part.model !== '') modelVersion = part.model;
          return;
        case 'text-delta':
          controller.enqueue(chunk(part.index, [{ text: part.delta }]));
          return;
        case 'reasoning-delta':
          controller.enqueue(chunk(part.index, [{ text: part.delta, thought: true }]));
          return;
        case 'tool-call-delta': {
          let calls = toolCalls.get(part.index);
          if (calls === undefined) {
            calls = new Map();
            toolCalls.set(part.index, calls);
          }
          const pending = calls.get(part.toolCallIndex) ?? { name: '', args: '' };
          if (part.name !== undefined) pending.name = part.name;
          pending.args += part.argumentsDelta;
          calls.set(part.toolCallIndex, pending);
          return;
        }
        case 'finish':
          finishes.set(part.index, toGeminiFinishReason(part.reason));
          return;
        case 'usage':
          usage = part.usage;
          return;
        case 'error': {
          failed = true;
          const body = formatGeminiErrorBody({
            status: part.error.status >= 400 ? part.error.status : 500,
            message: part.error.message,
          });
          controller.enqueue(frame(body));
          if (jsonArray) controller.enqueue(encoder.encode(']'));
          return;
        }
      }
    },
    flush(controller) {
      if (failed) return;
      const finalUsage = options.resolveUsage ? options.resolveUsage(usage) : usage;
      const indexes = [...new Set([...finishes.keys(), ...toolCalls.keys()])].sort((a, b) => a - b);
      indexes.forEach((index, position) => {
        const parts = callParts(index);
        const last = position === indexes.length - 1;
        controller.enqueue(
          chunk(
            index,
            parts.length > 0 ? parts : [{ text: '' }],
            finishes.get(index) ?? 'STOP',
            last ? finalUsage : undefined,
          ),
        );
      });
      if (indexes.length === 0 && finalUsage !== undefined) {
        if (responseId === '') responseId = newResponseId();
        controller.enqueue(
          frame(
            JSON.stringify({ usageMetadata: toGeminiUsageMetadata(finalUsage), modelVersion, responseId }),
          ),
        );
      }
      if (jsonArray) controller.enqueue(encoder.encode(written === 0 ? '[]' : ']'));
    },
  });
}
