import { openAIChatPromptInput } from '../protocols/openai-chat/openai-chat-prompt.js';
import type { PassthroughTapResult } from '../spec/passthrough-tap.js';
import type { PromptInput, PromptPart } from '../spec/prompt-input.js';
import type { UnifiedResponse } from '../spec/unified-response.js';
import { createTokenCounter, type TokenCounter } from './token-counter.js';

/** Flat prompt prices of media parts (new-api §4.2, without ever downloading an image). */
export const MEDIA_TOKENS = {
  /** `detail: "low"` images. */
  imageLow: 85,
  /** Any other image (new-api's flat value when it does not inspect the image). */
  image: 255,
  audio: 100,
  file: 5000,
} as const;

/** Tokens added per tool call in a completion counted locally (new-api's value). */
export const TOKENS_PER_TOOL_CALL = 7;

/** An estimate and whether part of it was extrapolated (input beyond the exact-count budget). */
export interface TokenEstimate {
  readonly tokens: number;
  readonly extrapolated: boolean;
}

/**
 * A counter that never tokenizes, for sizing a reservation on the hot path (the exact count costs
 * tens of microseconds per prompt and is wasted whenever the upstream reports its usage): ASCII
 * characters at 3 per token and other characters at 1.25 tokens each, which lies above the BPE
 * count of ordinary English (about 4 characters per token) and CJK text (o200k about 0.75, cl100k
 * about 1.1 tokens per character). Non-ASCII characters are derived from the UTF-8 length
 * (`(bytes − UTF-16 units) / 2`, exact for 3-byte characters), so nothing loops over the text.
 */
export function createQuickTokenCounter(): TokenCounter {
  return {
    count(text: string): number {
      if (text.length === 0) return 0;
      const nonAscii = (Buffer.byteLength(text, 'utf8') - text.length) / 2;
      return Math.ceil((text.length - nonAscii) / 3 + nonAscii * 1.25);
    },
    estimated: true,
  };
}

/**
 * Estimates prompt tokens locally, the OpenAI way (new-api §4.2): per message 3 tokens + role +
 * content (+1 + name when named), 3 more at the end; text parts tokenized; images 85 (`low`) or
 * 255, audio 100, files 5000, flat; plain texts tokenized without overhead; tools 8 + the name,
 * description and parameters of every tool (new-api counted only the last one).
 * `gpt-3.5-turbo-0301` uses 4 per message and -1 per name. Bounded in CPU time (see
 * `MAX_EXACT_CHARS`). With `quick`, texts are sized by {@link createQuickTokenCounter} instead of
 * the tokenizer (same overheads and media prices): an upper-leaning estimate for reservations.
 */
export function estimatePromptTokens(
  prompt: PromptInput,
  model: string,
  options: { quick?: boolean } = {},
): TokenEstimate {
  const counter = options.quick ? createQuickTokenCounter() : createTokenCounter(model);
  const legacy = model.startsWith('gpt-3.5-turbo-0301');
  const perMessage = legacy ? 4 : 3;
  const perName = legacy ? -1 : 1;
  let tokens = 0;
  const messages = prompt.messages ?? [];
  for (const message of messages) {
    tokens += perMessage + counter.count(message.role);
    tokens +=
      typeof message.content === 'string'
        ? counter.count(message.content)
        : countParts(message.content, counter);
    if (message.name !== undefined) tokens += perName + counter.count(message.name);
  }
  if (messages.length > 0) tokens += 3;
  for (const text of prompt.texts ?? []) tokens += counter.count(text);
  tokens += prompt.tokenCount ?? 0;
  const tools = prompt.tools ?? [];
  if (tools.length > 0) {
    tokens += 8;
    for (const tool of tools) {
      tokens += counter.count(tool.name);
      if (tool.description !== undefined) tokens += counter.count(tool.description);
      if (tool.parameters !== undefined && tool.parameters !== null) {
        tokens += counter.count(safeStringify(tool.parameters));
      }
    }
  }
  return { tokens: Math.max(0, tokens), extrapolated: counter.estimated };
}

/** {@link estimatePromptTokens} for OpenAI chat `messages` (and optional `tools`) as sent. */
export function estimateChatPromptTokens(
  messages: readonly unknown[],
  model: string,
  tools?: readonly unknown[],
): number {
  return estimatePromptTokens(openAIChatPromptInput({ messages, tools }), model).tokens;
}

/**
 * Completion tokens counted locally from what a pass-through tap collected (when the upstream sent
 * no usage): the collected text, extrapolated to the characters beyond the collection cap, plus
 * {@link TOKENS_PER_TOOL_CALL} per tool call.
 */
export function countGeneratedTokens(
  generated: PassthroughTapResult['generated'],
  model: string,
): TokenEstimate {
  const counter = createTokenCounter(model);
  let tokens = counter.count(generated.text);
  let extrapolated = counter.estimated;
  const missing = generated.chars - generated.text.length;
  if (missing > 0 && generated.text.length > 0) {
    tokens += Math.ceil((missing * tokens) / generated.text.length);
    extrapolated = true;
  }
  return { tokens: tokens + generated.toolCallCount * TOKENS_PER_TOOL_CALL, extrapolated };
}

/** Completion tokens of a non-stream response counted locally (content, reasoning, tool calls). */
export function countResponseTokens(response: UnifiedResponse, model: string): TokenEstimate {
  const counter = createTokenCounter(model);
  let tokens = 0;
  for (const choice of response.choices) {
    tokens += counter.count(choice.text);
    if (choice.reasoning !== undefined) tokens += counter.count(choice.reasoning);
    for (const toolCall of choice.toolCalls) {
      tokens += counter.count(toolCall.name) + counter.count(toolCall.arguments) + TOKENS_PER_TOOL_CALL;
    }
  }
  return { tokens, extrapolated: counter.estimated };
}

function countParts(parts: readonly PromptPart[], counter: TokenCounter): number {
  let tokens = 0;
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        tokens += counter.count(part.text);
        break;
      case 'image':
        tokens += part.detail === 'low' ? MEDIA_TOKENS.imageLow : MEDIA_TOKENS.image;
        break;
      case 'audio':
        tokens += MEDIA_TOKENS.audio;
        break;
      case 'file':
        tokens += MEDIA_TOKENS.file;
        break;
    }
  }
  return tokens;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
