import { stripScenarioDirectives } from '../mock-scenario.ts';
import { type ConversationSummary, isRecord, type ToolDefinition } from '../reply-plan.ts';
import { countWords } from '../word-count.ts';

/**
 * Reads the text of a Responses input message `content`: a string, or the `text` of its
 * `input_text` / `output_text` parts joined by a space (images and files count for nothing).
 */
function readResponsesContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (isRecord(part) && typeof part.text === 'string')
      text = text === '' ? part.text : `${text} ${part.text}`;
  }
  return text;
}

/**
 * Summarises a Responses request: `instructions` count as one message when non-empty; `input` is
 * a string (one user message) or a list of items — messages (any role) count their text + 3,
 * `function_call_output` items their `output` + 3, `function_call` items their `arguments` + 3.
 * The conversation ends with a tool result when the last item is a `function_call_output`.
 */
export function summarizeResponsesInput(body: Record<string, unknown>): ConversationSummary {
  let countedPromptTokens = 0;
  let lastUserText = '';
  if (typeof body.instructions === 'string' && body.instructions.trim() !== '') {
    countedPromptTokens += countWords(body.instructions) + 3;
  }
  const items: unknown[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : [];
  if (Array.isArray(body.input)) items.push(...body.input);
  for (const item of items) {
    if (!isRecord(item)) continue;
    if (item.type === 'function_call_output') {
      countedPromptTokens += countWords(typeof item.output === 'string' ? item.output : '') + 3;
    } else if (item.type === 'function_call') {
      countedPromptTokens += countWords(typeof item.arguments === 'string' ? item.arguments : '') + 3;
    } else if (item.type === undefined || item.type === 'message') {
      const text = readResponsesContentText(item.content);
      countedPromptTokens += countWords(text) + 3;
      if (item.role === 'user') lastUserText = text;
    }
  }
  const last = items[items.length - 1];
  return {
    countedPromptTokens,
    lastUserText: stripScenarioDirectives(lastUserText),
    endsWithToolResult: isRecord(last) && last.type === 'function_call_output',
  };
}

/**
 * The function the mock calls: none when `tool_choice` is `"none"` or the input ends with a
 * function result; the one `tool_choice: {type: "function", name}` names; else the first
 * `function` tool, those grouped in a `namespace` tool included (built-in tools such as
 * `web_search` are ignored).
 */
export function chooseResponsesTool(
  body: Record<string, unknown>,
  conversation: ConversationSummary,
): ToolDefinition | undefined {
  if (conversation.endsWithToolResult || body.tool_choice === 'none') return undefined;
  const definitions: ToolDefinition[] = [];
  if (Array.isArray(body.tools)) {
    const functions = body.tools.flatMap((tool: unknown) =>
      isRecord(tool) && tool.type === 'namespace' && Array.isArray(tool.tools) ? tool.tools : [tool],
    );
    for (const tool of functions) {
      if (isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string') {
        definitions.push({ name: tool.name, parameters: tool.parameters });
      }
    }
  }
  const choice = body.tool_choice;
  if (isRecord(choice) && typeof choice.name === 'string') {
    const match = definitions.find((definition) => definition.name === choice.name);
    if (match) return match;
  }
  return definitions[0];
}
