import { stripScenarioDirectives } from '../mock-scenario.ts';
import { type ConversationSummary, isRecord, type ToolDefinition } from '../reply-plan.ts';
import { countWords } from '../word-count.ts';

/**
 * Reads the text of an OpenAI message `content`: a string, or an array of parts of which the
 * `text` parts count (joined by a space); images and audio count for nothing.
 */
export function readOpenAiContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (isRecord(part) && typeof part.text === 'string')
      text = text === '' ? part.text : `${text} ${part.text}`;
  }
  return text;
}

/** Summarises chat `messages` (every role counts, system and tool messages included). */
export function summarizeOpenAiMessages(messages: readonly unknown[]): ConversationSummary {
  let countedPromptTokens = 0;
  let lastUserText = '';
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const text = readOpenAiContentText(message.content);
    countedPromptTokens += countWords(text) + 3;
    if (message.role === 'user') lastUserText = text;
  }
  const last = messages[messages.length - 1];
  return {
    countedPromptTokens,
    lastUserText: stripScenarioDirectives(lastUserText),
    endsWithToolResult: isRecord(last) && (last.role === 'tool' || last.role === 'function'),
  };
}

/**
 * The tool the mock calls: none when `tool_choice` is `"none"` or the conversation ends with a
 * tool result; the named one when `tool_choice` names it; otherwise the first of `tools`.
 * The legacy `functions` parameter is not supported.
 */
export function chooseOpenAiTool(
  body: Record<string, unknown>,
  conversation: ConversationSummary,
): ToolDefinition | undefined {
  if (conversation.endsWithToolResult) return undefined;
  const choice = body.tool_choice;
  if (choice === 'none') return undefined;
  const definitions: ToolDefinition[] = [];
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      if (isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string') {
        definitions.push({ name: tool.function.name, parameters: tool.function.parameters });
      }
    }
  }
  if (isRecord(choice)) {
    const named = isRecord(choice.function) ? choice.function.name : undefined;
    const match = definitions.find((definition) => definition.name === named);
    if (match) return match;
  }
  return definitions[0];
}

/** The completion-token limit of a request (`max_completion_tokens`, else `max_tokens`). */
export function readOpenAiMaxTokens(body: Record<string, unknown>): number | undefined {
  const limit = body.max_completion_tokens ?? body.max_tokens;
  return typeof limit === 'number' ? limit : undefined;
}
