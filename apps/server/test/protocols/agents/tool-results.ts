import type { RecordedRequest } from '@switchyard/mock-upstream';

type Loose = Record<string, unknown>;
const records = (value: unknown): Loose[] => (Array.isArray(value) ? (value as Loose[]) : []);

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? '');
}

/**
 * The tool results an upstream request carries back to the model, as text, whatever its
 * protocol: Anthropic `tool_result` blocks, OpenAI chat `tool` messages, Responses
 * `function_call_output` items, Gemini `functionResponse` parts.
 */
export function toolResultsIn(request: RecordedRequest): string[] {
  const body = (request.body ?? {}) as Loose;
  const results: string[] = [];
  if (request.path.endsWith('/responses')) {
    for (const item of records(body.input)) {
      if (item.type === 'function_call_output') results.push(text(item.output));
    }
    return results;
  }
  if (Array.isArray(body.contents)) {
    for (const content of records(body.contents)) {
      for (const part of records(content.parts)) {
        const response = part.functionResponse as Loose | undefined;
        if (response) results.push(text(response.response));
      }
    }
    return results;
  }
  for (const message of records(body.messages)) {
    if (message.role === 'tool') results.push(text(message.content));
    for (const block of records(message.content)) {
      if (block.type === 'tool_result') results.push(text(block.content));
    }
  }
  return results;
}

/** The upstream calls the mock received since `from` (an index into `mock.requests`), model calls only. */
export function modelCallsSince(requests: readonly RecordedRequest[], from: number): RecordedRequest[] {
  return requests
    .slice(from)
    .filter(
      (request) =>
        request.method === 'POST' && /messages$|completions$|responses$|Content$/.test(request.path),
    );
}
