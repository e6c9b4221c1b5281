import { writeEventStream } from '../event-stream-writer.ts';
import { type MockRequestContext, nextId, nowSeconds } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { isThinkingModel, planReply } from '../reply-plan.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { chooseResponsesTool, summarizeResponsesInput } from './openai-responses-conversation.ts';
import {
  buildResponseObject,
  buildResponseOutput,
  buildResponsesUsage,
  type ResponseItemIds,
} from './openai-responses-objects.ts';
import { responsesStreamOptions, streamOpenAiResponse } from './openai-responses-stream.ts';

/**
 * `POST /v1/responses`, JSON and `stream: true`, as OpenAI's Responses API answers it: output
 * items (reasoning for thinking models, then a message or a function call), `status`
 * `completed` (or `incomplete` when `max_output_tokens` cut the reply), usage with
 * `input_tokens_details.cached_tokens` and `output_tokens_details.reasoning_tokens`.
 */
export async function handleOpenAiResponses(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (typeof body.model !== 'string' || body.model === '') {
    sendProtocolError(response, 'openai', {
      status: 400,
      message: "Missing required parameter: 'model'.",
      param: 'model',
      code: 'missing_required_parameter',
    });
    return;
  }
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) {
    sendProtocolError(response, 'openai', {
      status: 400,
      message: "Missing required parameter: 'input'.",
      param: 'input',
      code: 'missing_required_parameter',
    });
    return;
  }
  const model = body.model;
  const conversation = summarizeResponsesInput(body);
  const maxTokens = typeof body.max_output_tokens === 'number' ? body.max_output_tokens : undefined;
  const plan = planReply({
    model,
    conversation,
    tool: chooseResponsesTool(body, conversation),
    thinking: isThinkingModel(model),
    maxTokens,
    scenario,
  });
  const ids: ResponseItemIds = {
    response: nextId('resp_'),
    reasoning: nextId('rs_'),
    message: nextId('msg_'),
    functionCall: nextId('fc_'),
    callId: nextId('call_'),
  };
  const createdAt = nowSeconds();
  const status = plan.finish === 'length' ? 'incomplete' : 'completed';
  const usage = scenario.noUsage ? undefined : buildResponsesUsage(plan.usage);
  if (body.stream === true) {
    const build = (state: Parameters<typeof buildResponseObject>[4]) =>
      buildResponseObject(body, model, ids, createdAt, state);
    const events = streamOpenAiResponse({ plan, ids, build, status, usage });
    await writeEventStream(response, events, responsesStreamOptions(scenario));
    return;
  }
  const output = buildResponseOutput(plan, ids);
  await sendResultJson(
    response,
    scenario,
    buildResponseObject(body, model, ids, createdAt, { status, output, usage }),
  );
}
