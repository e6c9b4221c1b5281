import { type StreamEvent, StreamEventKind, writeEventStream } from '../event-stream-writer.ts';
import { type MockRequestContext, nextId, nowSeconds } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { isThinkingModel, planReply, type ReplyPlan } from '../reply-plan.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import {
  chooseOpenAiTool,
  readOpenAiMaxTokens,
  summarizeOpenAiMessages,
} from './openai-chat-conversation.ts';
import { openAiDoneEvent, openAiStreamOptions } from './openai-stream-format.ts';
import { buildOpenAiChatUsage, mapOpenAiFinishReason } from './openai-usage.ts';

const maxChoices = 16;

/** `POST /v1/chat/completions`, JSON and `stream: true`, as OpenAI answers it. */
export async function handleOpenAiChatCompletions(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (typeof body.model !== 'string' || body.model === '') {
    sendProtocolError(response, 'openai', { status: 400, message: 'you must provide a model parameter' });
    return;
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    sendProtocolError(response, 'openai', {
      status: 400,
      message: "Missing required parameter: 'messages'.",
      param: 'messages',
      code: 'missing_required_parameter',
    });
    return;
  }
  const model = body.model;
  const conversation = summarizeOpenAiMessages(body.messages);
  const plan = planReply({
    model,
    conversation,
    tool: chooseOpenAiTool(body, conversation),
    thinking: isThinkingModel(model),
    maxTokens: readOpenAiMaxTokens(body),
    scenario,
  });
  const choiceCount = typeof body.n === 'number' ? Math.min(Math.max(1, Math.floor(body.n)), maxChoices) : 1;
  const id = nextId('chatcmpl-');
  const toolCallId = plan.toolCall ? nextId('call_') : '';
  if (body.stream === true) {
    const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
    const includeUsage = streamOptions?.include_usage === true && !scenario.noUsage;
    const events = streamOpenAiChat({ id, model, plan, choiceCount, includeUsage, toolCallId });
    await writeEventStream(response, events, openAiStreamOptions(scenario));
    return;
  }
  const message: Record<string, unknown> = { role: 'assistant', content: plan.toolCall ? null : plan.text };
  if (plan.reasoning !== '') message.reasoning_content = plan.reasoning;
  if (plan.toolCall) {
    message.tool_calls = [
      {
        id: toolCallId,
        type: 'function',
        function: { name: plan.toolCall.name, arguments: plan.toolCall.argumentsJson },
      },
    ];
  }
  message.refusal = null;
  message.annotations = [];
  const choices = [];
  for (let index = 0; index < choiceCount; index++) {
    choices.push({ index, message, logprobs: null, finish_reason: mapOpenAiFinishReason(plan.finish) });
  }
  const result: Record<string, unknown> = {
    id,
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices,
  };
  if (!scenario.noUsage) result.usage = buildOpenAiChatUsage(plan.usage, choiceCount);
  result.service_tier = 'default';
  result.system_fingerprint = 'fp_mock';
  await sendResultJson(response, scenario, result);
}

interface ChatStreamInput {
  readonly id: string;
  readonly model: string;
  readonly plan: ReplyPlan;
  readonly choiceCount: number;
  readonly includeUsage: boolean;
  readonly toolCallId: string;
}

/**
 * The chunks of a streamed chat completion, in OpenAI's order: a role chunk per choice,
 * reasoning deltas, content (or tool-call argument) deltas, a finish chunk per choice, then, only
 * with `stream_options.include_usage`, a usage chunk with `choices: []`, and `[DONE]`.
 * With include_usage every other chunk carries `"usage":null`, as OpenAI's do.
 */
export function* streamOpenAiChat(input: ChatStreamInput): Generator<StreamEvent> {
  const { plan, choiceCount } = input;
  const created = nowSeconds();
  const envelope = `data: {"id":"${input.id}","object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(input.model)},"service_tier":"default","system_fingerprint":"fp_mock","choices":[`;
  const usageField = input.includeUsage ? ',"usage":null' : '';
  const chunk = (index: number, delta: string, finishReason: string): string =>
    `${envelope}{"index":${index},"delta":${delta},"logprobs":null,"finish_reason":${finishReason}}]${usageField}}\n\n`;
  const content = (text: string): StreamEvent => ({ text, kind: StreamEventKind.Content });
  const framing = (text: string): StreamEvent => ({ text, kind: StreamEventKind.Framing });

  const toolCall = plan.toolCall;
  const roleDelta = toolCall
    ? `{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"${input.toolCallId}","type":"function","function":{"name":${JSON.stringify(toolCall.name)},"arguments":""}}],"refusal":null}`
    : '{"role":"assistant","content":"","refusal":null}';
  for (let index = 0; index < choiceCount; index++) yield framing(chunk(index, roleDelta, 'null'));
  for (const piece of plan.reasoningPieces) {
    const delta = `{"content":null,"reasoning_content":${JSON.stringify(piece)}}`;
    for (let index = 0; index < choiceCount; index++) yield content(chunk(index, delta, 'null'));
  }
  if (toolCall) {
    for (const fragment of toolCall.argumentFragments) {
      const delta = `{"tool_calls":[{"index":0,"function":{"arguments":${JSON.stringify(fragment)}}}]}`;
      for (let index = 0; index < choiceCount; index++) yield content(chunk(index, delta, 'null'));
    }
  } else {
    for (const piece of plan.textPieces) {
      const delta = `{"content":${JSON.stringify(piece)}}`;
      for (let index = 0; index < choiceCount; index++) yield content(chunk(index, delta, 'null'));
    }
  }
  const finishReason = JSON.stringify(mapOpenAiFinishReason(plan.finish));
  yield { text: chunk(0, '{}', finishReason), kind: StreamEventKind.Closing };
  for (let index = 1; index < choiceCount; index++) yield framing(chunk(index, '{}', finishReason));
  if (input.includeUsage) {
    const usage = JSON.stringify(buildOpenAiChatUsage(plan.usage, choiceCount));
    yield framing(`${envelope}],"usage":${usage}}\n\n`);
  }
  yield framing(openAiDoneEvent);
}
