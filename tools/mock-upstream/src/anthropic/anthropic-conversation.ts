import { stripScenarioDirectives } from '../mock-scenario.ts';
import { type ConversationSummary, isRecord, type ToolDefinition } from '../reply-plan.ts';
import { countWords } from '../word-count.ts';

function joinText(left: string, right: string): string {
  return left === '' ? right : right === '' ? left : `${left} ${right}`;
}

/**
 * Reads Anthropic content (a string or blocks). `text` blocks are the message's own text;
 * `tool_result` blocks (string or text-block content) count for tokens but are not echoed.
 */
export function readAnthropicContent(content: unknown): {
  ownText: string;
  allText: string;
  hasToolResult: boolean;
} {
  if (typeof content === 'string') return { ownText: content, allText: content, hasToolResult: false };
  let ownText = '';
  let allText = '';
  let hasToolResult = false;
  if (!Array.isArray(content)) return { ownText, allText, hasToolResult };
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      ownText = joinText(ownText, block.text);
      allText = joinText(allText, block.text);
    } else if (block.type === 'tool_result') {
      hasToolResult = true;
      allText = joinText(allText, readAnthropicContent(block.content).allText);
    }
  }
  return { ownText, allText, hasToolResult };
}

/**
 * Summarises `system` and `messages`: a non-empty system prompt counts as one message; the echoed
 * text is the last user message that has text of its own (not only tool results).
 */
export function summarizeAnthropicMessages(
  system: unknown,
  messages: readonly unknown[],
): ConversationSummary {
  let countedPromptTokens = 0;
  const systemText = readAnthropicContent(system).allText;
  if (systemText !== '') countedPromptTokens += countWords(systemText) + 3;
  let lastUserText = '';
  let endsWithToolResult = false;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const content = readAnthropicContent(message.content);
    countedPromptTokens += countWords(content.allText) + 3;
    if (message.role === 'user' && content.ownText !== '') lastUserText = content.ownText;
    endsWithToolResult = message.role === 'user' && content.hasToolResult;
  }
  return { countedPromptTokens, lastUserText: stripScenarioDirectives(lastUserText), endsWithToolResult };
}

/**
 * The tool to call: none for `tool_choice.type === "none"` or after a tool result; the named one
 * for `{type:"tool"}`; otherwise the first custom tool the model can see (server tools such as web
 * search and tools marked `defer_loading`, which a real model only sees after a tool search, are
 * skipped).
 */
export function chooseAnthropicTool(
  body: Record<string, unknown>,
  conversation: ConversationSummary,
): ToolDefinition | undefined {
  if (conversation.endsWithToolResult || !Array.isArray(body.tools)) return undefined;
  const choice = isRecord(body.tool_choice) ? body.tool_choice : undefined;
  if (choice?.type === 'none') return undefined;
  const definitions: ToolDefinition[] = [];
  for (const tool of body.tools) {
    if (!isRecord(tool) || typeof tool.name !== 'string') continue;
    if (tool.type !== undefined && tool.type !== 'custom') continue;
    if (tool.defer_loading === true) continue;
    definitions.push({ name: tool.name, parameters: tool.input_schema });
  }
  if (choice?.type === 'tool') {
    const match = definitions.find((definition) => definition.name === choice.name);
    if (match) return match;
  }
  return definitions[0];
}

/** True when the request enables extended thinking. */
export function isAnthropicThinkingRequested(body: Record<string, unknown>): boolean {
  return isRecord(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
}
