import { RelayRequestError } from '../../spec/request-error.js';

type Block = Record<string, unknown>;
interface Turn {
  role: 'user' | 'assistant';
  blocks: Block[];
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;
/** Thinking budget per OpenAI `reasoning_effort`. */
export const REASONING_EFFORT_BUDGETS: Readonly<Record<string, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/**
 * Converts an OpenAI chat completions body into an Anthropic Messages body (for every Claude
 * model, unlike the reference's claude-3-only rule). Messages: every system/developer message is
 * collected into `system` (joined with blank lines); consecutive same-role turns are merged;
 * empty content becomes `"..."`; a conversation that does not start with the user gets a `"..."`
 * user turn first; `tool` messages become `tool_result` blocks of a user turn; assistant
 * `tool_calls` become `tool_use` blocks (invalid argument JSON → `{}`); data-URL images become
 * base64 image blocks and http(s) URLs URL image blocks. Fields: tools, tool_choice,
 * parallel_tool_calls, stop, sampling parameters, `user`, stream, `reasoning_effort` (a
 * thinking budget) and `web_search_options` (Anthropic's web search server tool, with the user's
 * approximate location). `max_tokens` is left to the caller's default rule when absent.
 */
export function convertChatToAnthropic(
  chat: Readonly<Record<string, unknown>>,
  model: string,
  warnings: string[],
): Record<string, unknown> {
  const systems: string[] = [];
  const turns: Turn[] = [];
  const push = (role: Turn['role'], blocks: Block[]) => {
    const last = turns.at(-1);
    if (last?.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  const messages = Array.isArray(chat.messages) ? chat.messages : [];
  messages.forEach((message: unknown, index) => {
    if (!isRecord(message)) return;
    const path = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content);
        if (text !== '') systems.push(text);
        return;
      }
      case 'assistant': {
        const blocks = contentBlocks(message.content, path);
        if (Array.isArray(message.tool_calls)) {
          for (const call of message.tool_calls) blocks.push(toolUse(call));
        }
        push('assistant', blocks);
        return;
      }
      case 'tool':
      case 'function': {
        const id = message.role === 'tool' ? message.tool_call_id : message.name;
        push('user', [
          { type: 'tool_result', tool_use_id: String(id ?? ''), content: textOf(message.content) },
        ]);
        return;
      }
      default:
        push('user', contentBlocks(message.content, path));
    }
  });
  if (turns[0]?.role !== 'user') turns.unshift({ role: 'user', blocks: [] });

  const body: Record<string, unknown> = {
    model,
    messages: turns.map((turn) => ({ role: turn.role, content: finishBlocks(turn.blocks) })),
  };
  if (systems.length > 0) body.system = systems.join('\n\n');
  const maxTokens = chat.max_completion_tokens ?? chat.max_tokens;
  if (typeof maxTokens === 'number' && maxTokens > 0) body.max_tokens = maxTokens;
  const stop = chat.stop;
  if (typeof stop === 'string' && stop !== '') body.stop_sequences = [stop];
  else if (Array.isArray(stop) && stop.length > 0) body.stop_sequences = stop;
  if (typeof chat.temperature === 'number') {
    body.temperature = Math.min(chat.temperature, 1);
    if (chat.temperature > 1) warnings.push('parameter "temperature" above 1 was lowered to 1 for Claude');
  }
  for (const field of ['top_p', 'top_k'] as const) {
    if (typeof chat[field] === 'number') body[field] = chat[field];
  }
  if (typeof chat.user === 'string' && chat.user !== '') body.metadata = { user_id: chat.user };
  if (chat.stream === true) body.stream = true;
  if (Array.isArray(chat.tools) && chat.tools.length > 0) {
    body.tools = chat.tools.flatMap((tool: unknown) => {
      const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
      if (fn === undefined || typeof fn.name !== 'string') return [];
      const converted: Record<string, unknown> = {
        name: fn.name,
        input_schema: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
      };
      if (typeof fn.description === 'string') converted.description = fn.description;
      return [converted];
    });
  }
  if (isRecord(chat.web_search_options)) {
    const tools = Array.isArray(body.tools) ? body.tools : [];
    tools.push(webSearchTool(chat.web_search_options));
    body.tools = tools;
  }
  const toolChoice = convertToolChoice(chat.tool_choice, chat.parallel_tool_calls === false);
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  const effort = chat.reasoning_effort;
  if (typeof effort === 'string' && Object.hasOwn(REASONING_EFFORT_BUDGETS, effort)) {
    body.thinking = { type: 'enabled', budget_tokens: REASONING_EFFORT_BUDGETS[effort] };
  }
  return body;
}

