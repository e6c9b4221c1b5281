import type { MockScenario } from './mock-scenario.ts';
import { countWords, groupPieces, splitIntoWordPieces } from './word-count.ts';

/** What the mock needs to know about a conversation, whatever protocol carried it. */
export interface ConversationSummary {
  /** Words of every message's text plus 3 per message (system prompts count as messages). */
  readonly countedPromptTokens: number;
  /** The last user message's text, `[[mock:...]]` directives removed. */
  readonly lastUserText: string;
  /** True when the last message carries a tool result: the mock then answers with text. */
  readonly endsWithToolResult: boolean;
}

/** A tool the mock decided to call. */
export interface ToolDefinition {
  readonly name: string;
  /** The tool's JSON schema; the mock fills each declared property with a placeholder value. */
  readonly parameters: unknown;
}

/** Everything protocol-independent the mock replies with, and the usage it reports. */
export interface ReplyPlan {
  /** The full reply text (empty for a tool call). */
  readonly text: string;
  /** The text cut into stream content chunks. */
  readonly textPieces: readonly string[];
  /** Reasoning text (empty unless the model thinks). */
  readonly reasoning: string;
  readonly reasoningPieces: readonly string[];
  readonly toolCall: PlannedToolCall | undefined;
  /** Why generation stopped, in neutral words. */
  readonly finish: 'stop' | 'length' | 'tool';
  readonly usage: MockUsage;
}

/** A tool call with compact JSON arguments and the fragments they are streamed in. */
export interface PlannedToolCall {
  readonly name: string;
  readonly argumentsJson: string;
  readonly argumentFragments: readonly string[];
}

/** Usage in neutral terms; each protocol renders it in its own fields. */
export interface MockUsage {
  /** All prompt tokens, cached and cache-write ones included. */
  readonly promptTokens: number;
  readonly cachedTokens: number;
  readonly cacheWriteTokens: number;
  /** Visible output tokens: text words, or the tool call's tokens. */
  readonly outputTokens: number;
  /** Reasoning words (part of the completion for OpenAI and Anthropic, separate for Gemini). */
  readonly reasoningTokens: number;
}

/** Inputs of {@link planReply}. */
export interface ReplyRequest {
  readonly model: string;
  readonly conversation: ConversationSummary;
  readonly tool: ToolDefinition | undefined;
  readonly thinking: boolean;
  readonly maxTokens: number | undefined;
  readonly scenario: MockScenario;
}

/** The reasoning text of thinking models (8 words). */
export const mockReasoningText = 'Mock reasoning: the user wants a deterministic answer.';
/** The word appended to the reply when `chunks-<n>` asks for more chunks than it has words. */
export const paddingWord = 'more';
/** Length of the slices a tool call's JSON arguments are streamed in. */
export const argumentFragmentLength = 8;
const excerptLength = 40;

/** `Hello from mock <model>: <first 40 characters of the last user message>`, trimmed. */
export function buildReplyText(model: string, lastUserText: string): string {
  return `Hello from mock ${model}: ${lastUserText.slice(0, excerptLength)}`.trim();
}

/** True for models whose name says they reason (`deepseek-reasoner`, `*-thinking`). */
export function isThinkingModel(model: string): boolean {
  return model.includes('reasoner') || model.includes('thinking');
}

/** Decides the reply and its usage; pure and deterministic. */
export function planReply(request: ReplyRequest): ReplyPlan {
  const { scenario } = request;
  const reasoning = request.thinking ? mockReasoningText : '';
  const reasoningPieces = request.thinking ? splitIntoWordPieces(reasoning) : [];
  const reasoningTokens = reasoningPieces.length;
  const promptTokens = Math.max(
    request.conversation.countedPromptTokens,
    scenario.cachedTokens + scenario.cacheWriteTokens,
  );
  const usageBase = {
    promptTokens,
    cachedTokens: scenario.cachedTokens,
    cacheWriteTokens: scenario.cacheWriteTokens,
    reasoningTokens,
  };
  if (request.tool) {
    const toolCall = planToolCall(request.tool);
    return {
      text: '',
      textPieces: [],
      reasoning,
      reasoningPieces,
      toolCall,
      finish: 'tool',
      usage: { ...usageBase, outputTokens: 1 + toolCall.argumentFragments.length },
    };
  }
  let pieces = splitIntoWordPieces(buildReplyText(request.model, request.conversation.lastUserText));
  if (scenario.chunkCount !== undefined && scenario.chunkCount > pieces.length) {
    const padding = new Array<string>(scenario.chunkCount - pieces.length).fill(` ${paddingWord}`);
    pieces = pieces.concat(padding);
  }
  let finish: ReplyPlan['finish'] = 'stop';
  if (request.maxTokens !== undefined && request.maxTokens >= 0 && pieces.length > request.maxTokens) {
    pieces = pieces.slice(0, request.maxTokens);
    finish = 'length';
  }
  const text = pieces.join('');
  const textPieces = scenario.chunkCount === undefined ? pieces : groupPieces(pieces, scenario.chunkCount);
  return {
    text,
    textPieces,
    reasoning,
    reasoningPieces,
    toolCall: undefined,
    finish,
    usage: { ...usageBase, outputTokens: countWords(text) },
  };
}

function planToolCall(tool: ToolDefinition): PlannedToolCall {
  const argumentsJson = JSON.stringify(buildPlaceholderArguments(tool.parameters));
  const argumentFragments: string[] = [];
  for (let offset = 0; offset < argumentsJson.length; offset += argumentFragmentLength) {
    argumentFragments.push(argumentsJson.slice(offset, offset + argumentFragmentLength));
  }
  return { name: tool.name, argumentsJson, argumentFragments };
}

/**
 * Fills every property of a JSON schema with a placeholder: the first `enum` value, else
 * `"mock"` for strings, `1` for numbers, `true` for booleans, `[]` and `{}` for arrays and objects.
 */
export function buildPlaceholderArguments(schema: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    result[name] = placeholderValue(propertySchema);
  }
  return result;
}

function placeholderValue(schema: unknown): unknown {
  if (!isRecord(schema)) return 'mock';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (typeof type === 'string' ? type.toLowerCase() : type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'mock';
  }
}

/** Narrows an unknown JSON value to a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
