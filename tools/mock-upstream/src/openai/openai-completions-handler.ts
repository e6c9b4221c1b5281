import { type StreamEvent, StreamEventKind, writeEventStream } from '../event-stream-writer.ts';
import { type MockRequestContext, nextId, nowSeconds } from '../mock-request-context.ts';
import { stripScenarioDirectives } from '../mock-scenario.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { planReply, type ReplyPlan } from '../reply-plan.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { countWords } from '../word-count.ts';
import { openAiDoneEvent, openAiStreamOptions } from './openai-stream-format.ts';
import { buildOpenAiPlainUsage } from './openai-usage.ts';

/**
 * Reads a legacy `prompt` (string, strings, token array or token arrays): its word count (a
 * token array counts its length) and the first prompt's text, which the reply echoes.
 */
export function summarizeCompletionPrompt(prompt: unknown): { tokens: number; firstText: string } {
  const prompts =
    Array.isArray(prompt) && (prompt.length === 0 || typeof prompt[0] !== 'number') ? prompt : [prompt];
  let tokens = 0;
  let firstText: string | undefined;
  for (const item of prompts) {
    if (typeof item === 'string') {
      tokens += countWords(item);
      firstText ??= item;
    } else if (Array.isArray(item)) {
      tokens += item.length;
    }
  }
  return { tokens, firstText: firstText ?? '' };
}

/** `POST /v1/completions` (the legacy text completion API), JSON and stream. */
export async function handleOpenAiCompletions(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (typeof body.model !== 'string' || body.model === '') {
    sendProtocolError(response, 'openai', { status: 400, message: 'you must provide a model parameter' });
    return;
  }
  const model = body.model;
  const prompt = summarizeCompletionPrompt(body.prompt);
  const plan = planReply({
    model,
    conversation: {
      countedPromptTokens: prompt.tokens,
      lastUserText: stripScenarioDirectives(prompt.firstText),
      endsWithToolResult: false,
    },
    tool: undefined,
    thinking: false,
    maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined,
    scenario,
  });
  const id = nextId('cmpl-');
  if (body.stream === true) {
    const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
    const includeUsage = streamOptions?.include_usage === true && !scenario.noUsage;
    await writeEventStream(
      response,
      streamOpenAiCompletion(id, model, plan, includeUsage),
      openAiStreamOptions(scenario),
    );
    return;
  }
  const result: Record<string, unknown> = {
    id,
    object: 'text_completion',
    created: nowSeconds(),
    model,
    choices: [{ text: plan.text, index: 0, logprobs: null, finish_reason: plan.finish }],
  };
  if (!scenario.noUsage)
    result.usage = buildOpenAiPlainUsage(plan.usage.promptTokens, plan.usage.outputTokens);
  await sendResultJson(response, scenario, result);
}

function* streamOpenAiCompletion(
  id: string,
  model: string,
  plan: ReplyPlan,
  includeUsage: boolean,
): Generator<StreamEvent> {
  const envelope = `data: {"id":"${id}","object":"text_completion","created":${nowSeconds()},"model":${JSON.stringify(model)},"choices":[`;
  const usageField = includeUsage ? ',"usage":null' : '';
  for (const piece of plan.textPieces) {
    yield {
      text: `${envelope}{"text":${JSON.stringify(piece)},"index":0,"logprobs":null,"finish_reason":null}]${usageField}}\n\n`,
      kind: StreamEventKind.Content,
    };
  }
  yield {
    text: `${envelope}{"text":"","index":0,"logprobs":null,"finish_reason":"${plan.finish}"}]${usageField}}\n\n`,
    kind: StreamEventKind.Closing,
  };
  if (includeUsage) {
    const usage = JSON.stringify(buildOpenAiPlainUsage(plan.usage.promptTokens, plan.usage.outputTokens));
    yield { text: `${envelope}],"usage":${usage}}\n\n`, kind: StreamEventKind.Framing };
  }
  yield { text: openAiDoneEvent, kind: StreamEventKind.Framing };
}
