import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { isRecord } from './anthropic-messages-schemas.js';

type ChatMessage = Record<string, unknown>;
type ChatPart = Record<string, unknown>;

/**
 * Converts an Anthropic Messages call into an `openai-chat` call (the hub format): `system`, and
 * every `system` message inside `messages[]`, → a system message at its place; text and image
 * blocks → content parts (one string when all text); assistant `tool_use` → `tool_calls`; user
 * `tool_result` → `tool` messages placed before the user's other content; thinking and server
 * tool blocks dropped, other blocks kept as their text; tools, tool_choice, stop_sequences,
 * sampling parameters and `metadata.user_id` mapped, the web search server tool →
 * `web_search_options`, tools marked `defer_loading` left out; streams ask for usage. Fields chat has no equivalent for (`thinking`,
 * `output_config`, `context_management`, cache control...) are dropped. Throws
 * `RelayRequestError` for content that would be lost (images by file id, other server tools).
 */
export function anthropicToChatCall(call: RelayCall): RelayCall {
  const source = call.body;
  const messages: ChatMessage[] = [];
  const system = systemText(source.system);
  if (system !== undefined) messages.push({ role: 'system', content: system });
  const input = Array.isArray(source.messages) ? source.messages : [];
  input.forEach((message: unknown, index) => {
    if (!isRecord(message)) return;
    if (message.role === 'assistant') messages.push(convertAssistant(message.content));
    else if (message.role === 'system') {
      // Chat keeps a system message where it stands; adapters of upstreams with one system
      // prompt (Claude, Gemini) gather them there.
      const text = systemText(message.content);
      if (text !== undefined) messages.push({ role: 'system', content: text });
    } else messages.push(...convertUser(message.content, index));
  });

  const body: Record<string, unknown> = { model: call.upstreamModel, messages };
  if (typeof source.max_tokens === 'number') body.max_tokens = source.max_tokens;
  if (typeof source.temperature === 'number') body.temperature = source.temperature;
  if (typeof source.top_p === 'number') body.top_p = source.top_p;
  if (Array.isArray(source.stop_sequences) && source.stop_sequences.length > 0) {
    body.stop = source.stop_sequences;
  }
  if (isRecord(source.metadata) && typeof source.metadata.user_id === 'string') {
    body.user = source.metadata.user_id;
  }
  if (Array.isArray(source.tools) && source.tools.length > 0) {
    const tools: Record<string, unknown>[] = [];
    source.tools.forEach((tool: unknown, index) => {
      const record = isRecord(tool) ? tool : {};
      // A deferred tool is out of the model's sight until a tool search loads it, which chat has not.
      if (record.defer_loading === true) return;
      if (isRecord(record.input_schema)) tools.push(convertTool(record));
      else if (typeof record.type === 'string' && record.type.startsWith('web_search')) {
        body.web_search_options = webSearchOptions(record);
      } else unsupported(`tools[${index}]`, `server tools (${JSON.stringify(record.type ?? record.name)})`);
    });
    if (tools.length > 0) body.tools = tools;
  }
  if (isRecord(source.tool_choice) && Array.isArray(body.tools)) {
    const choice = source.tool_choice;
    if (choice.type === 'any') body.tool_choice = 'required';
    else if (choice.type === 'tool') body.tool_choice = { type: 'function', function: { name: choice.name } };
    else if (choice.type === 'none') body.tool_choice = 'none';
    else body.tool_choice = 'auto';
    if (choice.disable_parallel_tool_use === true) body.parallel_tool_calls = false;
  }
  if (call.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return {
    protocol: 'openai-chat',
    model: call.model,
    upstreamModel: call.upstreamModel,
    stream: call.stream,
    includeUsage: call.stream,
    maxTokens: call.maxTokens,
    body,
    path: '/v1/chat/completions',
    query: call.query,
    prompt: call.prompt,
  };
}

function systemText(system: unknown): string | undefined {
  if (typeof system === 'string') return system === '' ? undefined : system;
  if (!Array.isArray(system)) return undefined;
  const texts = system.flatMap((block: unknown) =>
    isRecord(block) && typeof block.text === 'string' ? [block.text] : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function convertAssistant(content: unknown): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  const toolCalls: Record<string, unknown>[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    if (!isRecord(block)) continue;
    // Thinking, server tool uses and their results are records chat has no place for.
    if (block.type === 'text') text += String(block.text);
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const message: ChatMessage = {
    role: 'assistant',
    content: toolCalls.length > 0 && text === '' ? null : text,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

function convertUser(content: unknown, index: number): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const out: ChatMessage[] = [];
  const parts: ChatPart[] = [];
  (Array.isArray(content) ? content : []).forEach((block: unknown, position) => {
    if (!isRecord(block)) return;
    const path = `messages[${index}].content[${position}]`;
    if (block.type === 'tool_result') {
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block.content) });
      return;
    }
    const part = convertPart(block, path);
    if (part !== undefined) parts.push(part);
  });
  if (parts.length > 0) out.push({ role: 'user', content: simplify(parts) });
  else if (out.length === 0) out.push({ role: 'user', content: '' });
  return out;
}

function convertPart(block: Record<string, unknown>, path: string): ChatPart | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image': {
      const source = isRecord(block.source) ? block.source : {};
      if (source.type === 'base64') {
        return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } };
      }
      if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url } };
      return unsupported(path, 'images with a file source');
    }
    case 'document': {
      const source = isRecord(block.source) ? block.source : {};
      if (source.type === 'text' && typeof source.data === 'string')
        return { type: 'text', text: source.data };
      if (source.type === 'base64' && typeof source.data === 'string') {
        const file: Record<string, unknown> = {
          file_data: `data:${source.media_type};base64,${source.data}`,
        };
        if (typeof block.title === 'string') file.filename = block.title;
        return { type: 'file', file };
      }
      return unsupported(path, 'documents with this source');
    }
    default:
      // Other blocks (search results, cache or tool bookkeeping): their text when they have one.
      return typeof block.text === 'string' ? { type: 'text', text: block.text } : undefined;
  }
}

/** One string when every part is text (widest upstream support), the parts otherwise. */
function simplify(parts: ChatPart[]): string | ChatPart[] {
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => String(part.text)).join('\n');
  return parts;
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((block: unknown) => (isRecord(block) && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');
}

function convertTool(record: Record<string, unknown>): Record<string, unknown> {
  const fn: Record<string, unknown> = { name: record.name, parameters: record.input_schema };
  if (typeof record.description === 'string') fn.description = record.description;
  return { type: 'function', function: fn };
}

/** Chat's `web_search_options` for Anthropic's web search tool (its approximate location kept). */
function webSearchOptions(tool: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(tool.user_location)) return {};
  const { type: _type, ...approximate } = tool.user_location;
  return { user_location: { type: 'approximate', approximate } };
}

function unsupported(path: string, what: string): never {
  throw new RelayRequestError(
    'request:invalid_body',
    `${path}: ${what} are not supported by the channel serving this model (no chat completions equivalent)`,
    { param: path },
  );
}
