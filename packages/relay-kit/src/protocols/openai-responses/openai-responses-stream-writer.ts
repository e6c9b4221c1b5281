import type { FinishReason } from '../../spec/finish-reason.js';
import type { ClientStreamOptions } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { Usage } from '../../spec/usage.js';
import {
  formatResponsesStreamError,
  functionCallItem,
  messageItem,
  outputTextPart,
  reasoningItem,
  responseObject,
  responsesId,
  responsesStatus,
  toResponsesUsage,
} from './openai-responses-wire.js';

type Json = Record<string, unknown>;

interface OutputItem {
  readonly kind: 'reasoning' | 'message' | 'function_call';
  readonly id: string;
  readonly outputIndex: number;
  text: string;
  name: string;
  callId: string;
  open: boolean;
}

const encoder = new TextEncoder();

/**
 * Writes {@link StreamPart}s as a Responses event stream (conversion path): `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added` … `.done` with, for
 * messages, `response.content_part.added`, `response.output_text.delta`/`.done`,
 * `response.content_part.done`; for reasoning, `response.reasoning_summary_part.added`,
 * `response.reasoning_summary_text.delta`/`.done`, `response.reasoning_summary_part.done`; for
 * tool calls, `response.function_call_arguments.delta`/`.done`. The stream ends with
 * `response.completed` (or `response.incomplete` when the output limit or the content filter
 * stopped the model) carrying the whole response and its usage. Every event has a monotonic
 * `sequence_number` starting at 0. Only the first choice is written. An `error` part becomes an
 * `error` event and ends the stream.
 */
