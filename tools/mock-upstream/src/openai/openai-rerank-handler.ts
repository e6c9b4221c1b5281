import { type MockRequestContext, nextId } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { isRecord } from '../reply-plan.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { countWords } from '../word-count.ts';

function documentText(document: unknown): string {
  if (typeof document === 'string') return document;
  if (isRecord(document) && typeof document.text === 'string') return document.text;
  return JSON.stringify(document ?? '');
}

/**
 * Relevance in (0, 1]: the share of the query's distinct lower-cased words found in the document,
 * lightly discounted by position so ties keep the documents' order.
 */
export function scoreRerankDocument(queryWords: ReadonlySet<string>, text: string, index: number): number {
  const documentWords = new Set(text.toLowerCase().split(/\s+/));
  let shared = 0;
  for (const word of queryWords) if (documentWords.has(word)) shared++;
  const overlap = queryWords.size === 0 ? 0 : shared / queryWords.size;
  return Math.round((0.05 + 0.9 * overlap + 0.05 / (index + 1)) * 1e6) / 1e6;
}

/**
 * `POST /v1/rerank` in the Jina / Cohere shape new-api relays: `results` sorted by
 * `relevance_score`, cut to `top_n`, with `document` when `return_documents` is not false;
 * `usage.prompt_tokens` is the words of the query plus the words of every document.
 */
export async function handleOpenAiRerank(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (typeof body.query !== 'string' || !Array.isArray(body.documents)) {
    sendProtocolError(response, 'openai', {
      status: 400,
      message: 'rerank needs a string "query" and an array of "documents"',
    });
    return;
  }
  const queryWords = new Set(
    body.query
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word !== ''),
  );
  let promptTokens = countWords(body.query);
  const scored = body.documents.map((document, index) => {
    const text = documentText(document);
    promptTokens += countWords(text);
    return { index, text, relevance_score: scoreRerankDocument(queryWords, text, index) };
  });
  scored.sort((left, right) => right.relevance_score - left.relevance_score || left.index - right.index);
  const topCount = typeof body.top_n === 'number' ? Math.max(0, Math.floor(body.top_n)) : scored.length;
  const returnDocuments = body.return_documents !== false;
  const results = scored
    .slice(0, topCount)
    .map((entry) =>
      returnDocuments
        ? { index: entry.index, document: { text: entry.text }, relevance_score: entry.relevance_score }
        : { index: entry.index, relevance_score: entry.relevance_score },
    );
  const result: Record<string, unknown> = {
    id: nextId('rerank-'),
    model: body.model ?? 'mock-rerank',
    results,
  };
  if (!scenario.noUsage) result.usage = { prompt_tokens: promptTokens, total_tokens: promptTokens };
  await sendResultJson(response, scenario, result);
}
