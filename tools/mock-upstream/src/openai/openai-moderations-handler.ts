import { type MockRequestContext, nextId } from '../mock-request-context.ts';
import { isRecord } from '../reply-plan.ts';
import { sendResultJson } from '../scenario-json-writer.ts';

const categoryNames = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/instructions',
  'self-harm/intent',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];

/** One "nothing flagged" result, built once and shared by every response. */
const cleanResult = Object.freeze({
  flagged: false,
  categories: Object.fromEntries(categoryNames.map((name) => [name, false])),
  category_scores: Object.fromEntries(categoryNames.map((name) => [name, 0.000_01])),
  category_applied_input_types: Object.fromEntries(categoryNames.map((name) => [name, ['text']])),
});

/** `POST /v1/moderations`: one unflagged result per input item. */
export async function handleOpenAiModerations(context: MockRequestContext): Promise<void> {
  const { body } = context;
  const input = body.input;
  let count = 1;
  if (Array.isArray(input)) {
    const multimodal = input.some((item) => isRecord(item));
    count = multimodal ? 1 : Math.max(1, input.length);
  }
  const model = typeof body.model === 'string' ? body.model : 'omni-moderation-latest';
  const results = new Array(count).fill(cleanResult);
  await sendResultJson(context.response, context.scenario, { id: nextId('modr-'), model, results });
}