export function createOpenAIResponsesStreamWriter(
  call: RelayCall,
  options: ClientStreamOptions = {},
): TransformStream<StreamPart, Uint8Array> {
  const id = responsesId('resp');
  const createdAt = Math.floor(Date.now() / 1000);
  let model = call.model;
  let sequence = 0;
  let started = false;
  let failed = false;
  let usage: Usage | undefined;
  let finishReason: FinishReason | undefined;
  const items: OutputItem[] = [];
  let current: OutputItem | undefined;
  const toolItems = new Map<number, OutputItem>();

  const event = (type: string, fields: Json) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
  const snapshot = (status: string, output: Json[], usageJson: Json | null, incomplete: unknown = null) =>
    responseObject(call, {
      id,
      createdAt,
      model,
      status,
      incompleteDetails: incomplete,
      output,
      usage: usageJson,
    });

  const start = (): string => {
    if (started) return '';
    started = true;
    const response = snapshot('in_progress', [], null);
    return event('response.created', { response }) + event('response.in_progress', { response });
  };

  const finalItem = (item: OutputItem): Json => {
    if (item.kind === 'reasoning') return reasoningItem(item.id, item.text);
    if (item.kind === 'message') return messageItem(item.id, item.text, 'completed');
    return functionCallItem(item.id, item.callId, item.name, item.text, 'completed');
  };

  const open = (kind: OutputItem['kind'], name = '', callId = ''): [OutputItem, string] => {
    const prefix = kind === 'reasoning' ? 'rs' : kind === 'message' ? 'msg' : 'fc';
    const item: OutputItem = {
      kind,
      id: responsesId(prefix),
      outputIndex: items.length,
      text: '',
      name,
      callId,
      open: true,
    };
    items.push(item);
    const where = { item_id: item.id, output_index: item.outputIndex };
    let out: string;
    if (kind === 'reasoning') {
      out =
        event('response.output_item.added', {
          output_index: item.outputIndex,
          item: reasoningItem(item.id, ''),
        }) +
        event('response.reasoning_summary_part.added', {
          ...where,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
    } else if (kind === 'message') {
      out =
        event('response.output_item.added', {
          output_index: item.outputIndex,
          item: messageItem(item.id, '', 'in_progress'),
        }) + event('response.content_part.added', { ...where, content_index: 0, part: outputTextPart('') });
    } else {
      out = event('response.output_item.added', {
        output_index: item.outputIndex,
        item: functionCallItem(item.id, callId, name, '', 'in_progress'),
      });
    }
    return [item, out];
  };

  const close = (item: OutputItem): string => {
    if (!item.open) return '';
    item.open = false;
    const where = { item_id: item.id, output_index: item.outputIndex };
    let out: string;
    if (item.kind === 'reasoning') {
      out =
        event('response.reasoning_summary_text.done', { ...where, summary_index: 0, text: item.text }) +
        event('response.reasoning_summary_part.done', {
          ...where,
          summary_index: 0,
          part: { type: 'summary_text', text: item.text },
        });
    } else if (item.kind === 'message') {
      out =
        event('response.output_text.done', { ...where, content_index: 0, text: item.text, logprobs: [] }) +
        event('response.content_part.done', { ...where, content_index: 0, part: outputTextPart(item.text) });
    } else {
      out = event('response.function_call_arguments.done', { ...where, arguments: item.text });
    }
    return (
      out + event('response.output_item.done', { output_index: item.outputIndex, item: finalItem(item) })
    );
  };

  /** Makes sure the open text-like item is of `kind`; returns it and the events written. */
  const textItem = (kind: 'reasoning' | 'message'): [OutputItem, string] => {
    if (current !== undefined && current.kind === kind && current.open) return [current, ''];
    const closed = current === undefined ? '' : close(current);
    const [item, opened] = open(kind);
    current = item;
    return [item, closed + opened];
  };

  // `start()` always runs first, so the opening events take the first sequence numbers.
  const handle = (part: StreamPart): string => {
    if (part.type === 'message-start' && part.model !== '') model = part.model;
    const head = start();
    return head + handlePart(part);
  };
  const handlePart = (part: StreamPart): string => {
    switch (part.type) {
      case 'message-start':
        return '';
      case 'text-delta':
      case 'reasoning-delta': {
        if (part.index !== 0 || part.delta === '') return '';
        const kind = part.type === 'text-delta' ? 'message' : 'reasoning';
        const [item, prefix] = textItem(kind);
        item.text += part.delta;
        const where = { item_id: item.id, output_index: item.outputIndex };
        const delta =
          kind === 'message'
            ? event('response.output_text.delta', {
                ...where,
                content_index: 0,
                delta: part.delta,
                logprobs: [],
              })
            : event('response.reasoning_summary_text.delta', {
                ...where,
                summary_index: 0,
                delta: part.delta,
              });
        return prefix + delta;
      }
      case 'tool-call-delta': {
        if (part.index !== 0) return '';
        let out = '';
        let item = toolItems.get(part.toolCallIndex);
        if (item === undefined) {
          if (current !== undefined) out += close(current);
          current = undefined;
          const [opened, added] = open('function_call', part.name ?? '', part.id ?? responsesId('call'));
          item = opened;
          toolItems.set(part.toolCallIndex, item);
          out += added;
        } else if (part.name !== undefined && item.name === '') item.name = part.name;
        if (part.argumentsDelta !== '') {
          item.text += part.argumentsDelta;
          out += event('response.function_call_arguments.delta', {
            item_id: item.id,
            output_index: item.outputIndex,
            delta: part.argumentsDelta,
          });
        }
        return out;
      }
      case 'usage':
        usage = part.usage;
        return '';
      case 'finish':
        if (part.index === 0) finishReason = part.reason;
        return '';
      case 'error':
        failed = true;
        return formatResponsesStreamError(
          {
            status: part.error.status || 500,
            message: part.error.message,
            type: part.error.type,
            code: part.error.upstreamCode ?? part.error.type ?? 'upstream_error',
            param: part.error.param ?? null,
          },
          sequence++,
        );
    }
  };

  return new TransformStream<StreamPart, Uint8Array>({
    transform(part, controller) {
      if (failed) return;
      const out = handle(part);
      if (out !== '') controller.enqueue(encoder.encode(out));
    },
    flush(controller) {
      if (failed) return;
      let out = start();
      for (const item of items) out += close(item);
      const finalUsage = options.resolveUsage ? options.resolveUsage(usage) : usage;
      const { status, incomplete_details } = responsesStatus(finishReason);
      const response = snapshot(
        status,
        items.map(finalItem),
        finalUsage === undefined ? null : toResponsesUsage(finalUsage),
        incomplete_details,
      );
      out += event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
      controller.enqueue(encoder.encode(out));
    },
  });
}
