import { type StreamEvent, StreamEventKind, writeEventStream } from '../event-stream-writer.ts';
import { type MockRequestContext, nextId } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { planReply, type ReplyPlan } from '../reply-plan.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import {
  chooseGeminiTool,
  readGeminiGenerationConfig,
  summarizeGeminiContents,
} from './gemini-conversation.ts';
import { buildGeminiParts, buildGeminiUsageMetadata, mapGeminiFinishReason } from './gemini-response.ts';
import { geminiStreamOptions } from './gemini-stream-format.ts';

function planGeminiReply(context: MockRequestContext): { model: string; plan: ReplyPlan } | undefined {
  const { body, response, scenario } = context;
  const model = context.pathModel ?? '';
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    sendProtocolError(response, 'gemini', {
      status: 400,
      message: '* GenerateContentRequest.contents: contents is not specified',
    });
    return undefined;
  }
  const conversation = summarizeGeminiContents(body);
  const settings = readGeminiGenerationConfig(body, model);
  const plan = planReply({
    model,
    conversation,
    tool: chooseGeminiTool(body, conversation),
    thinking: settings.thinking,
    maxTokens: settings.maxTokens,
    scenario,
  });
  return { model, plan };
}

/** `POST /v1beta/models/{model}:generateContent`. */
export async function handleGeminiGenerateContent(context: MockRequestContext): Promise<void> {
  const planned = planGeminiReply(context);
  if (!planned) return;
  const { model, plan } = planned;
  const result: Record<string, unknown> = {
    candidates: [
      {
        content: { parts: buildGeminiParts(plan), role: 'model' },
        finishReason: mapGeminiFinishReason(plan.finish),
        index: 0,
      },
    ],
  };
  if (!context.scenario.noUsage) result.usageMetadata = buildGeminiUsageMetadata(plan.usage);
  result.modelVersion = model;
  result.responseId = nextId('resp');
  await sendResultJson(context.response, context.scenario, result);
}

/**
 * `POST /v1beta/models/{model}:streamGenerateContent`: with `?alt=sse` an event stream of
 * `data:` lines (CRLF-separated, as Google sends them); without it, a streamed JSON array.
 */
export async function handleGeminiStreamGenerateContent(context: MockRequestContext): Promise<void> {
  const planned = planGeminiReply(context);
  if (!planned) return;
  const sse = context.query.get('alt') === 'sse';
  const events = streamGeminiResponse(planned.model, planned.plan, !context.scenario.noUsage, sse);
  await writeEventStream(context.response, events, geminiStreamOptions(context.scenario, sse));
}

/**
 * The chunks of a streamed Gemini response: one per thought piece, text piece or function call
 * (each with running `usageMetadata` of prompt tokens), then a final chunk with an empty text
 * part, `finishReason` and the complete `usageMetadata`.
 */
export function* streamGeminiResponse(
  model: string,
  plan: ReplyPlan,
  includeUsage: boolean,
  sse: boolean,
): Generator<StreamEvent> {
  const prompt = plan.usage.promptTokens;
  const runningUsage = includeUsage
    ? `,"usageMetadata":{"promptTokenCount":${prompt},"totalTokenCount":${prompt}}`
    : '';
  const tail = `,"modelVersion":${JSON.stringify(model)},"responseId":"${nextId('resp')}"}`;
  let first = true;
  const frame = (json: string): string => {
    if (sse) return `data: ${json}\r\n\r\n`;
    const framed = first ? `[${json}` : `,\r\n${json}`;
    first = false;
    return framed;
  };
  const chunk = (part: string): StreamEvent => ({
    text: frame(
      `{"candidates":[{"content":{"parts":[${part}],"role":"model"},"index":0}]${runningUsage}${tail}`,
    ),
    kind: StreamEventKind.Content,
  });
  for (const piece of plan.reasoningPieces) yield chunk(`{"text":${JSON.stringify(piece)},"thought":true}`);
  if (plan.toolCall) {
    yield chunk(
      `{"functionCall":{"name":${JSON.stringify(plan.toolCall.name)},"args":${plan.toolCall.argumentsJson}}}`,
    );
  } else {
    for (const piece of plan.textPieces) yield chunk(`{"text":${JSON.stringify(piece)}}`);
  }
  const finalUsage = includeUsage
    ? `,"usageMetadata":${JSON.stringify(buildGeminiUsageMetadata(plan.usage))}`
    : '';
  yield {
    text: frame(
      `{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"${mapGeminiFinishReason(plan.finish)}","index":0}]${finalUsage}${tail}`,
    ),
    kind: StreamEventKind.Closing,
  };
}