/** Anthropic's web search server tool for chat's `web_search_options`. */
export const ANTHROPIC_WEB_SEARCH_TOOL = 'web_search_20250305';

function webSearchTool(options: Record<string, unknown>): Block {
  const tool: Block = { type: ANTHROPIC_WEB_SEARCH_TOOL, name: 'web_search' };
  const location = isRecord(options.user_location) ? options.user_location.approximate : undefined;
  if (isRecord(location)) tool.user_location = { type: 'approximate', ...location };
  return tool;
}

function convertToolChoice(choice: unknown, noParallel: boolean): Record<string, unknown> | undefined {
  let converted: Record<string, unknown> | undefined;
  if (choice === 'auto') converted = { type: 'auto' };
  else if (choice === 'required') converted = { type: 'any' };
  else if (choice === 'none') converted = { type: 'none' };
  else if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    converted = { type: 'tool', name: choice.function.name };
  }
  if (noParallel) {
    converted ??= { type: 'auto' };
    if (converted.type !== 'none') converted.disable_parallel_tool_use = true;
  }
  return converted;
}

function toolUse(call: unknown): Block {
  const record = isRecord(call) ? call : {};
  const fn = isRecord(record.function) ? record.function : {};
  let input: unknown = {};
  if (typeof fn.arguments === 'string' && fn.arguments.trim() !== '') {
    try {
      input = JSON.parse(fn.arguments);
    } catch {
      input = {};
    }
  }
  return {
    type: 'tool_use',
    id:
      typeof record.id === 'string' && record.id !== ''
        ? record.id
        : `toolu_${crypto.randomUUID().slice(0, 8)}`,
    name: typeof fn.name === 'string' ? fn.name : '',
    input: isRecord(input) ? input : {},
  };
}

function contentBlocks(content: unknown, path: string): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  content.forEach((part: unknown, index) => {
    if (typeof part === 'string') blocks.push({ type: 'text', text: part });
    else if (isRecord(part)) blocks.push(convertPart(part, `${path}.content[${index}]`));
  });
  return blocks;
}

function convertPart(part: Record<string, unknown>, path: string): Block {
  if (part.type === 'text' || typeof part.text === 'string')
    return { type: 'text', text: String(part.text ?? '') };
  if (part.type === 'image_url') {
    const image = part.image_url;
    const url = typeof image === 'string' ? image : isRecord(image) ? image.url : undefined;
    if (typeof url !== 'string') return invalidPart(path, 'an image_url part without a URL');
    const data = DATA_URL.exec(url);
    if (data !== null)
      return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
    if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
    return invalidPart(path, 'an image URL that is neither http(s) nor a base64 data URL');
  }
  if (part.type === 'file' && isRecord(part.file) && typeof part.file.file_data === 'string') {
    const data = DATA_URL.exec(part.file.file_data);
    if (data !== null)
      return { type: 'document', source: { type: 'base64', media_type: data[1], data: data[2] } };
  }
  return invalidPart(path, `${JSON.stringify(part.type)} parts`);
}

/** Drops empty text blocks; an empty turn becomes `"..."`; a lone text block becomes a string. */
function finishBlocks(blocks: Block[]): string | Block[] {
  const kept = blocks.filter((block) => block.type !== 'text' || block.text !== '');
  if (kept.length === 0) return '...';
  if (kept.length === 1 && kept[0]!.type === 'text') return String(kept[0]!.text);
  return kept;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'string' ? part : isRecord(part) && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}

function invalidPart(path: string, what: string): never {
  throw new RelayRequestError('request:invalid_body', `${path}: ${what} cannot be sent to Claude`, {
    param: path,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
