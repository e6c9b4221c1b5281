import { writeEventStream } from '../event-stream-writer.ts';
import { type MockRequestContext, nextId } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { isThinkingModel, planReply } from '../reply-plan.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import {
  chooseAnthropicTool,
  isAnthropicThinkingRequested,
  summarizeAnthropicMessages,
} from './anthropic-conversation.ts';
import { anthropicStreamOptions, streamAnthropicMessage } from './anthropic-messages-stream.ts';
import {
  anthropicOutputTokens,
  buildAnthropicUsage,
  mapAnthropicStopReason,
  mockThinkingSignature,
} from './anthropic-usage.ts';

/** Validates the fields Anthropic requires; sends its 400 and returns false when one is missing. */
function validateAnthropicRequest(context: MockRequestContext): boolean {
  const { body, response } = context;
  let problem: string | undefined;
  if (typeof body.model !== 'string' || body.model === '') problem = 'model: Field required';
  else if (typeof body.max_tokens !== 'number') problem = 'max_tokens: Field required';
  else if (!Array.isArray(body.messages)) problem = 'messages: Field required';
  else if (body.messages.length === 0) problem = 'messages: at least one message is required';
  if (problem === undefined) return true;
  sendProtocolError(response, 'anthropic', { status: 400, message: problem });
  return false;
}

/** `POST /v1/messages`, JSON and `stream: true`, as Anthropic answers it. */
export async function handleAnthropicMessages(context: MockRequestContext): Promise<void> {
  if (!validateAnthropicRequest(context)) return;
  const { body, response, scenario } = context;
  const model = body.model as string;
  const conversation = summarizeAnthropicMessages(body.system, body.messages as unknown[]);
  const plan = planReply({
    model,
    conversation,
    tool: chooseAnthropicTool(body, conversation),
    thinking: isAnthropicThinkingRequested(body) || isThinkingModel(model),
    maxTokens: body.max_tokens as number,
    scenario,
  });
  const id = nextId('msg_');
  const toolUseId = plan.toolCall ? nextId('toolu_') : '';
  if (body.stream === true) {
    const events = streamAnthropicMessage({ id, model, plan, toolUseId, includeUsage: !scenario.noUsage });
    await writeEventStream(response, events, anthropicStreamOptions(scenario));
    return;
  }
  const content: Record<string, unknown>[] = [];
  if (plan.reasoning !== '') {
    content.push({ type: 'thinking', thinking: plan.reasoning, signature: mockThinkingSignature });
  }
  if (plan.toolCall) {
    content.push({
      type: 'tool_use',
      id: toolUseId,
      name: plan.toolCall.name,
      input: JSON.parse(plan.toolCall.argumentsJson),
    });
  } else {
    content.push({ type: 'text', text: plan.text });
  }
  const result: Record<string, unknown> = {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: mapAnthropicStopReason(plan.finish),
    stop_sequence: null,
  };
  if (!scenario.noUsage) result.usage = buildAnthropicUsage(plan.usage, anthropicOutputTokens(plan.usage));
  await sendResultJson(response, scenario, result);
}

/** `POST /v1/messages/count_tokens`: the counted prompt tokens. */
export async function handleAnthropicCountTokens(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (!Array.isArray(body.messages)) {
    sendProtocolError(response, 'anthropic', { status: 400, message: 'messages: Field required' });
    return;
  }
  const conversation = summarizeAnthropicMessages(body.system, body.messages);
  await sendResultJson(response, scenario, { input_tokens: conversation.countedPromptTokens });
}
