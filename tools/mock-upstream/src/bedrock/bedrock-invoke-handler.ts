import {
  chooseAnthropicTool,
  isAnthropicThinkingRequested,
  summarizeAnthropicMessages,
} from '../anthropic/anthropic-conversation.ts';
import { handleAnthropicMessages } from '../anthropic/anthropic-messages-handler.ts';
import { streamAnthropicMessage } from '../anthropic/anthropic-messages-stream.ts';
import { type StreamEvent, writeEventStream } from '../event-stream-writer.ts';
import { type MockRequestContext, nextId } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { isThinkingModel, planReply } from '../reply-plan.ts';
import { encodeBedrockChunk, encodeBedrockException } from './aws-event-stream-encoder.ts';

/** The `anthropic_version` Bedrock requires in Claude bodies. */
export const bedrockAnthropicVersion = 'bedrock-2023-05-31';

const streamHeaders = Object.freeze({
  'content-type': 'application/vnd.amazon.eventstream',
  'x-amzn-bedrock-content-type': 'application/json',
});
const malformedFrame = encodeBedrockChunk('{"type":"content_block_delta","index":0,"delta":').toString(
  'latin1',
);
const exceptionFrame = encodeBedrockException(
  'internalServerException',
  'Mock scenario: the model stream failed.',
).toString('latin1');

/** Bedrock's 400 for a body it cannot accept; `undefined` when the body is a valid Claude body. */
function validationProblem(body: Record<string, unknown>): string | undefined {
  if (body.anthropic_version !== bedrockAnthropicVersion) {
    return `Malformed input request: #: required key [anthropic_version] not found or not ${bedrockAnthropicVersion}, please reformat your input and try again.`;
  }
  if ('model' in body) return 'Malformed input request: #: extraneous key [model] is not permitted';
  if (typeof body.max_tokens !== 'number')
    return 'Malformed input request: #: required key [max_tokens] not found';
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return 'Malformed input request: #: required key [messages] not found';
  return undefined;
}

/**
 * `POST /model/{modelId}/invoke` and `/invoke-with-response-stream`: Bedrock's InvokeModel for
 * Claude. The body is an Anthropic Messages body without `model` (the path names it) and with
 * `anthropic_version: "bedrock-2023-05-31"`. `invoke` answers Anthropic's JSON message;
 * the streaming action answers AWS event-stream frames whose `chunk` events carry each Anthropic
 * stream event base64-encoded (`{"bytes": …}`), `message_stop` with
 * `amazon-bedrock-invocationMetrics`. Errors are `{"message"}` with `x-amzn-ErrorType`.
 */
export async function handleBedrockInvoke(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  const problem = validationProblem(body);
  if (problem !== undefined) {
    sendProtocolError(response, 'bedrock', { status: 400, message: problem });
    return;
  }
  const model = context.pathModel ?? '';
  if (!context.path.endsWith('/invoke-with-response-stream')) {
    await handleAnthropicMessages({ ...context, body: { ...body, model, stream: false } });
    return;
  }
  const conversation = summarizeAnthropicMessages(body.system, body.messages as unknown[]);
  const plan = planReply({
    model,
    conversation,
    tool: chooseAnthropicTool(body, conversation),
    thinking: isAnthropicThinkingRequested(body) || isThinkingModel(model),
    maxTokens: body.max_tokens as number,
    scenario,
  });
  const events = streamAnthropicMessage({
    id: nextId('msg_bdrk_'),
    model,
    plan,
    toolUseId: plan.toolCall ? nextId('toolu_bdrk_') : '',
    includeUsage: !scenario.noUsage,
  });
  const metrics = {
    inputTokenCount: plan.usage.promptTokens,
    outputTokenCount: plan.usage.outputTokens + plan.usage.reasoningTokens,
    invocationLatency: 120,
    firstByteLatency: 40,
  };
  await writeEventStream(response, toBedrockFrames(events, scenario.noUsage ? undefined : metrics), {
    headers: streamHeaders,
    scenario,
    malformedEvent: malformedFrame,
    errorEvent: exceptionFrame,
    encoding: 'latin1',
  });
}

/** Re-frames Anthropic SSE events as Bedrock chunk frames (held as latin1 strings); pings are dropped. */
function* toBedrockFrames(
  events: Iterable<StreamEvent>,
  metrics: object | undefined,
): Generator<StreamEvent> {
  for (const event of events) {
    const dataLine = event.text.split('\n').find((line) => line.startsWith('data: '));
    if (dataLine === undefined) continue;
    let data = dataLine.slice(6);
    if (data.includes('"type": "ping"') || data.includes('"type":"ping"')) continue;
    if (metrics !== undefined && data === '{"type":"message_stop"}') {
      data = JSON.stringify({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': metrics });
    }
    yield { text: encodeBedrockChunk(data).toString('latin1'), kind: event.kind };
  }
}
