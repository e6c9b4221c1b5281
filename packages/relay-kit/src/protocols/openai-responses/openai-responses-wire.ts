import type { FinishReason } from '../../spec/finish-reason.js';
import type { ClientError } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedChoice } from '../../spec/unified-response.js';
import type { Usage } from '../../spec/usage.js';

type Json = Record<string, unknown>;

/** A Responses id with the given prefix (`resp`, `msg`, `fc`, `rs`): prefix + 32 hex digits. */
export function responsesId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The Responses `usage` object for a {@link Usage}. */
export function toResponsesUsage(usage: Usage): Json {
  return {
    input_tokens: usage.inputTokens.total,
    input_tokens_details: { cached_tokens: usage.inputTokens.cacheRead },
    output_tokens: usage.outputTokens.total,
    output_tokens_details: { reasoning_tokens: usage.outputTokens.reasoning },
    total_tokens: usage.inputTokens.total + usage.outputTokens.total,
  };
}

/** `status` and `incomplete_details` for how the model stopped. */
export function responsesStatus(reason: FinishReason | undefined): {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: string } | null;
} {
  if (reason === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason === 'content-filter') {
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  }
  return { status: 'completed', incomplete_details: null };
}

/** A reasoning output item. */
export function reasoningItem(id: string, text: string): Json {
  return { id, type: 'reasoning', summary: text === '' ? [] : [{ type: 'summary_text', text }] };
}

/** An `output_text` content part. */
export function outputTextPart(text: string): Json {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

/** An assistant message output item. */
export function messageItem(id: string, text: string, status: string): Json {
  return {
    id,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'in_progress' ? [] : [outputTextPart(text)],
  };
}

/** A function call output item. */
export function functionCallItem(
  id: string,
  callId: string,
  name: string,
  args: string,
  status: string,
): Json {
  return { id, type: 'function_call', status, arguments: args, call_id: callId, name };
}

/** The output items of one (non-stream) choice: reasoning, message, then function calls. */
export function outputItems(choice: UnifiedChoice | undefined): Json[] {
  if (choice === undefined) return [];
  const items: Json[] = [];
  if (choice.reasoning !== undefined && choice.reasoning !== '') {
    items.push(reasoningItem(responsesId('rs'), choice.reasoning));
  }
  if (choice.text !== '' || choice.toolCalls.length === 0) {
    items.push(messageItem(responsesId('msg'), choice.text, 'completed'));
  }
  for (const call of choice.toolCalls) {
    items.push(
      functionCallItem(
        responsesId('fc'),
        call.id || responsesId('call'),
        call.name,
        call.arguments,
        'completed',
      ),
    );
  }
  return items;
}

/**
 * The `response` object, echoing the request's settings as OpenAI does. `status`, `output` and
 * `usage` vary between the stream's opening events and the final one.
 */
export function responseObject(
  call: RelayCall,
  fields: {
    id: string;
    createdAt: number;
    model: string;
    status: string;
    incompleteDetails: unknown;
    output: readonly Json[];
    usage: Json | null;
  },
): Json {
  const body = call.body;
  const pick = (field: string, fallback: unknown) => (body[field] === undefined ? fallback : body[field]);
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.createdAt,
    status: fields.status,
    error: null,
    incomplete_details: fields.incompleteDetails,
    instructions: pick('instructions', null),
    max_output_tokens: pick('max_output_tokens', null),
    model: fields.model,
    output: fields.output,
    parallel_tool_calls: pick('parallel_tool_calls', true),
    previous_response_id: pick('previous_response_id', null),
    reasoning: pick('reasoning', { effort: null, summary: null }),
    store: pick('store', true),
    temperature: pick('temperature', 1),
    text: pick('text', { format: { type: 'text' } }),
    tool_choice: pick('tool_choice', 'auto'),
    tools: pick('tools', []),
    top_p: pick('top_p', 1),
    truncation: pick('truncation', 'disabled'),
    usage: fields.usage,
    user: pick('user', null),
    metadata: pick('metadata', {}),
  };
}

/**
 * The Responses stream error event: `event: error` with
 * `{"type":"error","code","message","param","sequence_number"}`. A failure the server reports
 * after the first byte cannot know the stream's position, so it passes `sequenceNumber` when it
 * has one (default 0).
 */
export function formatResponsesStreamError(error: ClientError, sequenceNumber = 0): string {
  return `event: error\ndata: ${JSON.stringify({
    type: 'error',
    code: error.code ?? error.type ?? null,
    message: error.message,
    param: error.param ?? null,
    sequence_number: sequenceNumber,
  })}\n\n`;
}
